/**
 * The code cache of the CLI's chunks (src/cli/code-cache.ts), on the built
 * binary with a fresh HOME: written once, read after, a damaged file replaced,
 * one others can write not read, a folder others can write not used, stale
 * files dropped, two installs each with a folder of their own, a command
 * that makes a request over the network (V8's WebAssembly flag set midway,
 * src/core/wasm.ts) reads its cache too, and nothing at all when node's
 * cache is switched off.
 */
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltCli, buildCli } from '../e2e/built.js';
import { startStub } from '../helpers/stub.js';
import { skipBecause } from '../helpers/skip.js';

let cli: BuiltCli;
let env: Record<string, string>;
let cacheRoot: string;

beforeAll(() => {
  cli = buildCli();
  env = { JOBFIT_CONFIG_DIR: join(cli.dir, 'config'), XDG_CACHE_HOME: join(cli.dir, 'cache') };
  cacheRoot = join(cli.dir, 'cache', 'jobfit', 'code-cache');
}, 120_000);
afterAll(() => cli?.close());

/** The folder of this node and these V8 flags, and in it of this install (the first, or the one named): its files with their change times. */
function cached(install?: string): { dir: string; files: Map<string, number> } {
  const [tag] = readdirSync(cacheRoot);
  const dir = join(cacheRoot, tag, install ?? readdirSync(join(cacheRoot, tag))[0]);
  return { dir, files: new Map(readdirSync(dir).map((f) => [f, statSync(join(dir, f)).mtimeMs])) };
}

/**
 * A file of a chunk every `teams -o json` runs (the first run, which seeds the
 * stub, runs more): the CLI's main chunk, the stub's route for teams, or the
 * largest, the core every command loads (scripts/core-chunk.mjs).
 */
function ranByTeams({ dir, files }: { dir: string; files: Map<string, number> }, which: 'main' | 'route' | 'core'): string {
  const names = [...files.keys()];
  if (which === 'core') return names.sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0];
  const name = names.find((f) => f.startsWith(which === 'main' ? 'main-' : 'teams-'));
  if (name === undefined) throw new Error(`no ${which} chunk among ${names.join(', ')}`);
  return name;
}

