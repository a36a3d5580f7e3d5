/**
 * A validating proxy built from docs/openapi.json in front of the stub: every
 * read command of jobfit goes through it (lists with --all, every scorecard
 * and job-fit report of the account), and every answer must be documented and
 * valid for the document. The same check Prism's `proxy --errors` makes
 * (docs/api.md), done here with Ajv so that CI needs no 90 MB proxy.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaultServer, startFaultServer } from '../helpers/fault-server.js';
import { type StartedStub, startStub } from '../helpers/stub.js';
import { runCli } from '../helpers/cli.js';
import { operationOf, violation } from './contract.js';

let stub: StartedStub;
let proxy: FaultServer | undefined;
let proxyUrl: string;
let dataDir: string;
const violations: string[] = [];
let requests = 0;

/** The fault server in front of the stub: counts the requests, checks each answer against the document, passes it on unchanged. */
async function validatingProxy(upstream: string): Promise<FaultServer> {
  const server = await startFaultServer({ upstream });
  server.faults.push(() => {
    requests++;
    return false;
  });
  server.rewrite = (req, status, text, headers) => {
    const what = `${req.method} ${req.url}`;
    try {
      const contentType = headers['content-type'] ?? '';
      const operationId = operationOf(req.method, req.path);
      const problem = operationId ? violation(operationId, status, contentType, text) : 'no operation of the document matches';
      if (problem) violations.push(`${what} → ${status}: ${problem}`);
    } catch (err) {
      violations.push(`${what}: ${String(err)}`);
    }
    return text;
  };
  return server;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'jobfit-proxy-test-'));
  stub = await startStub({ dataDir });
  proxy = await validatingProxy(stub.url);
  proxyUrl = proxy.url;
});
afterAll(async () => {
  await proxy?.close();
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
