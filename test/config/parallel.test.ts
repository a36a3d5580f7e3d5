/**
 * Many processes changing the config at once (issue 17): every update is
 * kept, because each read-modify-write holds `<config>.lock`. The built CLI,
 * 50 processes per round on one JOBFIT_CONFIG_DIR. Three rounds here;
 * JOBFIT_CONFIG_ROUNDS=10 for the full check by hand.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltCli, buildCli } from '../e2e/built.js';
import { type TestStub, startTestStub } from '../stub/helpers.js';

const WRITERS = 50;
const LOGINS = 4;
const ROUNDS = Number(process.env.JOBFIT_CONFIG_ROUNDS) || 3;

let cli: BuiltCli;
let stub: TestStub;
beforeAll(async () => {
  cli = buildCli();
  stub = await startTestStub();
}, 120_000);
afterAll(async () => {
  cli?.close();
  await stub?.stop();
});

function profilesIn(dir: string): Record<string, { base_url?: string; default_mode?: string; test_key?: string }> {
  return (JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { profiles: Record<string, { base_url?: string }> }).profiles;
}

describe(`${WRITERS} parallel config writers`, () => {
  it(
    `keep every update, ${ROUNDS} rounds in a row (config set, config unset, login and logout at once)`,
    async () => {
      for (let round = 1; round <= ROUNDS; round++) {
        const dir = mkdtempSync(join(tmpdir(), 'jobfit-config-par-'));
        try {
          const env = { JOBFIT_CONFIG_DIR: dir };
          // Profiles that the parallel writers remove, or change one field of.
          for (const name of ['gone1', 'gone2', 'kept']) {
            expect(cli.run(['config', 'set', 'base_url', `https://${name}.example/v2`, '--profile', name], { env }).code).toBe(0);
          }
          expect(cli.run(['config', 'set', 'default_mode', 'test', '--profile', 'kept'], { env }).code).toBe(0);
          const runs = [
            ...Array.from({ length: WRITERS }, (_, i) => cli.runAsync(['config', 'set', 'base_url', `https://p${i}.example/v2`, '--profile', `p${i}`], { env })),
            cli.runAsync(['logout', '--profile', 'gone1'], { env }),
            cli.runAsync(['logout', '--profile', 'gone2'], { env }),
            cli.runAsync(['config', 'unset', 'default_mode', '--profile', 'kept'], { env }),
            ...Array.from({ length: LOGINS }, (_, i) => cli.runAsync(['login', '--profile', `login${i}`, '--base-url', stub.url, '--insecure-storage'], { env, input: stub.test })),
          ];
          const results = await Promise.all(runs);
          for (const r of results) {
            expect(r.stderr).not.toMatch(/Error/);
            expect(r.code).toBe(0);
          }
          const profiles = profilesIn(dir);
          const names = Object.keys(profiles).sort();
          const logins = Array.from({ length: LOGINS }, (_, i) => `login${i}`);
          expect(names, `round ${round}`).toEqual([...Array.from({ length: WRITERS }, (_, i) => `p${i}`), ...logins, 'kept'].sort());
          for (const name of logins) expect(profiles[name]).toEqual({ base_url: stub.url, test_key: stub.test, default_mode: 'test' });
          for (let i = 0; i < WRITERS; i++) expect(profiles[`p${i}`].base_url).toBe(`https://p${i}.example/v2`);
          expect(profiles.kept).toEqual({ base_url: 'https://kept.example/v2' });
          // No lock is left behind.
          expect(existsSync(join(dir, 'config.json.lock'))).toBe(false);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
    },
    ROUNDS * 30_000,
  );
});
