/**
 * The stub on a full or read-only disk (issue 17): a write is refused with
 * 507 (full) or 503 (read-only) and a sentence naming the cause, one warning
 * per condition (not one per write), reads still served, writes again once
 * the disk is fixed; a read-only data directory is named as such when the
 * stub or the config cannot even start there.
 *
 * Two ways: SQLite's own limits on the running stub's connection
 * (`max_page_count`: "database or disk is full"; `query_only`: "attempt to
 * write a readonly database"), which always run; and a real tiny tmpfs with the
 * stub in another process, where this machine lets the test mount one (root).
 */
import { type ChildProcess, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cannotMountTmpfs, newTmpfs, unmountTmpfs } from '../helpers/full-disk.js';
import { skipBecause } from '../helpers/skip.js';
import { MSG } from '../../src/api/messages.js';
import { diskConditionOf } from '../../src/core/disk.js';
import { DANA, type TestStub, freshEmail, serveStub, startTestStub } from './helpers.js';

const invite = (tag: string) => ({ first_name: 'Disk', last_name: tag, email: freshEmail(tag), created_by_user_email: DANA });
const fullMessage = (dir: string) => MSG.notStored(`the stub's data directory ${dir} is on a full disk`);
const readOnlyMessage = (dir: string) => MSG.notStored(`the stub's data directory ${dir} is read-only`);

describe('write failures injected through SQLite', () => {
  let stub: TestStub;
  const warnings: string[] = [];
  beforeAll(async () => {
    stub = await startTestStub();
    stub.store.warn = (line) => warnings.push(line);
  });
  afterAll(async () => {
    await stub?.stop();
  });
  const count = () => stub.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM invitations')!.n;

  it('full: 507 naming the cause for every write, one warning, reads served, writes again when there is room', async () => {
    const pages = stub.store.db.prepare('PRAGMA page_count').value() as number;
    stub.store.db.exec(`PRAGMA max_page_count = ${pages}`);
    // The last pages may still hold a few rows: write until the first refusal.
    let first: Awaited<ReturnType<TestStub['call']>> | undefined;
    for (let i = 0; i < 500 && !first; i++) {
      const r = await stub.call('POST', '/invitations', { body: invite('fill') });
      if (r.status !== 201) first = r;
    }
    expect(first?.status).toBe(507);
    expect(first?.body).toEqual({ error: fullMessage(stub.dataDir) });
    const stored = count();
    // One at a time and 40 at once (one group-commit batch): all refused, nothing stored.
    for (let i = 0; i < 10; i++) expect((await stub.call('POST', '/invitations', { body: invite('one') })).status).toBe(507);
    const burst = await Promise.all(Array.from({ length: 40 }, () => stub.call('POST', '/invitations', { body: invite('burst') })));
    expect(burst.map((r) => r.status)).toEqual(Array(40).fill(507));
    expect(burst[0].body).toEqual({ error: fullMessage(stub.dataDir) });
    expect(count()).toBe(stored);
    // Reads go on.
    expect((await stub.call('GET', '/invitations')).status).toBe(200);
    expect((await stub.call('GET', '/teams')).status).toBe(200);
    expect((await stub.call('GET', '/test-takers')).status).toBe(200);
    expect(warnings).toEqual([`${stub.dataDir} is on a full disk: writes are refused with 507 until it is fixed; reads are still served.`]);

    stub.store.db.exec('PRAGMA max_page_count = 1073741823');
    expect((await stub.call('POST', '/invitations', { body: invite('room') })).status).toBe(201);
    expect(count()).toBe(stored + 1);
  });

  it('read-only: 503 naming the cause, its own single warning, reads served, writes again after', async () => {
    warnings.length = 0;
    stub.store.db.exec('PRAGMA query_only = 1');
    try {
      const results = await Promise.all(Array.from({ length: 20 }, () => stub.call('POST', '/invitations', { body: invite('ro') })));
      expect(results.map((r) => r.status)).toEqual(Array(20).fill(503));
      expect(results[0].body).toEqual({ error: readOnlyMessage(stub.dataDir) });
      const inv = (await stub.call('GET', '/invitations')).body.data[0];
      expect((await stub.call('PUT', `/invitations/${inv.id}`, { body: { ref_text: 'ro' } })).status).toBe(503);
      expect((await stub.call('GET', `/invitations/${inv.id}`)).status).toBe(200);
      expect(warnings).toEqual([`${stub.dataDir} is read-only: writes are refused with 503 until it is fixed; reads are still served.`]);
    } finally {
      stub.store.db.exec('PRAGMA query_only = 0');
    }
    expect((await stub.call('POST', '/invitations', { body: invite('rw') })).status).toBe(201);
  });

  it('an error that does not say the disk is the cause is not blamed on a healthy disk', () => {
    for (const code of ['ENOENT', 'EIO', 'SQLITE_IOERR_WRITE', 'SQLITE_CANTOPEN', 'SQLITE_BUSY', 'SQLITE_CONSTRAINT']) {
      expect(diskConditionOf({ code }, stub.dataDir), code).toBeUndefined();
    }
    expect(diskConditionOf({ code: 'ENOSPC' }, stub.dataDir)).toBe('full');
    expect(diskConditionOf(new Error('no code'), stub.dataDir)).toBeUndefined();
  });
});

