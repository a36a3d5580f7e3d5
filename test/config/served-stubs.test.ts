/**
 * isOurStub, the one definition of "the local stub": a server on loopback is
 * ours only when it answers with an instance id this process started or a
 * `stub serve` noted beside the config. A port, a host name or a note alone is
 * not enough.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isOurStub, noteServedStub } from '../../src/config/served-stubs.js';
import { STUB_INSTANCE_PATH } from '../../src/core/loopback.js';
import { startStubServer } from '../../src/stub/index.js';
import { type ForeignServer, startFaultServer } from '../helpers/fault-server.js';

let dir: string;
let foreign: ForeignServer;
const env = () => ({ JOBFIT_CONFIG_DIR: join(dir, 'config') });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-served-stubs-'));
  foreign = await startFaultServer({ world: 'foreign' });
});
afterAll(async () => {
  await foreign.close();
  rmSync(dir, { recursive: true, force: true });
});

it('a stub this process started is ours (as 127.0.0.1 and as localhost), with faults on too; once closed it is not', async () => {
  // A test of startStubServer itself (its instance note), so not through test/helpers/stub.ts.
  const stub = await startStubServer({ dataDir: join(dir, 'stub'), port: 0, host: '127.0.0.1', faults: '5xx=1' });
  try {
    expect(await isOurStub(env(), stub.url)).toBe(true);
    expect(await isOurStub(env(), stub.url.replace('127.0.0.1', 'localhost'))).toBe(true);
    // The stub answers its id at a path of its own, not one of the service.
    const res = await fetch(`${stub.origin}${STUB_INSTANCE_PATH}`);
    expect(await res.json()).toEqual({ instance: stub.instance });
    // Not at another path of the same origin: only /v2 is the stub's API.
    expect(await isOurStub(env(), `${stub.origin}/api/v2`)).toBe(false);
  } finally {
    await stub.close();
  }
  expect(await isOurStub(env(), stub.url)).toBe(false);
});

it('another server on loopback is not ours, and is not even asked when no stub is known at its origin', async () => {
  const before = foreign.seen.length;
  expect(await isOurStub(env(), foreign.url)).toBe(false);
  expect(await isOurStub(env(), `http://localhost:${foreign.port}/v2`)).toBe(false);
  expect(foreign.seen.length).toBe(before);
});

it('a note naming its port does not make it ours: it does not answer the noted instance', async () => {
  const origin = `http://127.0.0.1:${foreign.port}`;
  const unnote = noteServedStub(env(), origin, dir, randomUUID());
  try {
    expect(await isOurStub(env(), foreign.url)).toBe(false);
    expect(foreign.seen.some((s) => s.url === STUB_INSTANCE_PATH)).toBe(true);
  } finally {
    unnote();
  }
});

it('the embedded stub of a command is ours; a host that is not loopback never is', async () => {
  expect(await isOurStub(env(), 'http://127.0.0.1:1/v2', true)).toBe(true);
  expect(await isOurStub(env(), 'https://api.example.com/v2')).toBe(false);
  expect(await isOurStub(env(), 'not a url')).toBe(false);
});
