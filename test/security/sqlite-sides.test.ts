/**
 * Issue 42, finding 3 (item 3): SQLite's side files beside each database we
 * open (the stub's, a sync's, the listener's stub and `--sync` databases).
 * A `-wal`, `-shm` or `-journal` planted by another user in a shared folder
 * received people's data (2.1 MB with emails); a sync checked only its main
 * file. Now each one that exists must be the running user's regular file
 * (else one sentence, exit 2, nothing opened or made), and `-wal`/`-shm` are
 * created by us, 0600. The ownership cases run as root with `nobody`, as CI
 * does; the link cases run as anyone.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/sync/sqlite.js';
import { runCli } from '../helpers/cli.js';
import { NOBODY, asRoot, plantAsOtherUser } from '../helpers/other-user.js';


let tmp: string;
let n = 0;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'jobfit-sqlite-sides-'));
});
afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** A shared folder like /tmp: anyone may create files, the sticky bit keeps them from removing others'. */
function shared(): string {
  const d = join(tmp, `shared-${n++}`);
  mkdirSync(d);
  chmodSync(d, 0o1777);
  return d;
}

/** A file another user (nobody) made, world-writable, as the probe planted it. */
function plant(path: string): void {
  writeFileSync(path, '');
  chmodSync(path, 0o666);
  plantAsOtherUser(path);
}

const SIDES = ['-wal', '-shm', '-journal'] as const;

describe('a sync database', () => {
  for (const side of SIDES) {
    asRoot(`a ${side} planted by another user is refused; nothing is written to it or made beside it`, async () => {
      const dir = shared();
      const db = join(dir, 'people.db');
      plant(db + side);
      const r = await runCli(['sync', '--db', db]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`The sync database's side file ${db}${side} belongs to another user (uid ${NOBODY!.uid})`);
      expect(r.stderr).not.toMatch(/bug in jobfit|\n\s+at /);
      expect(statSync(db + side).size).toBe(0);
      expect(existsSync(db)).toBe(false);
    });
  }

  it('a -wal that is a symbolic link is refused, and its target is not written', async () => {
    const dir = mkdtempSync(join(tmp, 'link-'));
    const db = join(dir, 'people.db');
    const target = join(dir, 'elsewhere');
    writeFileSync(target, '');
    symlinkSync(target, `${db}-wal`);
    const r = await runCli(['sync', '--db', db]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`side file ${db}-wal is a symbolic link`);
    expect(readFileSync(target, 'utf8')).toBe('');
  });

  it('while open, its -wal and -shm are the running user\'s, 0600', () => {
    const dir = mkdtempSync(join(tmp, 'open-'));
    const db = join(dir, 'people.db');
    const store = SqliteStore.open(db);
    try {
      for (const side of ['-wal', '-shm']) {
        const st = statSync(db + side);
        expect((st.mode & 0o777).toString(8), side).toBe('600');
        if (process.getuid) expect(st.uid).toBe(process.getuid());
      }
    } finally {
      store.close();
    }
  });
});

describe("the stub's database (stub commands, webhook listen)", () => {
  for (const side of SIDES) {
    asRoot(`a ${side} planted by another user is refused by stub keys and by webhook listen`, async () => {
      const data = shared();
      plant(join(data, `stub.db${side}`));
      for (const argv of [['stub', 'keys', '--data', data], ['webhook', 'listen', '--print-secret', '--data', data]]) {
        const r = await runCli(argv);
        expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toMatch(/stub's database.*belongs to another user/);
        expect(statSync(join(data, `stub.db${side}`)).size).toBe(0);
      }
    });
  }
});

describe('webhook listen --sync DB', () => {
  asRoot('a -wal planted beside its database by another user is refused', async () => {
    const dir = shared();
    const db = join(dir, 'events.db');
    plant(`${db}-wal`);
    const r = await runCli(['webhook', 'listen', '--sync', db, '--port', '0', '--secret-stdin'], { stdin: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw\n' });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`side file ${db}-wal belongs to another user`);
    expect(statSync(`${db}-wal`).size).toBe(0);
  }, 30_000);
});
