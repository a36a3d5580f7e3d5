/**
 * The trust rule of the config file and the stub's database, one test per
 * platform (docs/security.md, "Files jobfit trusts"):
 * - Linux (this machine): the file, its folder and every folder above it, up to
 *   `/`, through the CLI (issue 42: a config folder whose parent others can
 *   write, or a sticky folder of another user, was trusted);
 * - macOS: the same POSIX rule (the code path taken for 'darwin'; /tmp being a
 *   link there is the realpath case below);
 * - Windows: no mode check (node reports 0o666 for every writable file there);
 *   the real thing runs under Wine in test/e2e/twice.test.ts, twice on one folder.
 */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustProblem } from '../../src/core/trust.js';
import { runCli } from '../helpers/cli.js';
import { skipBecause } from '../helpers/skip.js';

const CONFIG = JSON.stringify({ current_profile: 'w', profiles: { w: { base_url: 'http://127.0.0.1:9/v2', test_key: 'sk_test_abcdefabcdefabcdef1234' } } });
const ENV = { JOBFIT_TIMEOUT: '2', JOBFIT_MAX_RETRIES: '0' };
const isRoot = process.getuid?.() === 0;

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'jobfit-trust-'));
  chmodSync(tmp, 0o700);
});
afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** parent/config/config.json, owner-only, with `parent` as given. */
function configUnder(name: string, parentMode: number): { parent: string; configDir: string; file: string } {
  const parent = join(tmp, name);
  mkdirSync(parent);
  chmodSync(parent, parentMode);
  const configDir = join(parent, 'config');
  mkdirSync(configDir, { mode: 0o700 });
  const file = join(configDir, 'config.json');
  writeFileSync(file, CONFIG, { mode: 0o600 });
  return { parent, configDir, file };
}

describe.skipIf(process.platform === 'win32')('Linux and macOS: owner and modes of the file and every folder above it', () => {
  it('a config folder whose parent others can write (not sticky) is refused before any key is sent (exit 2)', async () => {
    const { parent, configDir } = configUnder('open-parent', 0o777);
    const r = await runCli(['health'], { configDir, env: ENV });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Error: The folder ${parent}, above the config file, can be changed by anyone on this machine (mode 777), so it could be replaced: it is not used. Set JOBFIT_CONFIG_DIR to a folder of yours.`);
    chmodSync(parent, 0o1777); // sticky, ours: others can add names but not replace ours
    const sticky = await runCli(['health'], { configDir, env: ENV });
    expect(sticky.stderr).not.toMatch(/it is not used/);
  });

  it.skipIf(skipBecause(!isRoot && 'handing a folder to another user needs root'))('a sticky folder that belongs to another user is refused (its owner can replace anything in it)', async () => {
    const { parent, configDir } = configUnder('sticky-other', 0o1777);
    chownSync(parent, 4242, 4242);
    const r = await runCli(['health'], { configDir, env: ENV });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Error: The folder ${parent}, above the config file, belongs to another user (uid 4242), who could replace it: it is not used.`);
    chownSync(parent, 0, 0);
    const ok = await runCli(['health'], { configDir, env: ENV });
    expect(ok.stderr).not.toMatch(/it is not used/);
  });

  it('the folders reached through a link are judged too (macOS: /tmp is a link to /private/tmp)', () => {
    const { parent, file } = configUnder('behind-link', 0o777);
    const link = join(tmp, 'link');
    symlinkSync(join(parent, 'config'), link);
    // Lexically link/config.json sits in tmp (ours, 700); really it sits below a folder anyone can write.
    expect(trustProblem(join(link, 'config.json'), 'The config file')).toContain(`The folder ${parent}, above the config file, can be changed by anyone`);
    chmodSync(parent, 0o755);
    expect(trustProblem(join(link, 'config.json'), 'The config file')).toBeUndefined();
    expect(trustProblem(file, 'The config file')).toBeUndefined();
  });

  it('macOS takes the same rule', () => {
    const { file } = configUnder('darwin', 0o700);
    chmodSync(file, 0o666);
    expect(trustProblem(file, 'The config file', undefined, { platform: 'darwin' })).toMatch(/can be changed by anyone on this machine \(mode 666\): it is not used\. Run `chmod 600 /);
  });
});

describe('Windows: no mode check (every writable file reads 0o666 there, and there are no uids)', () => {
  it('a file and folders that read 0o666/0o777 are used, and no `chmod` is advised', () => {
    const { file, configDir } = configUnder('win32', 0o777);
    chmodSync(file, 0o666);
    chmodSync(configDir, 0o777);
    expect(trustProblem(file, 'The config file', undefined, { platform: 'win32', uid: undefined })).toBeUndefined();
    expect(trustProblem(file, "The stub's database", 'give the stub another data folder', { platform: 'win32', uid: undefined })).toBeUndefined();
  });
});
