/**
 * `jobfit teams`: the run functions with a Context on memory streams, against
 * the real stub on a loopback port (moved from test/commands/run.test.ts).
 */
import { describe, expect, it } from 'vitest';
import * as teams from '../../../src/commands/teams/list.js';
import { type StubEnv, stubForTests } from '../stub-env.js';

let s: StubEnv;
const ctxFor = stubForTests((started) => {
  s = started;
});

describe('reads', () => {
  it('teams prints the API list envelope as received when piped', async () => {
    const f = ctxFor();
    await teams.default.run({}, f.ctx);
    const out = JSON.parse(f.stdout());
    expect(out.object).toBe('list');
    expect(out.data.length).toBe(out.total_count);
    expect(out.data[0]).toHaveProperty('display_name');
    // Piped and not verbose: no mode line, nothing on stderr at all.
    expect(f.stderr()).toBe('');
    await f.ctx.close();
  });

  it('teams as a table on a terminal, with the mode line on stderr only', async () => {
    const f = ctxFor({ tty: true, noColor: true });
    await teams.default.run({}, f.ctx);
    expect(f.stdout()).toMatch(/^ID\s+NAME\s+USERS/);
    expect(f.stdout()).not.toContain('[live mode]');
    expect(f.stderr()).toMatch(/^\[live mode\] JOBFIT_API_KEY · http:\/\/127\.0\.0\.1:\d+\/v2 · sk_live_…/);
    expect(f.stderr()).not.toContain(s.live);
    await f.ctx.close();
  });

});
