/**
 * A private PostgreSQL server for the sync tests: Debian's `postgresql`
 * binaries (installed by .ci/run when absent), a throw-away data directory,
 * loopback only, a free port, fsync off. Undefined when no server binaries
 * are installed (the PostgreSQL half of the suite is then skipped, saying so).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface PgServer {
  /** A new, empty database on the server: its URL. */
  newDatabase(): Promise<string>;
  close(): Promise<void>;
}

export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'postgres')) && existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startPgServer(): Promise<PgServer | undefined> {
  const bin = postgresBin();
  if (!bin) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'jobfit-pg-'));
  // The server refuses to run as root: as root, it runs as Debian's postgres user.
  const root = process.getuid?.() === 0;
  const as = (cmd: string, args: string[]): [string, string[]] => (root ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]);
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const data = join(dir, 'data');
  const [initCmd, initArgs] = as(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'jobfit', '-E', 'UTF8', '--no-sync', '--locale=C']);
  execFileSync(initCmd, initArgs, { stdio: 'pipe' });
  const port = await freePort();
  const [cmd, args] = as(join(bin, 'postgres'), ['-D', data, '-k', dir, '-h', '127.0.0.1', '-p', String(port), '-F', '-c', 'full_page_writes=off', '-c', 'synchronous_commit=off']);
  const child: ChildProcess = spawn(cmd, args, { stdio: 'ignore' });
  const base = `postgres://jobfit@127.0.0.1:${port}`;
  let ready = false;
  for (let i = 0; i < 100 && !ready; i++) {
    const c = new pg.Client({ connectionString: `${base}/postgres` });
    try {
      await c.connect();
      ready = true;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await c.end().catch(() => {});
    }
  }
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`the test PostgreSQL server did not start (${bin})`);
  }
  let n = 0;
  return {
    async newDatabase() {
      const name = `sync_${process.pid}_${++n}`;
      const c = new pg.Client({ connectionString: `${base}/postgres` });
      await c.connect();
      try {
        await c.query(`CREATE DATABASE ${name}`);
      } finally {
        await c.end();
      }
      return `${base}/${name}`;
    },
    async close() {
      const exited = new Promise((r) => child.once('exit', r));
      // SIGQUIT to the postmaster itself (under runuser, the child is runuser): immediate shutdown;
      // the data directory is thrown away anyway.
      try {
        process.kill(Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]), 'SIGQUIT');
      } catch {
        child.kill('SIGQUIT');
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
