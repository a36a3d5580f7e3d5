'use strict';
// Stands in for undici's HTTP/2 client in the bundle (scripts/build.mjs):
// jobfit never enables allowH2, so undici never negotiates h2, and leaving out
// client-h2.js spares every request-making command loading node:http2.
module.exports = function connectH2() {
  throw new Error('HTTP/2 is not available in this build of jobfit.');
};
