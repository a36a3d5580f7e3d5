/**
 * "The local stub" is our stub and nothing else. A live key against a server
 * on loopback that is not our stub (an independent server of the API, the
 * same behind a plain localhost reverse proxy, the same reached as
 * `localhost`, and one on a port a stale note names) is the real service: no
 * terminal and no --yes sends nothing and exits 2 without claiming "local
 * stub"; with --yes the rows are sent and the run says LIVE. Against `jobfit
 * stub serve` the run says it is the stub and needs no confirmation.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltCli, buildCli } from '../e2e/built.js';
import { FOREIGN_INVITER, FOREIGN_KEY as KEY, type FaultServer, type ForeignServer, startFaultServer } from '../helpers/fault-server.js';
import { startStub } from '../helpers/stub.js';
import { INVITER } from './helpers/data.js';

let cli: BuiltCli;
let dir: string;
let foreign: ForeignServer;
let proxy: FaultServer;
let served: ChildProcess | undefined;

/** A plain reverse proxy on localhost, as a validating proxy or a tunnel to the service would be: the fault server with no fault. */
const startProxy = (port: number): Promise<FaultServer> => startFaultServer({ upstream: `http://127.0.0.1:${port}` });

beforeAll(async () => {
  cli = buildCli();
  dir = mkdtempSync(join(tmpdir(), 'jobfit-live-guard-'));
  foreign = await startFaultServer({ world: 'foreign' });
  proxy = await startProxy(foreign.port);
});

afterAll(async () => {
  if (served && served.exitCode === null) {
    const gone = new Promise((r) => served!.once('exit', r));
    served.kill('SIGTERM');
    await gone;
  }
  await proxy.close();
  await foreign.close();
  cli.close();
  rmSync(dir, { recursive: true, force: true });
});

function people(name: string, n: number, inviter: string): string {
  const path = join(dir, `${name}.csv`);
  const lines = ['First Name,Last Name,Email,Created By'];
  for (let i = 1; i <= n; i++) lines.push(`F${i},L${i},p${i}.${name}@example.com,${inviter}`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const posts = () => foreign.seen.filter((s) => s.method === 'POST' && s.url.startsWith('/v2/invitations')).length;

describe('a live key against a server on loopback that is not our stub', () => {
  const configDir = () => join(dir, 'config-foreign');
  const targets = [
    ['directly', () => foreign.url],
    ['through a localhost reverse proxy', () => `${proxy.url}/v2`],
    ['reached as localhost', () => `http://localhost:${foreign.port}/v2`],
  ] as const;

  it.each(targets)('%s, no terminal and no --yes: nothing is sent, exit 2, "local stub" is not claimed', async (name, url) => {
    const csv = people(`refused-${name.replace(/\W+/g, '-')}`, 5, FOREIGN_INVITER);
    const before = posts();
    const r = await cli.runAsync(['invite', '--csv', csv], { env: { JOBFIT_BASE_URL: url(), JOBFIT_API_KEY: KEY, JOBFIT_CONFIG_DIR: configDir() } });
    expect(r.code, r.stderr).toBe(2);
    expect(posts()).toBe(before);
    expect(r.stderr).not.toMatch(/local stub|no real email/i);
    expect(r.stderr).toContain('LIVE: about to invite 5 participants for real.');
    expect(r.stderr).toContain('Live bulk invite without a terminal needs --yes');
  });

  it.each(targets)('%s, with --yes: the rows are sent and the run says LIVE', async (name, url) => {
    const csv = people(`sent-${name.replace(/\W+/g, '-')}`, 4, FOREIGN_INVITER);
    const before = posts();
    const r = await cli.runAsync(['invite', '--csv', csv, '--yes'], { env: { JOBFIT_BASE_URL: url(), JOBFIT_API_KEY: KEY, JOBFIT_CONFIG_DIR: configDir() } });
    expect(r.code, r.stderr).toBe(0);
    expect(posts() - before).toBe(4);
    expect(r.stderr).toContain('LIVE: about to invite 4 participants for real.');
    expect(r.stderr).not.toMatch(/local stub|no real email/i);
  });

  it('a note of a served stub at its port is not enough: the server there must answer with the noted instance', async () => {
    // As if a `stub serve` once ran on this port (the process still alive), and another server took the port.
    const notes = join(configDir(), 'served-stubs');
    mkdirSync(notes, { recursive: true, mode: 0o700 });
    const origin = `http://127.0.0.1:${foreign.port}`;
    writeFileSync(join(notes, `127.0.0.1_${foreign.port}.json`), JSON.stringify({ origin, url: `${origin}/v2`, dataDir: dir, pid: process.pid, instance: randomUUID() }), { mode: 0o600 });
    const csv = people('forged', 3, FOREIGN_INVITER);
    const before = posts();
    const r = await cli.runAsync(['invite', '--csv', csv], { env: { JOBFIT_BASE_URL: foreign.url, JOBFIT_API_KEY: KEY, JOBFIT_CONFIG_DIR: configDir() } });
    expect(r.code, r.stderr).toBe(2);
    expect(posts()).toBe(before);
    expect(r.stderr).not.toMatch(/local stub/i);
  });
});

describe('against `jobfit stub serve`', () => {
  let url: string;
  let liveKey: string;
  const configDir = () => join(dir, 'config-served');

  beforeAll(async () => {
    // `jobfit stub serve` (test/helpers/stub.ts, where: 'serve'); the note it leaves beside the config
    // is what the CLI checks the instance against.
    const s = await startStub({
      where: 'serve',
      dataDir: join(dir, 'stub-data'),
      env: { PATH: process.env.PATH ?? '', HOME: join(cli.dir, 'home'), NO_COLOR: '1', JOBFIT_CONFIG_DIR: configDir() },
    });
    served = s.child;
    url = s.url;
    liveKey = s.liveKey;
  }, 30_000);

  it('the run says it is the local stub and needs no confirmation (no terminal, no --yes)', async () => {
    const csv = people('served', 5, INVITER);
    const r = await cli.runAsync(['invite', '--csv', csv], { env: { JOBFIT_BASE_URL: url, JOBFIT_API_KEY: liveKey, JOBFIT_CONFIG_DIR: configDir() } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Sending to the local stub at ${url}: no real email or SMS goes out.`);
    expect(r.stderr).toMatch(/5 rows: 5 created/);
    expect(r.stderr).not.toContain('LIVE');
  });

  it('the same stub behind a reverse proxy is not taken on trust: it asks for --yes', async () => {
    const port = Number(new URL(url).port);
    const front = await startProxy(port);
    try {
      const csv = people('served-proxied', 2, INVITER);
      const viaProxy = `${front.url}/v2`;
      const r = await cli.runAsync(['invite', '--csv', csv], { env: { JOBFIT_BASE_URL: viaProxy, JOBFIT_API_KEY: liveKey, JOBFIT_CONFIG_DIR: configDir() } });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).not.toMatch(/local stub/i);
    } finally {
      await front.close();
    }
  });
});
