/**
 * Keys in the OS keyring, with the built binary on Linux (or the standalone executable: JOBFIT_E2E_EXE): a real Secret Service
 * (gnome-keyring, unlocked, in a private D-Bus session), no session bus at all,
 * and a bus that never answers (the 3-second bound). .ci/run installs dbus,
 * gnome-keyring and libsecret-tools; without them the Secret Service test
 * fails in CI and is skipped, saying why, elsewhere.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStub } from '../../src/stub/index.js';
import { startStub } from '../helpers/stub.js';
import { type BuiltCli, buildCli } from '../e2e/built.js';

let cli: BuiltCli;
let stub: RunningStub;
let dir: string;
let key: string;

beforeAll(async () => {
  cli = buildCli();
  dir = mkdtempSync(join(tmpdir(), 'jobfit-keyring-'));
  stub = (await startStub({ dataDir: join(dir, 'stub') })).server!;
  key = stub.keys[0].live_key;
}, 120_000);
afterAll(async () => {
  await stub?.close();
  cli?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** Every file under a folder, recursively, whose bytes contain the key. */
function filesHolding(root: string, secret: string): string[] {
  const hits: string[] = [];
  for (const f of readdirSync(root, { recursive: true }) as string[]) {
    const p = join(root, f);
    try {
      if (statSync(p).isFile() && readFileSync(p).includes(secret)) hits.push(p);
    } catch {
      // Gone meanwhile (a lock file).
    }
  }
  return hits;
}

const warnings = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('Warning:'));

/**
 * "Within 8 s" on a loaded machine: a login that took longer is still in
 * bound when it took less than 5 s more than a plain command of the same
 * config run just after it (the keyring's 3 s wait, and 2 s for the rest).
 */
async function expectWithin8s(seconds: number, env: Record<string, string>): Promise<void> {
  if (seconds < 8) return;
  const t0 = performance.now();
  await cli.runAsync(['--profile', 'kr', 'teams', '-o', 'json'], { env });
  const plain = (performance.now() - t0) / 1000;
  expect(seconds - plain, `login took ${seconds.toFixed(1)} s, a plain command ${plain.toFixed(1)} s`).toBeLessThan(5);
}

