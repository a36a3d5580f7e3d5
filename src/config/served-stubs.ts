/**
 * Which `jobfit stub serve` runs on this machine, at which origin, on which
 * data, as which instance. A profile connected to `http://127.0.0.1:4010/v2`
 * by `login` says nothing about the data directory behind it; this note,
 * written by `stub serve` beside the config and removed when it stops, does.
 * `login` offers a served stub as its default base URL; `webhook listen` wires
 * itself to it. A note whose process is gone (kill -9) is ignored and removed.
 *
 * The one definition of "the local stub" lives here too (isOurStub): a port or
 * a host name is not enough, since a reverse proxy, an SSH tunnel or
 * `kubectl port-forward` to the real service also listen on loopback.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensurePrivateDir } from '../core/files.js';
import { writeOutFileSync } from '../core/whole-file.js';
import { configDir } from './paths.js';
import { processAlive } from '../core/lock.js';
import { isLoopbackHost, loopbackAlias, STUB_INSTANCE_PATH, stubInProcess } from '../core/loopback.js';

type Env = Record<string, string | undefined>;

export interface ServedStub {
  /** `http://127.0.0.1:4010` */
  origin: string;
  /** The base URL of API v2. */
  url: string;
  dataDir: string;
  pid: number;
  /** The random id the stub answers at STUB_INSTANCE_PATH (notes of older versions have none). */
  instance?: string;
}

const dirOf = (env: Env) => join(configDir(env), 'served-stubs');
const fileOf = (env: Env, origin: string) => join(dirOf(env), `${origin.replace(/^https?:\/\//, '').replace(/[^A-Za-z0-9.-]+/g, '_')}.json`);


/** Notes a served stub; returns the function that removes the note. */
export function noteServedStub(env: Env, origin: string, dataDir: string, instance: string): () => void {
  const file = fileOf(env, origin);
  try {
    ensurePrivateDir(dirOf(env));
    const note: ServedStub = { origin, url: `${origin}/v2`, dataDir: resolve(dataDir), pid: process.pid, instance };
    // Whole or not at all (the one writer path, core/whole-file.ts): a full disk leaves no cut note behind.
    writeOutFileSync(file, 'the note of a served stub', `${JSON.stringify(note)}\n`);
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
  return servedStubs(env).find((s) => loopbackAlias(s.origin) === loopbackAlias(origin));
}

/** How long a stub on this machine has to say who it is. */
const ASK_MS = 5_000;

/** The instance the server at `origin` says it is, if it answers as our stub does. */
async function instanceAt(origin: string): Promise<string | undefined> {
  try {
    const res = await fetch(`${origin}${STUB_INSTANCE_PATH}`, { redirect: 'manual', signal: AbortSignal.timeout(ASK_MS) });
    if (res.status !== 200) {
      await res.body?.cancel();
      return undefined;
    }
    const body = (await res.json()) as { instance?: unknown };
    return typeof body.instance === 'string' ? body.instance : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `baseUrl` is our own stub, where no real email or SMS goes out: the
 * embedded stub of this command, a stub this process started, or a `jobfit
 * stub serve` noted beside this config, and in the last two cases only when
 * the server at that origin answers with the very instance id recorded when
 * it started. Anything else, loopback or not, is the real service. No request
 * is made unless such a stub is known at that origin.
 */
export async function isOurStub(env: Env, baseUrl: string, embedded = false): Promise<boolean> {
  if (embedded) return true;
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    return false;
  }
  if (u.protocol !== 'http:' || !isLoopbackHost(u.hostname) || !/^\/v2\/?$/.test(u.pathname)) return false;
  const known = new Set<string>();
  const own = stubInProcess(u.origin);
  if (own) known.add(own);
  const served = servedStubAt(env, baseUrl)?.instance;
  if (served) known.add(served);
  if (known.size === 0) return false;
  const answer = await instanceAt(u.origin);
  return answer !== undefined && known.has(answer);
}
