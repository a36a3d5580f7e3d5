/**
 * A private PostgreSQL server for the sync tests: Debian's `postgresql`
 * binaries (installed by .ci/run when absent), a throw-away data directory,
 * loopback only, a port held for it from start to close (../helpers/refused-port.ts: no other
 * server can be given it meanwhile, a restart's included), fsync off. Undefined when no server binaries
 * are installed (the PostgreSQL half of the suite is then skipped, saying so).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { refusedPort } from '../helpers/refused-port.js';

export interface PgServer {
  /** postgres://jobfit@127.0.0.1:PORT (no database). */
  url: string;
  /** A new, empty database on the server: its URL. */
  newDatabase(): Promise<string>;
  /** Shuts the server down as a restart does (fast: sessions are ended, what was committed is kept). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
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

/**
 * Starts the postmaster on `port` and waits until it accepts connections.
 * Undefined when it exited first, or when the server answering there is not
 * the one serving our data directory.
 */
async function launch(cmd: string, args: string[], base: string, data: string): Promise<ChildProcess | undefined> {
  const child: ChildProcess = spawn(cmd, args, { stdio: 'ignore' });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  for (let i = 0; i < 150 && !exited; i++) {
    const c = new pg.Client({ connectionString: `${base}/postgres` });
    try {
      await c.connect();
      // The port may be another server's (another test run's): ours is the one serving our data directory.
      const r = await c.query<{ data_directory: string }>('SHOW data_directory');
      if (r.rows[0]?.data_directory === data) return child;
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await c.end().catch(() => {});
    }
  }
  if (!exited) child.kill('SIGKILL');
  return undefined;
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
  const serverArgs = (port: number) => as(join(bin, 'postgres'), ['-D', data, '-k', dir, '-h', '127.0.0.1', '-p', String(port), '-F', '-c', 'full_page_writes=off', '-c', 'synchronous_commit=off']);
  // Held until close(): refused while the server is down, never given to another server that binds
  // port 0, and bound by the postmaster itself (SO_REUSEADDR), at start and at every restart.
  const held = await refusedPort();
  const port = held.port;
  const base = `postgres://jobfit@127.0.0.1:${port}`;
  let child = await launch(...serverArgs(port), base, data);
  if (!child) {
    await held.close();
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`the test PostgreSQL server did not start (${bin})`);
  }

  /** Stops the postmaster: `fast` (a restart's shutdown: sessions end, what was committed is kept) or `immediate`. */
  async function stop(how: 'fast' | 'immediate'): Promise<void> {
    const c = child;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    // To the postmaster itself (under runuser, the child is runuser).
    const signal = how === 'fast' ? 'SIGINT' : 'SIGQUIT';
    try {
      process.kill(Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]), signal);
    } catch {
      c.kill(signal);
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (c.exitCode === null) c.kill('SIGKILL');
  }

  let n = 0;
  return {
    url: base,
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
    stop: () => stop('fast'),
    async start() {
      child = await launch(...serverArgs(port), base, data);
      if (!child) throw new Error(`the test PostgreSQL server did not start again on port ${port}`);
    },
    async close() {
      // Immediate shutdown: the data directory is thrown away anyway.
      await stop('immediate');
      await held.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
