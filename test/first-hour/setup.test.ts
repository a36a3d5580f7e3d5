/**
 * Issue 14, "Setup and connection": what a new user meets in the first minutes,
 * run in-process against the embedded stub or a stub on a loopback port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { type StubEnv, startStubEnv } from '../commands/stub-env.js';

let env: StubEnv;
const dirs: string[] = [];
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), 'jobfit-first-hour-'));
  dirs.push(d);
  return d;
};
beforeAll(async () => {
  env = await startStubEnv();
});
afterAll(async () => {
  await env?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('1. invite defaults before any login', () => {
  it('config set invite_defaults.created_by keeps the embedded stub, and invites use the default', async () => {
    const configDir = fresh();
    const users = JSON.parse((await runCli(['users', '-o', 'json'], { configDir })).stdout).data as Array<{ email: string; default_team: unknown }>;
    // Not the first user: the default must be what picks the inviter.
    const inviter = users.filter((u) => u.default_team)[1].email;
    expect((await runCli(['config', 'set', 'invite_defaults.created_by', inviter], { configDir })).code).toBe(0);

    const who = await runCli(['whoami', '-o', 'json'], { configDir });
    expect(who.code, who.stderr).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ embedded_stub: true, profile: 'default', mode: 'live' });
    expect(who.stderr).toContain('embedded local stub');

    const inv = await runCli(['invite', '--first-name', 'Ada', '--last-name', 'Lovelace', '--email', 'ada.first-hour@example.com', '--send-via', 'none', '-o', 'json'], { configDir });
    expect(inv.code, inv.stderr).toBe(0);
    expect(JSON.parse(inv.stdout).invited_by_user.email).toBe(inviter);

    expect((await runCli(['config', 'unset', 'invite_defaults.created_by'], { configDir })).code).toBe(0);
    expect((await runCli(['whoami', '-o', 'json'], { configDir })).code).toBe(0);
  });

  it('a profile with a base URL and no key names the live key, the default mode', async () => {
    const configDir = fresh();
    await runCli(['config', 'set', 'base_url', env.stub.url], { configDir });
    const r = await runCli(['whoami'], { configDir });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^Error: Profile "default" has no API key\.$/m);
    expect(r.stderr).toContain('config set live_key');
  });
});
