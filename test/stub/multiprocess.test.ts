import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type TestStub, DANA, freshEmail, testStubForFile } from './helpers.js';

let stub: TestStub;
testStubForFile((started) => {
  stub = started;
});

const root = join(import.meta.dirname, '..', '..');

/**
 * Runs `jobfit stub …` from source in a separate node process on the same data
 * directory. Asynchronously: the stub under test serves from this process, and
 * a spawnSync that blocked it for seconds (a loaded machine) let its idle
 * keep-alive timeout fire just as the next request reused that socket ("fetch
 * failed" under two suites at once).
 */
function cli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(root, 'src/cli/entry.ts'), 'stub', ...args, '--data', stub.dataDir],
      { cwd: root, encoding: 'utf8', env: { ...process.env, JOBFIT_CONFIG_DIR: stub.dataDir, NO_COLOR: '1' }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ status: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
    );
  });
}

describe('several processes on one data directory', () => {
  it('stub accept/complete in another process are seen at once by the running server', async () => {
    const created = await stub.call('POST', '/invitations', { body: { first_name: 'Multi', last_name: 'Proc', email: freshEmail('mp'), created_by_user_email: DANA } });
    expect(created.status).toBe(201);
    // Read first, so that a cached answer would be stale after the other process writes.
    expect((await stub.call('GET', `/invitations/${created.body.id}`)).body.test_taker_id).toBeNull();
    const a = await cli(['accept', String(created.body.id), '-o', 'json']);
    expect(a.stderr).toBe('');
    expect(a.status).toBe(0);
    const { test_taker_id } = JSON.parse(a.stdout);
    const inv = await stub.call('GET', `/invitations/${created.body.id}`);
    expect(inv.body.test_taker_id).toBe(test_taker_id);
    const c = await cli(['complete', String(test_taker_id), '--assessment', 'interests']);
    expect(c.status).toBe(0);
    expect(c.stdout).toMatch(/Career navigation profile cnp_/);
    const tt = await stub.call('GET', `/test-takers/${test_taker_id}`);
    expect(tt.body.career_navigation_profile_id).toMatch(/^cnp_/);
    // The event written by the other process carries the running server's origin.
    const ev = stub.store.get<{ payload: string }>("SELECT payload FROM events WHERE type = 'test_taker.created' ORDER BY seq DESC LIMIT 1")!;
    expect(JSON.parse(ev.payload).data.object.scorecard_url).toContain(stub.origin);
    // Errors are one sentence and exit 1.
    const again = await cli(['accept', String(created.body.id)]);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/^Error: Invitation \d+ was already accepted/);
  });

  it('concurrent writers in two processes do not fail with SQLITE_BUSY', async () => {
    const script = join(stub.dataDir, 'writer.mts');
    writeFileSync(
      script,
      `import { openStore } from ${JSON.stringify(join(root, 'src/stub/seeded-store.ts'))};
       const store = await openStore(process.argv[2]);
       await store.seedPeople(1, 13, 3000, { mix: { pending: 0, accepted: 1, partial: 0, complete: 0 } });
       store.close();`,
    );
    const child = new Promise<number | null>((resolve) => {
      import('node:child_process').then(({ spawn }) => {
        const p = spawn(process.execPath, ['--import', 'tsx', script, stub.dataDir], { cwd: root, stdio: 'inherit' });
        p.on('exit', (code) => resolve(code));
      });
    });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        stub.call('POST', '/invitations', { body: { first_name: 'C', last_name: String(i), email: freshEmail('conc'), created_by_user_email: DANA } }),
      ),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(await child).toBe(0);
    const team13 = await stub.call('GET', '/test-takers?team_id=13');
    expect(team13.body.total_count).toBeGreaterThanOrEqual(3000);
  });
});