describe('the code cache of the chunks', () => {
  it('is written by the first run, one file per chunk it ran, and read, not written, by the next', () => {
    const first = cli.run(['teams', '-o', 'json'], { env });
    expect(first.code, first.stderr).toBe(0);
    const after1 = cached();
    const chunks = new Set(readdirSync(join(cli.dir, 'dist', 'chunks')));
    // The main chunk, the core, the command's, its stub route's (scripts/core-chunk.mjs), and what seeding runs.
    expect(after1.files.size).toBeGreaterThanOrEqual(5);
    for (const f of after1.files.keys()) expect(chunks.has(f.replace(/-\d+$/, '')), f).toBe(true);
    const second = cli.run(['teams', '-o', 'json'], { env });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(cached().files).toEqual(after1.files);
  });

  it('an embedded teams runs few chunks: what every command needs is one, the core (scripts/core-chunk.mjs)', () => {
    // The stub is seeded (the test before); a cache folder of its own holds one file per chunk this run compiled.
    const own = { ...env, XDG_CACHE_HOME: join(cli.dir, 'count-cache') };
    const r = cli.run(['teams', '-o', 'json'], { env: own });
    expect(r.code, r.stderr).toBe(0);
    const root = join(cli.dir, 'count-cache', 'jobfit', 'code-cache');
    const [tag] = readdirSync(root);
    const ran = readdirSync(join(root, tag, readdirSync(join(root, tag))[0]));
    // cli/main, the core, esbuild's helpers, the command, its schema, the stub's route: 71 before the core was one.
    expect(ran.length, ran.join(', ')).toBeLessThanOrEqual(8);
  });

  it('a command over the network reads its cache as well: V8 keys a cache by its flags, and the WebAssembly flag is set midway (core/wasm.ts)', async () => {
    const stub = await startStub({ dataDir: join(cli.dir, 'served-stub') });
    try {
      const served = { ...env, XDG_CACHE_HOME: join(cli.dir, 'served-cache'), JOBFIT_BASE_URL: stub.url, JOBFIT_API_KEY: stub.keys[0].live_key };
      const root = join(cli.dir, 'served-cache', 'jobfit', 'code-cache');
      const files = () => {
        const [tag] = readdirSync(root);
        const dir = join(root, tag, readdirSync(join(root, tag))[0]);
        return new Map(readdirSync(dir).map((f) => [f, statSync(join(dir, f)).mtimeMs]));
      };
      const first = await cli.runAsync(['teams', '-o', 'json'], { env: served });
      expect(first.code, first.stderr).toBe(0);
      const after1 = files();
      expect(after1.size).toBeGreaterThanOrEqual(4);
      // Before the flag was set back at exit, every such run wrote every file again (~25 ms).
      const second = await cli.runAsync(['teams', '-o', 'json'], { env: served });
      expect(second.code, second.stderr).toBe(0);
      expect(files()).toEqual(after1);
    } finally {
      await stub.stop();
    }
  });

  it('a damaged file is refused and written again, and the run is the same', () => {
    const { dir, files } = cached();
    const name = [...files.keys()].sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0];
    writeFileSync(join(dir, name), 'not a code cache');
    const r = cli.run(['teams', '-o', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ object: 'list' });
    expect(readFileSync(join(dir, name)).length).toBeGreaterThan(1000);
  });

  it('files of chunks this build does not have go when files are written', () => {
    const { dir } = cached();
    writeFileSync(join(dir, 'chunk-GONEGONE.js-1234'), 'from an earlier build');
    // One file missing, so this run writes.
    const name = ranByTeams(cached(), 'main');
    writeFileSync(join(dir, name), '');
    expect(cli.run(['teams', '-o', 'json'], { env }).code).toBe(0);
    expect(readdirSync(dir)).not.toContain('chunk-GONEGONE.js-1234');
    expect(readdirSync(dir)).toContain(name);
  });

  it('a file others can write is not read (compiled code is code): it is written again, owner-only', () => {
    const { dir } = cached();
    const name = ranByTeams(cached(), 'route');
    chmodSync(join(dir, name), 0o666);
    expect(cli.run(['teams', '-o', 'json'], { env }).code).toBe(0);
    // Had it been read, V8 would have taken it (it is valid) and nothing would be written.
    expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
  });

  it('a cache folder others can write is not used at all (a shared XDG_CACHE_HOME)', () => {
    const { dir } = cached();
    const name = ranByTeams(cached(), 'core');
    rmSync(join(dir, name));
    chmodSync(dir, 0o777);
    try {
      const r = cli.run(['teams', '-o', 'json'], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(readdirSync(dir)).not.toContain(name);
    } finally {
      chmodSync(dir, 0o700);
    }
  });

  it('two installs keep a folder each: neither drops the other\'s files as stale', () => {
    // Settled first (the test before left a file unwritten).
    expect(cli.run(['teams', '-o', 'json'], { env }).code).toBe(0);
    const own = cached();
    const installs = () => readdirSync(dirname(own.dir)).sort();
    const other = buildCli();
    try {
      // Another copy of the CLI (a global install beside a project's) with the same cache folder.
      const r = other.run(['teams', '-o', 'json'], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(installs()).toHaveLength(2);
      const theirs = installs().find((d) => d !== basename(own.dir))!;
      const theirFiles = cached(theirs).files;
      expect(theirFiles.size).toBeGreaterThanOrEqual(5);
      // Each run after reads its own and writes nothing: no folder changes.
      expect(cli.run(['teams', '-o', 'json'], { env }).code).toBe(0);
      expect(other.run(['teams', '-o', 'json'], { env }).code).toBe(0);
      expect(cached(basename(own.dir)).files).toEqual(own.files);
      expect(cached(theirs).files).toEqual(theirFiles);
      // An install not run for over 30 days goes when another writes; files of the old one-folder layout too.
      const old = new Date(Date.now() - 31 * 24 * 3600 * 1000);
      utimesSync(join(dirname(own.dir), theirs), old, old);
      mkdirSync(join(dirname(own.dir), 'abandoned'), { mode: 0o700 });
      writeFileSync(join(dirname(own.dir), 'chunk-FLAT.js-10'), 'the layout before');
      writeFileSync(join(own.dir, ranByTeams(own, 'main')), '');
      expect(cli.run(['teams', '-o', 'json'], { env }).code).toBe(0);
      expect(installs()).toEqual([basename(own.dir), 'abandoned'].sort());
    } finally {
      other.close();
    }
  });

  it('NODE_DISABLE_COMPILE_CACHE: no cache is read or written', () => {
    const off = { ...env, XDG_CACHE_HOME: join(cli.dir, 'cache-off'), NODE_DISABLE_COMPILE_CACHE: '1' };
    expect(cli.run(['teams', '-o', 'json'], { env: off }).code).toBe(0);
    expect(() => readdirSync(join(cli.dir, 'cache-off'))).toThrow();
  });
});

/** Every file under a folder, recursively (none when it is missing). */
const filesUnder = (dir: string) => {
  try {
    return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => statSync(join(dir, f)).isFile());
  } catch {
    return [];
  }
};

