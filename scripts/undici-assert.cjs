'use strict';
// Stands in for node:assert inside undici in the bundle (scripts/build.mjs).
// undici checks its own invariants with a bare assert(value) and nothing else
// of the module; loading node:assert costs every request-making command 3 to
// 5 ms at start (its diff, call tracker and colours). A failed check throws
// node's own AssertionError, which is then loaded.
module.exports = function assert(value, message) {
  if (value) return;
  if (message instanceof Error) throw message;
  const { AssertionError } = require('node:assert');
  throw new AssertionError({ message: message ?? 'The expression evaluated to a falsy value', actual: value, expected: true, operator: '==' });
};
