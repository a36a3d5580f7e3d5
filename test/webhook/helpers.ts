/**
 * Shared pieces of the webhook tests: a throw-away stub, an endpoint that
 * records what it receives, and small API calls.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../src/cli/main.js';
import type { RunningStub } from '../../src/stub/index.js';
import { memoryIO } from '../helpers/io.js';
import { startStub } from '../helpers/stub.js';
import { until } from '../helpers/until.js';

export function tempDir(prefix = 'jobfit-webhook-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: { id: string; type: string; data: { object: Record<string, unknown> } } & Record<string, unknown>;
}

export interface Endpoint {
  url: string;
  port: number;
  received: Received[];
  /** Status to answer with, per request (default 200). */
  status: (n: number) => number;
  close(): Promise<void>;
}

export async function endpoint(opts: { port?: number; status?: (n: number) => number } = {}): Promise<Endpoint> {
  const received: Received[] = [];
  const ep: Endpoint = {
    url: '',
    port: 0,
    received,
    status: opts.status ?? (() => 200),
    close: async () => {
      await new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      });
    },
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      let json: Received['json'];
      try {
        json = JSON.parse(body);
      } catch {
        json = {} as Received['json'];
      }
      received.push({ headers: req.headers, body, json });
      res.writeHead(ep.status(received.length)).end('ok');
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, '127.0.0.1', () => ok());
  });
  ep.port = (server.address() as AddressInfo).port;
  ep.url = `http://127.0.0.1:${ep.port}/hooks`;
  return ep;
}

/** A port nothing listens on (for "endpoint down"), held so no other server takes it meanwhile. */
export { refusedPort } from '../helpers/refused-port.js';

import { DANA as INVITER } from '../helpers/seeded.js';

export { INVITER };

export async function api<T = Record<string, unknown>>(stub: { url: string }, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  const res = await fetch(`${stub.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json().catch(() => null)) as T };
}

let seq = 0;
export async function invite(stub: RunningStub, key: string, extra: Record<string, unknown> = {}): Promise<Record<string, unknown> & { id: number; assessment_url: string }> {
  seq++;
  const r = await api<Record<string, unknown> & { id: number; assessment_url: string }>(stub, key, 'POST', '/invitations', {
    first_name: 'Ada',
    last_name: 'Okafor',
    email: `ada.okafor.${process.pid}.${seq}.${Date.now()}@example.com`,
    created_by_user_email: INVITER,
    send_via_email: false,
    ...extra,
  });
  if (r.status !== 201) throw new Error(`invite failed: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json;
}

export { until } from '../helpers/until.js';

export function withoutMode<T extends Record<string, unknown>>(o: T): Omit<T, 'mode'> {
  const { mode: _m, ...rest } = o;
  return rest;
}

/** The stub a webhook test works on, in this process (test/helpers/stub.ts, startStub), on `dataDir`; close() stops it. */
export async function stubOn(dataDir: string): Promise<RunningStub> {
  return (await startStub({ dataDir })).server!;
}

/** `webhook listen` run in-process with `env` (and `stdin`); stop() is Ctrl-C. */
export function listenInProcess(env: Record<string, string>, args: string[], stdin?: string) {
  const ac = new AbortController();
  const m = memoryIO({ env, signal: ac.signal, stdin });
  const done = run(['webhook', 'listen', ...args], m.io);
  return {
    ...m,
    done,
    url: () => until(() => /Listening for webhook events on (\S+)/.exec(m.stderr())?.[1], 'the listening URL'),
    ready: () => until(() => m.stderr().includes('Press Ctrl-C'), 'listen to be ready'),
    stop() {
      ac.abort();
      return done;
    },
  };
}
