/**
 * `jobfit whoami`: the run functions with a Context on memory streams, against
 * the real stub on a loopback port (moved from test/commands/run.test.ts).
 */
import { describe, expect, it } from 'vitest';
import * as whoami from '../../../src/commands/whoami/show.js';
import { type StubEnv, stubForTests } from '../stub-env.js';

let s: StubEnv;
const ctxFor = stubForTests((started) => {
  s = started;
});

describe('reads', () => {
  it('whoami names the account, mode, masked key and where the key came from', async () => {
    const f = ctxFor({ globals: { output: 'json' } });
    await whoami.default.run({}, f.ctx);
    const who = JSON.parse(f.stdout());
    expect(who).toMatchObject({ mode: 'live', base_url: s.stub.url, key_source: 'JOBFIT_API_KEY', embedded_stub: false });
    expect(who.account.id).toBe(s.stub.keys[0].account_id);
    expect(who.key).toMatch(/^sk_live_…/);
    expect(f.stdout()).not.toContain(s.live);
    await f.ctx.close();
  });

});
