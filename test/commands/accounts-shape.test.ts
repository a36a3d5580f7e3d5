/**
 * GET /accounts in either shape the reference allows: the account object, or
 * a list envelope holding it. `login`, `whoami` and `accounts` name the
 * account either way (they printed `account undefined (id undefined)` and
 * nulls for the envelope). Against a server that is not our stub.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as accounts from '../../src/commands/accounts/show.js';
import * as login from '../../src/commands/login/login.js';
import * as whoami from '../../src/commands/whoami/show.js';
import { type ForeignServer, FOREIGN_KEY as KEY, send as json, startFaultServer } from '../helpers/fault-server.js';
import { fakeContext } from './stub-env.js';

let server: ForeignServer;
let dir: string;

beforeAll(async () => {
  server = await startFaultServer({ world: 'foreign' });
  dir = mkdtempSync(join(tmpdir(), 'jobfit-accounts-shape-'));
});
afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const ACCOUNT = { object: 'account', id: 77, display_name: 'Envelope Talent', webhook_endpoint: null, webhooks_enabled: false };
const SHAPES = {
  object: { mode: 'live', ...ACCOUNT },
  // The items of an envelope need not carry mode: the envelope does.
  envelope: { mode: 'live', object: 'list', total_count: 1, has_more: false, data: [ACCOUNT] },
};

describe.each(Object.entries(SHAPES))('GET /accounts as %s', (shape, body) => {
  it('login names the account', async () => {
    server.queue('GET /v2/healthcheck', (_q, res) => json(res, 200, { status: 'ok', timestamp: new Date().toISOString(), version: 'v2' }));
    server.queue('GET /v2/accounts', (_q, res) => json(res, 200, body));
    const f = fakeContext({ configDir: join(dir, shape), stdin: `${KEY}\n`, globals: { profile: shape } });
    await login.runLogin({ profile: shape, baseUrl: server.url }, f.ctx);
    expect(f.stderr()).toContain('account Envelope Talent (id 77)');
    expect(f.stderr()).not.toContain('undefined');
    await f.ctx.close();
  });

  it('whoami and accounts show it', async () => {
    const env = { JOBFIT_BASE_URL: server.url, JOBFIT_API_KEY: KEY };
    server.queue('GET /v2/accounts', (_q, res) => json(res, 200, body));
    const w = fakeContext({ configDir: join(dir, `${shape}-w`), env, globals: { output: 'json' } });
    await whoami.default.run({}, w.ctx);
    expect(JSON.parse(w.stdout())).toMatchObject({ account: { id: 77, display_name: 'Envelope Talent' }, mode: 'live' });
    await w.ctx.close();
    server.queue('GET /v2/accounts', (_q, res) => json(res, 200, body));
    const a = fakeContext({ configDir: join(dir, `${shape}-a`), env, globals: { output: 'json' } });
    await accounts.default.run({}, a.ctx);
    expect(JSON.parse(a.stdout())).toEqual({ mode: 'live', ...ACCOUNT });
    await a.ctx.close();
  });
});

it('an envelope that holds no account is one sentence, not nulls', async () => {
  server.queue('GET /v2/accounts', (_q, res) => json(res, 200, { mode: 'live', object: 'list', total_count: 0, has_more: false, data: [] }));
  const w = fakeContext({ configDir: join(dir, 'empty'), env: { JOBFIT_BASE_URL: server.url, JOBFIT_API_KEY: KEY }, globals: { output: 'json' } });
  await expect(whoami.default.run({}, w.ctx)).rejects.toThrow('The service answered GET /accounts with a list that holds no account.');
  await w.ctx.close();
});
