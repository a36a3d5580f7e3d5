/**
 * `jobfit stub …`: run and drive the embedded stub, one verb per file. Every
 * verb takes `--data DIR` (default `<config dir>/stub`) and works on the same
 * SQLite file as a running `stub serve`, so lifecycle commands can be run
 * beside it. The stub's keys are its own fake keys and are printed whole on
 * purpose.
 */
import type { Command } from 'commander';
import type { WireDeps as CommandDeps } from '../kit/wire.js';
import * as accept from './accept.js';
import * as complete from './complete.js';
import * as events from './events.js';
import * as keys from './keys.js';
import * as outbox from './outbox.js';
import * as reset from './reset.js';
import * as seed from './seed.js';
import * as serve from './serve.js';
import { examples } from './shared.js';
import * as trigger from './trigger.js';
import * as webhooks from './webhooks.js';

/** In the order `jobfit stub --help` lists them. */
const VERBS = [serve, keys, reset, seed, accept, complete, outbox, webhooks, events, trigger];

export function register(program: Command, deps: CommandDeps): void {
  const stub = program
    .command('stub')
    .description('Run and drive the embedded local stub of the service (every command takes --data DIR)')
    .addHelpText('after', examples('jobfit stub serve --port 4010', 'jobfit stub keys -o json', 'jobfit stub accept 100001', 'jobfit stub complete 500001 --assessment all'));
  for (const verb of VERBS) verb.register(stub, deps);
}
