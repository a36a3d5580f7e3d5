/**
 * A validating proxy built from docs/openapi.json in front of the stub: every
 * read command of jobfit goes through it (lists with --all, every scorecard
 * and job-fit report of the account), and every answer must be documented and
 * valid for the document. The same check Prism's `proxy --errors` makes
 * (docs/api.md), done here with Ajv so that CI needs no 90 MB proxy.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedStub, startStub } from '../helpers/stub.js';
import { runCli } from '../helpers/cli.js';
import { operationOf, violation } from './contract.js';

let stub: StartedStub;
let proxy: Server;
let proxyUrl: string;
let dataDir: string;
const violations: string[] = [];
let requests = 0;

/** Forwards to the stub, checks the answer against the document, passes it on unchanged. */
function validatingProxy(upstream: string): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      requests++;
      const url = new URL(req.url ?? '/', 'http://proxy');
      const what = `${req.method} ${url.pathname}${url.search}`;
      try {
        const headers: Record<string, string> = {};
        for (const h of ['authorization', 'content-type', 'accept']) if (typeof req.headers[h] === 'string') headers[h] = req.headers[h];
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        const answer = await fetch(upstream + url.pathname + url.search, { method: req.method, headers, body });
        const text = await answer.text();
        const contentType = answer.headers.get('content-type') ?? '';
        const operationId = operationOf(req.method ?? 'GET', url.pathname);
        const problem = operationId ? violation(operationId, answer.status, contentType, text) : 'no operation of the document matches';
        if (problem) violations.push(`${what} → ${answer.status}: ${problem}`);
        res.writeHead(answer.status, { 'content-type': contentType });
        res.end(text);
      } catch (err) {
        violations.push(`${what}: ${String(err)}`);
        res.writeHead(502).end();
      }
    });
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'jobfit-proxy-test-'));
  stub = await startStub({ dataDir });
  proxy = validatingProxy(stub.url);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await stub?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('every read command of jobfit through a proxy that validates against docs/openapi.json', () => {
  it('succeeds, and the proxy sees no answer the document does not describe', async () => {
    const [a1] = stub.keys;
    const get = async (path: string) => (await (await fetch(stub.url + path, { headers: { authorization: `Bearer ${a1.live_key}` } })).json()) as { data: unknown[] };
    const profile = (await get('/career-navigation-profiles')).data[0] as { id: string; test_taker_id: number };
    const invitation = (await get('/invitations')).data[0] as { id: number };
    const tt = String(profile.test_taker_id);
    const commands = [
      ['health'],
      ['whoami'],
      ['accounts'],
      ['users'],
      ['teams'],
      ['templates'],
      ['assessments'],
      ['score-profiles'],
      ['invitations', 'list'],
      ['invitations', 'list', '--all'],
      ['invitations', 'list', '--team', '12', '--all'],
      ['invitations', 'list', '--custom-id', 'REQ', '--email', 'o'],
      ['invitations', 'get', String(invitation.id)],
      ['test-takers', 'list'],
      ['test-takers', 'list', '--all'],
      ['test-takers', 'get', tt],
      ['profiles', 'list'],
      ['profiles', 'list', '--all'],
      ['profiles', 'get', profile.id],
      ['scorecard', tt, '--sp', 'sales-rep'],
      ['scorecard', '--all', '--sp', 'sales-rep'],
      ['job-fit', tt],
      ['job-fit', '--all'],
      ['report', '--sp', 'sales-rep'],
      ['api', 'GET', '/teams'],
    ];
    for (const key of [a1.live_key, a1.test_key]) {
      for (const argv of commands) {
        const r = await runCli(['-o', 'json', ...argv], { env: { JOBFIT_BASE_URL: proxyUrl, JOBFIT_API_KEY: key } });
        expect(r.code, `${argv.join(' ')} (${key.slice(0, 8)}): ${r.stderr.slice(0, 300)}`).toBe(0);
      }
    }
    expect(violations).toEqual([]);
    // The --all runs page past the cap and read every result: hundreds of answers checked.
    expect(requests).toBeGreaterThan(500);
  });
});
