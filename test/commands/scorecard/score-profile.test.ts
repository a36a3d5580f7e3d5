import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { humanStderr } from '../../helpers/stderr.js';

describe('--sp is checked once against the account\'s score profiles', () => {
  it('scorecard with an unknown --sp: one sentence, the valid names, exit 2, nothing on stdout', async () => {
    const r = await runCli(['scorecard', '500001', '500002', '--sp', 'nope', '-o', 'csv']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Unknown score profile "nope" for --sp.');
    expect(r.stderr).toContain('sales-rep');
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
  });

  it('report with an unknown --sp fails the same way', async () => {
    const r = await runCli(['report', '--sp', 'nope', '-o', 'json']);
    expect(r.code).toBe(2);
    expect(humanStderr(r.stderr)).toContain('Unknown score profile "nope"');
  });

  it('a known --sp goes through', async () => {
    const r = await runCli(['scorecard', '500001', '--sp', 'sales-rep', '-o', 'json']);
    expect(r.code).toBe(0);
    // One id: the scorecard itself, not a list of one (issue 14 item 8).
    expect(JSON.parse(r.stdout)).toMatchObject({ object: 'scorecard', test_taker_id: 500001 });
  });
});
