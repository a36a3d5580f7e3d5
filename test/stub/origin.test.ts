import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningStub, accept, startStubServer } from '../../src/stub/index.js';
import { DANA, freshEmail } from './helpers.js';

let dataDir: string;
const running: RunningStub[] = [];

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'jobfit-origin-'));
});
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(publishOrigin?: boolean): Promise<RunningStub> {
  // A test of startStubServer itself (publishOrigin), so not through test/helpers/stub.ts.
  const s = await startStubServer({ dataDir, port: 0, publishOrigin });
  running.push(s);
  return s;
}

async function invite(stub: RunningStub): Promise<{ id: number; assessment_url: string }> {
  const r = await fetch(`${stub.url}/invitations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stub.keys[0].live_key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ first_name: 'Origin', last_name: 'Check', email: freshEmail('origin'), created_by_user_email: DANA }),
  });
  expect(r.status).toBe(201);
  return (await r.json()) as { id: number; assessment_url: string };
}

describe('the stored origin', () => {
  it('a published server (the default, as stub serve) stores its origin and hands out its URLs', async () => {
    const serve = await start();
    expect(serve.store.meta('origin')).toBe(serve.origin);
    expect((await invite(serve)).assessment_url.startsWith(`${serve.origin}/take/`)).toBe(true);
  });

  it('the embedded stub leaves a running server’s origin alone, and its URLs point at that server', async () => {
    const serve = await start(true);
    const embedded = await start(false);
    expect(embedded.origin).not.toBe(serve.origin);
    expect(serve.store.meta('origin')).toBe(serve.origin);
    const inv = await invite(embedded);
    expect(inv.assessment_url.startsWith(`${serve.origin}/take/`)).toBe(true);
    // Events written through the embedded stub's store carry the server's origin too.
    accept(embedded.store, inv.id);
    const ev = embedded.store.get<{ payload: string }>("SELECT payload FROM events WHERE type = 'test_taker.created' ORDER BY seq DESC LIMIT 1")!;
    expect(JSON.parse(ev.payload).data.object.scorecard_url.startsWith(`${serve.origin}/results/`)).toBe(true);
    await embedded.close();
    running.splice(running.indexOf(embedded), 1);
    expect(serve.store.meta('origin')).toBe(serve.origin);
    // The server's own answers are unchanged.
    const r = await fetch(`${serve.url}/invitations/${inv.id}`, { headers: { authorization: `Bearer ${serve.keys[0].live_key}` } });
    expect(((await r.json()) as { assessment_url: string }).assessment_url).toBe(inv.assessment_url);
  });

  it('with no server ever started, the embedded stub uses http://127.0.0.1:4010 and stores nothing', async () => {
    const embedded = await start(false);
    expect(embedded.store.meta('origin')).toBeUndefined();
    expect((await invite(embedded)).assessment_url).toMatch(/^http:\/\/127\.0\.0\.1:4010\/take\/[\w-]{24}$/);
  });

  it('a server started after the embedded stub moves the embedded stub’s URLs with it', async () => {
    const embedded = await start(false);
    await invite(embedded); // warms the embedded stub's caches under the default origin
    const serve = await start(true);
    expect((await invite(embedded)).assessment_url.startsWith(`${serve.origin}/take/`)).toBe(true);
  });
});