// ------------------------------------------------------------------ a real tiny disk

const root = join(import.meta.dirname, '..', '..');
const entry = join(root, 'src/cli/entry.ts');

const skipReason = cannotMountTmpfs('root');

function cli(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(skipBecause(skipReason && `the tiny-disk test: ${skipReason}`))('a real tiny disk (4 MB tmpfs)', () => {
  let mnt = '';
  let data = '';
  let child: ChildProcess | undefined;
  let stderr = '';
  let origin = '';
  let key = '';

  const stopChild = async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGINT');
    await exited;
  };

  beforeAll(async () => {
    mnt = newTmpfs('4m', 'jobfit-tinydisk-');
    data = join(mnt, 'data');
    ({ child, origin, key } = await serveStub({
      data,
      env: { ...process.env, JOBFIT_CONFIG_DIR: join(mnt, 'cfg'), NO_COLOR: '1' },
      onStderr: (d) => (stderr += d),
    }));
  }, 30_000);

  afterAll(async () => {
    await stopChild();
    if (mnt) unmountTmpfs(mnt);
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${origin}/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: r.status, body: (await r.json()) as { error?: string; data?: unknown[]; total_count?: number } };
  };

  it('full: every write 507 with the cause, ONE warning on stderr, reads served; writes again once space is freed', async () => {
    expect((await call('POST', '/invitations', invite('before'))).status).toBe(201);
    const total = (await call('GET', '/invitations')).body.total_count!;
    // Fill the disk to the last block.
    const filler = join(mnt, 'filler');
    const block = Buffer.alloc(64 * 1024);
    try {
      for (let i = 0; i < 1000; i++) writeFileSync(filler, block, { flag: 'a' });
      throw new Error('a 4 MB tmpfs took 64 MB');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
    }
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const r = await call('POST', '/invitations', invite('full'));
      statuses.push(r.status);
      if (r.status === 507) expect(r.body).toEqual({ error: fullMessage(data) });
    }
    const burst = await Promise.all(Array.from({ length: 30 }, () => call('POST', '/invitations', invite('fullburst'))));
    statuses.push(...burst.map((r) => r.status));
    expect(statuses).toEqual(Array(60).fill(507));
    const list = await call('GET', '/invitations');
    expect(list.status).toBe(200);
    expect(list.body.total_count).toBe(total);
    expect((await call('GET', '/teams')).status).toBe(200);
    // A vague I/O error is told apart by the free space left.
    expect(diskConditionOf({ code: 'SQLITE_IOERR_WRITE' }, data)).toBe('full');
    const lines = stderr.split('\n').filter((l) => /warning|error|at /i.test(l));
    expect(lines).toEqual([`jobfit stub: warning: ${data} is on a full disk: writes are refused with 507 until it is fixed; reads are still served.`]);

    rmSync(filler);
    expect((await call('POST', '/invitations', invite('freed'))).status).toBe(201);
    expect((await call('GET', '/invitations')).body.total_count).toBe(total + 1);
  });

  it('read-only: the stub and the config name the read-only directory (not ENOENT … mkdir)', async () => {
    await stopChild();
    expect(child!.exitCode).toBe(0);
    expect(spawnSync('mount', ['-o', 'remount,ro', mnt], { encoding: 'utf8' }).status).toBe(0);
    // What Node and SQLite say on a read-only file system: mkdir's ENOENT, an I/O error, "unable to open".
    for (const code of ['ENOENT', 'SQLITE_IOERR_WRITE', 'SQLITE_CANTOPEN', 'EROFS']) expect(diskConditionOf({ code }, join(data, 'a', 'b')), code).toBe('read-only');
    // An existing store, a store that cannot be created, the embedded stub, the config.
    const existing = cli(['stub', 'keys', '--data', data]);
    expect(existing.code).toBe(1);
    expect(existing.stderr).toContain(`Error: The stub's data directory ${data} is read-only.`);
    const fresh = cli(['stub', 'serve', '--port', '0', '--data', join(mnt, 'new', 'data')]);
    expect(fresh.code).toBe(1);
    expect(fresh.stderr).toContain(`Error: The stub's data directory ${join(mnt, 'new', 'data')} is read-only.`);
    const embedded = cli(['teams'], { JOBFIT_CONFIG_DIR: join(mnt, 'cfg') });
    expect(embedded.code).toBe(1);
    expect(embedded.stderr).toContain(`The stub's data directory ${join(mnt, 'cfg', 'stub')} is read-only.`);
    const config = cli(['config', 'set', 'default_mode', 'test'], { JOBFIT_CONFIG_DIR: join(mnt, 'cfg') });
    expect(config.code).toBe(1);
    // The folder, or the file in it when an earlier run left the folder: either way the cause is named.
    expect(config.stderr).toMatch(/Error: Cannot (create the config folder \S+\/cfg|write the config file \S+\/cfg\/config\.json): the folder is read-only\./);
    for (const r of [existing, fresh, embedded, config]) expect(r.stderr).not.toMatch(/ENOENT|mkdir|SQLITE|\n\s+at /);
  }, 60_000);
});