describe('no keyring answers: the owner-only file, and one warning that says so', () => {
  it('with no session bus: login exits 0 within 8 s, the key is in the 0600 file, commands work', async () => {
    const cfg = join(dir, 'nobus');
    const env = { JOBFIT_CONFIG_DIR: cfg };
    const t0 = performance.now();
    const r = await cli.runAsync(['login', '--profile', 'kr', '--base-url', stub.url], { env, input: key });
    const seconds = (performance.now() - t0) / 1000;
    expect(r.code, r.stderr).toBe(0);
    await expectWithin8s(seconds, env);
    expect(warnings(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(/^Warning: no OS keyring answered \(no D-Bus session bus .*\), so the live key is kept in .*config\.json \(readable by you only\)\.$/m);
    expect(r.stderr).not.toContain(key);
    expect(statSync(join(cfg, 'config.json')).mode & 0o777).toBe(0o600);
    expect(filesHolding(cfg, key)).toEqual([join(cfg, 'config.json')]);
    const teams = await cli.runAsync(['--profile', 'kr', 'teams', '-o', 'json'], { env });
    expect(teams.code, teams.stderr).toBe(0);
    expect(JSON.parse(teams.stdout).data.length).toBeGreaterThan(0);
    const list = JSON.parse((await cli.runAsync(['config', 'list', '-o', 'json'], { env })).stdout) as Array<{ key: string; stored_in: string | null }>;
    expect(list.find((e) => e.key === 'live_key')?.stored_in).toBe(join(cfg, 'config.json'));
  }, 60_000);

  it('--insecure-storage keeps the key in the file without asking the keyring, and says so', async () => {
    const cfg = join(dir, 'insecure');
    const r = await cli.runAsync(['login', '--profile', 'kr', '--base-url', stub.url, '--insecure-storage'], { env: { JOBFIT_CONFIG_DIR: cfg }, input: key });
    expect(r.code, r.stderr).toBe(0);
    expect(warnings(r.stderr)).toHaveLength(0);
    expect(r.stderr).toContain('as --insecure-storage asks');
    expect(filesHolding(cfg, key)).toEqual([join(cfg, 'config.json')]);
  }, 60_000);

  describe('a session bus that accepts and never answers', () => {
    let bus: Server;
    let socket: string;
    beforeAll(async () => {
      socket = join(dir, 'silent-bus.sock');
      // Takes the connection and never says a word: libdbus alone would wait 25 s per call.
      bus = createServer((s) => held.push(s));
      await new Promise<void>((ok) => bus.listen(socket, ok));
    });
    const held: Socket[] = [];
    afterAll(async () => {
      for (const s of held) s.destroy();
      await new Promise<void>((ok) => bus.close(() => ok()));
    });

    it('login gives up on the keyring after 3 s and keeps the key in the file, exit 0 within 8 s', async () => {
      const cfg = join(dir, 'silent');
      const env = { JOBFIT_CONFIG_DIR: cfg, DBUS_SESSION_BUS_ADDRESS: `unix:path=${socket}` };
      const t0 = performance.now();
      const r = await cli.runAsync(['login', '--profile', 'kr', '--base-url', stub.url], { env, input: key });
      const seconds = (performance.now() - t0) / 1000;
      expect(r.code, r.stderr).toBe(0);
      await expectWithin8s(seconds, env);
      expect(warnings(r.stderr)).toEqual([expect.stringContaining('no answer within 3 s')]);
      expect(filesHolding(cfg, key)).toEqual([join(cfg, 'config.json')]);
      expect((await cli.runAsync(['--profile', 'kr', 'teams'], { env })).code).toBe(0);
    }, 60_000);
  });
});

const tools = ['dbus-run-session', 'gnome-keyring-daemon', 'secret-tool'];
const missing = tools.filter((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0);
const required = process.env.CI === '1' || process.env.CI === 'true';
if (missing.length && !required) console.log(`Skipped: the Secret Service test needs ${missing.join(', ')} (Debian: dbus, gnome-keyring, libsecret-tools).`);

describe.skipIf(missing.length > 0 && !required)('a real Secret Service: gnome-keyring, unlocked, in a private D-Bus session', () => {
  it('login puts the key in the keyring and nowhere on disk; commands read it; another config folder leaves it alone; logout removes it; an old file-kept key moves in on login', async () => {
    expect(missing, `CI installs ${tools.join(', ')}`).toEqual([]);
    const home = join(dir, 'kr-home');
    const cfg = join(home, 'config');
    // An older jobfit's config: the key in plain text in the file.
    const script = `
      set -u
      mkdir -p "$HOME/.local/share/keyrings"
      printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
      # The daemon registers on the bus a moment later: wait for its name (at most 10 s).
      for i in $(seq 1 100); do
        dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true' && break
        sleep 0.1
      done
      jf() { "$JF_COMMAND" $JF_PREFIX "$@"; }
      mkdir -p "$JOBFIT_CONFIG_DIR" && chmod 700 "$JOBFIT_CONFIG_DIR"
      printf '%s' "$OLD_CONFIG" > "$JOBFIT_CONFIG_DIR/config.json" && chmod 600 "$JOBFIT_CONFIG_DIR/config.json"
      jf --profile old teams -o json >/dev/null; echo "old-teams=$?"
      printf %s "$KEY" | jf login --profile old --base-url "$URL"; echo "old-login=$?"
      printf %s "$KEY" | jf login --profile kr --base-url "$URL"; echo "login=$?"
      if grep -rlF "$KEY" "$HOME"; then echo "on-disk=yes"; else echo "on-disk=no"; fi
      jf --profile kr teams -o json >/dev/null; echo "teams=$?"
      jf --profile kr whoami -o json | grep '"key_source"'
      echo "found=$(secret-tool lookup service jobfit username "kr/live@$JOBFIT_CONFIG_DIR")"
      echo "found-old=$(secret-tool lookup service jobfit username "old/live@$JOBFIT_CONFIG_DIR")"
      # Another config folder, the same profile name: its login and logout leave this folder's key alone.
      printf %s "$KEY" | JOBFIT_CONFIG_DIR="$HOME/other" jf login --profile kr --base-url "$URL"; echo "other-login=$?"
      JOBFIT_CONFIG_DIR="$HOME/other" jf logout --profile kr; echo "other-logout=$?"
      jf --profile kr teams -o json >/dev/null; echo "after-other=$?"
      # The entry holds another key than login stored: not used, exit 4; the entry gone: exit 4, said so.
      printf sk_live_planted00000000 | secret-tool store --label=x service jobfit username "kr/live@$JOBFIT_CONFIG_DIR"
      jf --profile kr teams; echo "planted=$?"
      # A keyring that fails or does not answer is not a key that is gone: exit 4, saying which.
      DBUS_SESSION_BUS_ADDRESS="unix:path=$HOME/no-bus.sock" jf --profile kr teams; echo "failed=$?"
      DBUS_SESSION_BUS_ADDRESS="unix:path=$SILENT_BUS" jf --profile kr teams; echo "silent=$?"
      secret-tool clear service jobfit username "kr/live@$JOBFIT_CONFIG_DIR"
      jf --profile kr teams; echo "removed=$?"
      printf %s "$KEY" | jf login --profile kr --base-url "$URL"; echo "login-again=$?"
      jf logout --profile kr; echo "logout=$?"
      secret-tool lookup service jobfit username "kr/live@$JOBFIT_CONFIG_DIR" >/dev/null; echo "after-logout=$?"
    `;
    // A bus that takes the connection and never answers, for the read that must give up after 3 s.
    const held: Socket[] = [];
    const silent = createServer((c) => held.push(c));
    const silentBus = join(dir, 'silent-read.sock');
    await new Promise<void>((ok) => silent.listen(silentBus, ok));
    const oldConfig = JSON.stringify({ current_profile: 'old', profiles: { old: { base_url: stub.url, live_key: key, default_mode: 'live' } } });
    // Not spawnSync: the stub answering these commands runs in this process.
    const r = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn('dbus-run-session', ['--', 'bash', '-c', script], {
        env: { PATH: cli.path, HOME: home, JOBFIT_CONFIG_DIR: cfg, JF_COMMAND: cli.command, JF_PREFIX: cli.prefix.join(' '), KEY: key, URL: stub.url, OLD_CONFIG: oldConfig, SILENT_BUS: silentBus, NO_COLOR: '1' },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('error', reject);
      child.on('close', () => resolve({ stdout, stderr }));
    });
    const out = r.stdout;
    const log = `${out}\n${r.stderr}`;
    expect(out, log).toContain('old-teams=0');
    expect(out, log).toContain('old-login=0');
    expect(out, log).toContain('login=0');
    expect(r.stderr).not.toMatch(/^Warning:/m);
    expect(out, log).toContain('on-disk=no');
    expect(out, log).toContain('teams=0');
    expect(out).toContain(`"key_source": "profile \\"kr\\" in the OS keyring (service jobfit, account kr/live@${cfg})"`);
    expect(out).toContain(`found=${key}`);
    expect(out).toContain(`found-old=${key}`);
    expect(out, log).toContain('other-login=0');
    expect(out, log).toContain('other-logout=0');
    expect(out, log).toContain('after-other=0');
    expect(out, log).toContain('planted=4');
    expect(r.stderr).toContain(`Error: The OS keyring (service jobfit, account kr/live@${cfg}) holds another key (sk_live_…0000) than the one login stored for profile "kr" (sk_live_…${key.slice(-4)}), so it is not used.`);
    expect(r.stderr).not.toContain('sk_live_planted');
    for (const c of held) c.destroy();
    silent.close();
    const entry = `OS keyring (service jobfit, account kr/live@${cfg})`;
    expect(out, log).toContain('failed=4');
    expect(r.stderr).toMatch(new RegExp(`^Error: The live key of profile "kr" \\(sk_live_…${key.slice(-4)}\\) is kept in the ${entry.replace(/[()/.]/g, '\\$&')}, which could not be read \\(.*no-bus\\.sock.*\\); the key may still be there\\.$`, 'm'));
    expect(out, log).toContain('silent=4');
    expect(r.stderr).toContain(`Error: The live key of profile "kr" (sk_live_…${key.slice(-4)}) is kept in the ${entry}, which did not answer within 3 s; the key may still be there.`);
    expect(r.stderr).toContain('Hint: unlock the keyring (or answer its prompt) and run the command again; else run `jobfit login --profile kr` again');
    expect(out, log).toContain('removed=4');
    expect(r.stderr).toContain(`Error: The live key of profile "kr" (sk_live_…${key.slice(-4)}) is no longer in the OS keyring (service jobfit, account kr/live@${cfg}): the keyring answered that it has no such entry.`);
    expect(out, log).toContain('login-again=0');
    expect(out, log).toContain('logout=0');
    expect(out, log).toContain('after-logout=1');
    expect(r.stderr).toContain('Removed the live key from the OS keyring.');
    // The old profile's file keeps only the masked form now.
    expect(readFileSync(join(cfg, 'config.json'), 'utf8')).not.toContain(key);
    writeFileSync(join(dir, 'keyring-session.log'), log);
  }, 90_000);
});
