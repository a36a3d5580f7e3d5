/**
 * `jobfit health`: the run functions with a Context on memory streams, against
 * the real stub on a loopback port (moved from test/commands/run.test.ts).
 */
import { describe, expect, it } from 'vitest';
import * as health from '../../../src/commands/health/check.js';
import { stubForTests } from '../stub-env.js';

const ctxFor = stubForTests(() => {});

describe('reads', () => {
  it('health needs no key', async () => {
    const f = ctxFor({ env: { JOBFIT_API_KEY: '' }, globals: { output: 'json' } });
    await health.default.run({}, f.ctx);
    expect(JSON.parse(f.stdout())).toMatchObject({ status: 'ok', version: 'v2' });
    await f.ctx.close();
  });

});
