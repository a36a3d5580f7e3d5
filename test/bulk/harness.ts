/**
 * What the CSV file tests share: a real stub on a loopback port for the whole
 * file, `jobfit invite` run in-process against it, and the fixtures.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { RunningStub } from '../../src/stub/index.js';
import { runCli } from '../helpers/cli.js';
import { type StartedStub, startStub } from '../helpers/stub.js';

export const FIX = resolve(import.meta.dirname, '../fixtures/csv');
/** The files the help's examples and the README name (fixtures/csv: sample.csv, people.xlsx, uk-candidates.csv). */
const EXAMPLES = resolve(import.meta.dirname, '../../fixtures/csv');
import { DANA as INVITER } from '../helpers/seeded.js';

export { INVITER };
/** A file of the corpus (test/fixtures/csv), or of the examples when the corpus has none by that name. */
export const fx = (name: string) => (existsSync(join(FIX, name)) ? join(FIX, name) : join(EXAMPLES, name));
export const readResults = (p: string) => readFileSync(p, 'utf8').replace(/^\uFEFF/, '').trimEnd().split('\n');

/** Starts the stub before the file's tests and removes everything after them. */
export function useBulkStub(prefix: string) {
  const h = { dir: '', stub: undefined as unknown as RunningStub, env: {} as Record<string, string> };
  let started: StartedStub | undefined;
  beforeAll(async () => {
    h.dir = mkdtempSync(join(tmpdir(), prefix));
    started = await startStub({ dataDir: join(h.dir, 'stub') });
    h.stub = started.server!;
    h.env = started.env;
  });
  afterAll(async () => {
    await started?.stop();
    rmSync(h.dir, { recursive: true, force: true });
  });
  const invite = (args: string[], extra: { stdin?: string } = {}) => runCli(['invite', ...args], { env: h.env, ...extra });
  /** `invite --csv CSV --created-by INVITER --out <dir>/NAME.results.csv ...more`, expecting exit `code`. */
  const send = async (csv: string, name: string, more: string[] = [], code = 0) => {
    const out = join(h.dir, `${name}.results.csv`);
    const r = await invite(['--csv', csv, '--created-by', INVITER, '--out', out, ...more]);
    expect(r.code, r.stderr).toBe(code);
    return { r, out };
  };
  return { h, invite, send };
}

/** A dry run that found every row valid. */
export function expectAllValid(r: { code: number; stdout: string; stderr: string }, rows: number): void {
  expect(r.stderr).not.toMatch(/Error/);
  expect(r.stdout).toContain(`${rows} row${rows === 1 ? "" : "s"}, ${rows} valid, 0 invalid`);
  expect(r.code).toBe(0);
}
