/**
 * Which `jobfit stub serve` runs on this machine, at which origin, on which
 * data. A profile connected to `http://127.0.0.1:4010/v2` by `login` says
 * nothing about the data directory behind it; this note, written by `stub
 * serve` beside the config and removed when it stops, does. `login` offers a
 * served stub as its default base URL; `webhook listen` wires itself to it.
 * A note whose process is gone (kill -9) is ignored and removed.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../core/files.js';
import { configDir } from './paths.js';
import { processAlive } from '../core/lock.js';

type Env = Record<string, string | undefined>;

export interface ServedStub {
  /** `http://127.0.0.1:4010` */
  origin: string;
  /** The base URL of API v2. */
  url: string;
  dataDir: string;
  pid: number;
}

const dirOf = (env: Env) => join(configDir(env), 'served-stubs');
const fileOf = (env: Env, origin: string) => join(dirOf(env), `${origin.replace(/^https?:\/\//, '').replace(/[^A-Za-z0-9.-]+/g, '_')}.json`);


/** Notes a served stub; returns the function that removes the note. */
export function noteServedStub(env: Env, origin: string, dataDir: string): () => void {
  const file = fileOf(env, origin);
  try {
    ensurePrivateDir(dirOf(env));
    const note: ServedStub = { origin, url: `${origin}/v2`, dataDir: resolve(dataDir), pid: process.pid };
    writeFileSync(file, `${JSON.stringify(note)}\n`, { mode: PRIVATE_FILE_MODE });
  } catch {
    // Only a convenience for login and webhook listen: serving goes on without it.
    return () => {};
  }
  return () => {
    try {
      const now = JSON.parse(readFileSync(file, 'utf8')) as ServedStub;
      if (now.pid === process.pid) rmSync(file, { force: true });
    } catch {
      // Already gone.
    }
  };
}

/** The stubs served on this machine now, oldest note first. */
export function servedStubs(env: Env): ServedStub[] {
  let names: string[];
  try {
    names = readdirSync(dirOf(env)).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return [];
  }
  const out: ServedStub[] = [];
  for (const name of names) {
    const file = join(dirOf(env), name);
    try {
      const s = JSON.parse(readFileSync(file, 'utf8')) as ServedStub;
      if (typeof s.pid !== 'number' || typeof s.origin !== 'string' || typeof s.dataDir !== 'string') continue;
      if (processAlive(s.pid)) out.push(s);
      else rmSync(file, { force: true });
    } catch {
      // A half-written or foreign file: not ours to trust.
    }
  }
  return out;
}

/** The served stub behind a base URL (same origin), if one runs here. */
export function servedStubAt(env: Env, baseUrl: string): ServedStub | undefined {
  let origin: string;
  try {
    origin = new URL(baseUrl).origin;
  } catch {
    return undefined;
  }
  const loopbackAlias = (o: string) => o.replace('//localhost:', '//127.0.0.1:').replace('//[::1]:', '//127.0.0.1:');
  return servedStubs(env).find((s) => loopbackAlias(s.origin) === loopbackAlias(origin));
}
