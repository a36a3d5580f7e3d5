/** `jobfit stub serve`: the stub as a long-lived HTTP server, with its keys printed and its webhook delivery loop running. */
import * as z from 'zod';
import { JobfitError } from '../../core/errors.js';
import { isLoopbackHost } from '../../core/loopback.js';
import { safeLine } from '../../format/sanitize.js';
// The faults parser alone, not the stub (index.ts): `jobfit stub --help` stays light.
import { parseFaults } from '../../stub/faults.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { flag } from '../kit/flags.js';
import { data, dataDir, firstRefusal, notPositiveInt } from './shared/stub-data.js';
import { baselineWasmOnly } from '../../core/wasm.js';

/** The refusal of a bad --faults spec, as the stub words it. */
function badFaults(spec: string | undefined): string | undefined {
  try {
    parseFaults(spec);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

const ServeOptions = z
  .object({
    port: flag(z.string(), { flag: '--port <port>', description: 'port to listen on (default 4010; 0 picks a free one)', default: '4010' }),
    host: flag(z.string(), { flag: '--host <host>', description: 'interface to bind (default 127.0.0.1)', default: '127.0.0.1' }),
    faults: flag(z.string().optional(), { flag: '--faults <spec>', description: 'inject faults, e.g. "429=0.05,5xx=0.05,drop=0.02,latency=5,seed=42[,retry-after=1][,only=writes]"' }),
    minimalFields: flag(z.boolean().optional(), {
      flag: '--minimal-fields',
      description: 'play a strict server: "not shown" list items (test takers, career navigation profiles) carry only the fields the reference states',
    }),
    data,
  })
  .superRefine(firstRefusal((o) => notPositiveInt(o.port, '--port') ?? (o.faults ? badFaults(o.faults) : undefined)));
type ServeOptions = z.output<typeof ServeOptions>;

async function run(opts: ServeOptions, ctx: Context): Promise<void> {
  // Webhooks are delivered (or forwarded) with node's fetch: see core/wasm.ts.
  baselineWasmOnly();
  const port = Number(opts.port);
  const faults = opts.faults ? parseFaults(opts.faults) : undefined;
  const { startStubServer: startStub, startDeliveryLoop } = await import('../../stub/index.js');
  let stub: Awaited<ReturnType<typeof startStub>>;
  const dir = dataDir(ctx, opts);
  try {
    stub = await startStub({ dataDir: dir, port, host: opts.host, faults, minimalFields: opts.minimalFields });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') throw new JobfitError(`Port ${port} is already in use.`, { hint: 'Pick another with --port, or --port 0 for a free one.' });
    throw err;
  }
  const loop = startDeliveryLoop(stub.store);
  // `login` offers this stub as its base URL, `webhook listen` finds its data from the URL, and
  // bulk invite knows it for our stub by its instance (config/served-stubs.ts, isOurStub).
  const { noteServedStub } = await import('../../config/served-stubs.js');
  const unnote = noteServedStub(ctx.io.env, stub.origin, dir, stub.instance);
  const out = ctx.io.stdout;
  const boundHost = stub.bound.slice(0, stub.bound.lastIndexOf(':')).replace(/^\[|\]$/g, '');
  const everywhere = boundHost === '0.0.0.0' || boundHost === '::';
  // The base URL first (scripts read it), then the address really bound when
  // the URL does not show it (0.0.0.0: every interface, reached here as 127.0.0.1).
  const boundNote = stub.origin.endsWith(`//${stub.bound}`) ? '' : ` (bound to ${stub.bound}${everywhere ? ', every interface' : ''})`;
  out.write(`Stub listening on ${stub.url}${boundNote}\n`);
  for (const k of stub.keys) {
    out.write(`  account ${k.account_id} (${safeLine(k.display_name)})\n    live key: ${k.live_key}\n    test key: ${k.test_key}\n`);
  }
  if (!isLoopbackHost(boundHost)) {
    ctx.warn(
      `the stub is reachable beyond this machine (${stub.bound}), and its keys are the published seed keys: anyone who can reach it can read and change its data, people's names and emails included. Use --host 127.0.0.1 unless that is what you want.`,
    );
  }
  if (faults) ctx.info(`Faults on: ${opts.faults}`);
  if (opts.minimalFields) ctx.info('Minimal fields: test taker and career navigation profile list items carry only what the reference states.');
  ctx.info(`Data: ${stub.store.path}`);
  ctx.info('Press Ctrl-C to stop.');
  await new Promise<void>((resolve) => {
    if (ctx.io.signal.aborted) resolve();
    else ctx.io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  unnote();
  await loop.stop();
  await stub.close();
  ctx.info('Stub stopped.');
}

export default defineCommand({
  name: 'serve',
  summary: 'Run the stub as a long-lived HTTP server; prints its base URL and keys (Ctrl-C stops it)',
  options: ServeOptions,
  examples: ['jobfit stub serve', 'jobfit stub serve --port 0 --data ./stub-data', 'jobfit stub serve --faults "429=0.1,seed=7"', 'jobfit stub serve --minimal-fields'],
  run,
});