// Node's compile cache holds what loads from node_modules (exceljs here: `-o xlsx`); the bundle's own chunks have theirs above.
describe("node's compile cache: only in a folder of this user's that no one else can write", () => {
  it('a compile-cache folder others can write is not used (a file planted there would run as jobfit)', () => {
    const root = join(cli.dir, 'cache-shared');
    const folder = join(root, 'jobfit', 'compile-cache');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    chmodSync(folder, 0o777);
    const r = cli.run(['teams', '-o', 'xlsx', '--out', join(root, 't.xlsx')], { env: { ...env, XDG_CACHE_HOME: root } });
    expect(r.code, r.stderr).toBe(0);
    expect(filesUnder(folder)).toEqual([]);
  });

  it('nor a jobfit cache folder others can write, where the compile-cache folder would be made', () => {
    const root = join(cli.dir, 'cache-shared-parent');
    mkdirSync(join(root, 'jobfit'), { recursive: true, mode: 0o700 });
    chmodSync(join(root, 'jobfit'), 0o777);
    const r = cli.run(['teams', '-o', 'xlsx', '--out', join(root, 't.xlsx')], { env: { ...env, XDG_CACHE_HOME: root } });
    expect(r.code, r.stderr).toBe(0);
    expect(filesUnder(join(root, 'jobfit', 'compile-cache'))).toEqual([]);
  });

  const notRoot = process.getuid?.() !== 0 && 'making a folder of another user needs root';
  it.skipIf(skipBecause(notRoot))("nor another user's folder", () => {
    const root = join(cli.dir, 'cache-theirs');
    const folder = join(root, 'jobfit', 'compile-cache');
    mkdirSync(folder, { recursive: true, mode: 0o755 });
    chownSync(folder, 4242, 4242);
    const r = cli.run(['teams', '-o', 'xlsx', '--out', join(root, 't.xlsx')], { env: { ...env, XDG_CACHE_HOME: root } });
    expect(r.code, r.stderr).toBe(0);
    expect(filesUnder(folder)).toEqual([]);
  });

  it('in its own folder it is used: made owner-only, and written', () => {
    const root = join(cli.dir, 'cache-own');
    const r = cli.run(['teams', '-o', 'xlsx', '--out', join(root, 't.xlsx')], { env: { ...env, XDG_CACHE_HOME: root } });
    expect(r.code, r.stderr).toBe(0);
    const folder = join(root, 'jobfit', 'compile-cache');
    expect(filesUnder(folder).length).toBeGreaterThan(0);
    expect(statSync(folder).mode & 0o077).toBe(0);
  });
});
