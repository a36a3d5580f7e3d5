/**
 * Issue 43, item 6: `#INCOMPLETE EXPORT` is the last line, always, and every
 * count printed is the count written. One list request of `invitations list
 * --all` or `test-takers list --all` fails (400, 403, 404, a refused
 * redirect) while others are in flight: before the fix their rows kept
 * coming after the mark (once at line 421 of 2,004), and stderr's count was
 * not the rows before it. The run is watched for a while after it returned:
 * nothing may arrive then either.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { type FaultServer, faultEnv, seed, send, startFaultServer } from '../helpers/fault-server.js';
import { memoryIO } from '../helpers/io.js';

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The failing answer, and the exit it ends with (a 403 is the key refused: 4). */
const FAILURES: Array<[string, number, (res: Parameters<typeof send>[0]) => true]> = [
  ['400', 1, (res) => send(res, 400, { error: 'email: bad pattern' })],
  ['403', 4, (res) => send(res, 403, { error: 'Forbidden' })],
  ['404', 1, (res) => send(res, 404, { error: 'Not found' })],
  ['a redirect to another host', 1, (res) => send(res, 302, { error: 'moved' }, { location: 'http://elsewhere.example/v2/invitations' })],
];

async function runWatched(s: FaultServer, args: string[]) {
  const configDir = mkdtempSync(join(tmpdir(), 'jobfit-r4-mark-'));
  const m = memoryIO({ env: { JOBFIT_CONFIG_DIR: configDir, ...faultEnv(s, { JOBFIT_MAX_RETRIES: '0' }) } });
  try {
    const code = await run(args, m.io);
    const atReturn = m.stdout();
    // Requests that were in flight answer now: they must write nothing.
    await new Promise((r) => setTimeout(r, 400));
    return { code, stdout: m.stdout(), atReturn, stderr: m.stderr() };
  } finally {
    rmSync(configDir, { recursive: true, force: true });
  }
}

describe.each(['invitations', 'test-takers'])('%s list --all -o csv, one list request failing among others in flight', (resource) => {
  it.each(FAILURES)('%s: exit %i, the mark is the last line, the counts are the rows written', async (_name, exit, fail) => {
    server = await startFaultServer();
    const s = server;
    seed(s, 2000, { accepted: 2000, email: (i) => `p${i}.${'abcdefghij'[i % 10]}${'klmnopqrst'[(i >> 3) % 10]}@d${i % 13}.example` });
    let lists = 0;
    s.faults.push(async (req, res) => {
      if (req.method !== 'GET' || (req.path !== '/invitations' && req.path !== '/test-takers')) return false;
      lists++;
      // The tenth list request fails at once; the others take a while, so several are in flight then.
      if (lists === 10) return fail(res);
      await new Promise((r) => setTimeout(r, lists > 10 ? 60 : 10));
      return false;
    });
    const r = await runWatched(s, [resource, 'list', '--all', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(exit);
    expect(r.stdout).toBe(r.atReturn);
    const lines = r.stdout.trimEnd().split('\n');
    const mark = lines.at(-1)!;
    expect(mark).toMatch(/^#INCOMPLETE EXPORT: [\d,]+ (invitations|test takers) written before the run stopped/);
    expect(lines.filter((l) => l.startsWith('#INCOMPLETE'))).toHaveLength(1);
    const rows = lines.length - 2;
    expect(rows).toBeGreaterThan(0);
    const said = Number(/^#INCOMPLETE EXPORT: ([\d,]+)/.exec(mark)![1].replace(/,/g, ''));
    expect(said).toBe(rows);
    expect(r.stderr).toContain(`The output is incomplete: ${rows.toLocaleString('en-US')} `);
    expect(r.stderr).toMatch(new RegExp(`^Stopped after [\\d,]+ [a-z ]+: ${rows.toLocaleString('en-US')} written`, 'm'));
  }, 60_000);
});
