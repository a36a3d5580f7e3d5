/**
 * The stub in this process (test/helpers/stub.ts, startStub), as the stub's
 * own tests use it: its keys by name, and a tiny fetch wrapper for its JSON API.
 */
import type { ChildProcess } from 'node:child_process';
import type { RunningStub } from '../../src/stub/index.js';
import { perFile } from '../helpers/per-file.js';
import { startStub } from '../helpers/stub.js';

export { DANA, INGRID, MARCO, RUTH, TOMAS } from '../helpers/seeded.js';

export interface TestStub extends RunningStub {
  dataDir: string;
  live: string;
  test: string;
  live2: string;
  test2: string;
  call(method: string, path: string, opts?: { key?: string | null; body?: unknown; raw?: string }): Promise<{ status: number; body: any; text: string; headers: Headers }>;
  stop(): Promise<void>;
}

export async function startTestStub(opts: { faults?: string } = {}): Promise<TestStub> {
  const started = await startStub({ faults: opts.faults });
  const stub = started.server!;
  const [a1, a2] = stub.keys;
  const t: TestStub = {
    ...stub,
    dataDir: started.dataDir,
    live: a1.live_key,
    test: a1.test_key,
    live2: a2.live_key,
    test2: a2.test_key,
    async call(method, path, o = {}) {
      const headers: Record<string, string> = {};
      const key = o.key === undefined ? a1.live_key : o.key;
      if (key !== null) headers.authorization = `Bearer ${key}`;
      let body: string | undefined;
      if (o.raw !== undefined) body = o.raw;
      else if (o.body !== undefined) body = JSON.stringify(o.body);
      if (body !== undefined) headers['content-type'] = 'application/json';
      const url = path.startsWith('/v1/') ? stub.origin + path : stub.url + path;
      const r = await fetch(url, { method, headers, body });
      const text = await r.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: r.status, body: parsed, text, headers: r.headers };
    },
    stop: () => started.stop(),
  };
  return t;
}

let seq = 0;
/** A participant email no seed uses. */
export function freshEmail(tag = 'p'): string {
  seq++;
  return `${tag}.${process.pid}.${Date.now().toString(36)}.${seq}@tests.example`;
}

/**
 * `jobfit stub serve --port 0 --data DIR` from source in its own process (a
 * real process boundary; test/helpers/stub.ts, startStub with where: 'serve'),
 * ready once it has printed its URL and keys. `onStderr` receives what it
 * writes on stderr. The caller stops the child (with the signal it tests).
 */
export async function serveStub(opts: {
  data: string;
  env: Record<string, string | undefined>;
  onStderr?: (text: string) => void;
}): Promise<{ child: ChildProcess; origin: string; key: string }> {
  const s = await startStub({ where: 'serve', dataDir: opts.data, env: opts.env, onStderr: opts.onStderr });
  return { child: s.child!, origin: new URL(s.url).origin, key: s.liveKey };
}

/** One stub for the tests of a file: started before them, stopped after, handed to `started`. */
export function testStubForFile(started: (s: TestStub) => void, opts: { faults?: string } = {}): void {
  perFile(() => startTestStub(opts), (s) => s.stop(), started);
}
