/**
 * The package as its users get it: `npm pack`, the tarball installed into a
 * temporary project, and a TypeScript program there that imports
 * 'jobfit-cli' by name, type-checks against the packed declarations (tsc,
 * strict) and then runs all four functions against the stub it starts.
 *
 * Offline and quick: the temporary project's lockfile is the repository's
 * (its runtime packages, the versions `npm ci` put in npm's cache), so the
 * install reads npm's cache, not the registry. Every install here runs with
 * --ignore-scripts: nothing needs one (better-sqlite3 13 ships its binaries).
 * Then the tarball installed globally (`npm install -g`, into a prefix of its
 * own) and `jobfit` run from that prefix's bin/ with a fresh HOME, on the Node
 * running this test. Needs dist/ built (test/global-setup.ts builds it).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);
const NPM_FLAGS = ['--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'];

interface LockEntry {
  version?: string;
  dev?: boolean;
  devOptional?: boolean;
  [k: string]: unknown;
}

let dir: string;
let tsc: { code: number; output: string };
let tarballPath: string;

/** The consumer project: package.json and a lockfile of the tarball plus the repository's runtime packages. */
function writeProject(tarball: string): void {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const self = lock.packages[''];
  const integrity = `sha512-${createHash('sha512').update(readFileSync(join(dir, tarball))).digest('base64')}`;
  const dependencies = { 'jobfit-cli': `file:${tarball}` };
  const packages: Record<string, unknown> = {
    '': { name: 'consumer', dependencies },
    'node_modules/jobfit-cli': { version: self.version, resolved: `file:${tarball}`, integrity, dependencies: self.dependencies, bin: self.bin, engines: self.engines },
  };
  for (const [path, entry] of Object.entries(lock.packages)) if (path && !entry.dev && !entry.devOptional) packages[path] = entry;
  // The repository's overrides (uuid for exceljs) are what its lockfile was resolved with.
  const overrides = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { overrides?: Record<string, string> }).overrides;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies, ...(overrides && { overrides }) }, null, 2));
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ name: 'consumer', lockfileVersion: 3, requires: true, packages }, null, 2));
  cpSync(join(ROOT, 'test/lib/consumer.ts.txt'), join(dir, 'consumer.ts'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        // As most projects have it (tsc --init): declaration files are read, not checked. That
        // they resolve is shown by the files tsc lists and by the @ts-expect-error probes of the
        // consumer, which fail if a type of ours comes out as `any`.
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')],
        outDir: 'out',
      },
      files: ['consumer.ts'],
    }),
  );
}

beforeAll(async () => {
  for (const built of ['dist/lib/index.js', 'dist/types/lib/index.d.ts']) {
    if (!existsSync(join(ROOT, built))) throw new Error(`${built} is missing: run npm run build first.`);
  }
  dir = mkdtempSync(join(tmpdir(), 'jobfit-pack-'));
  // --ignore-scripts: `prepare` would rebuild dist/ under the feet of the other test files.
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  const tarball = (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0].filename;
  writeProject(tarball);
  tarballPath = join(dir, tarball);
  await run('npm', ['ci', ...NPM_FLAGS], { cwd: dir, timeout: 90_000 });
  tsc = await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir, '--listFiles'], { cwd: dir, timeout: 90_000 }).then(
    (r) => ({ code: 0, output: r.stdout + r.stderr }),
    (err: { code?: number; killed?: boolean; stdout?: string; stderr?: string }) => ({
      code: typeof err.code === 'number' ? err.code : 1,
      output: `${err.stdout ?? ''}${err.stderr ?? ''}${err.killed ? '\ntsc was stopped after 90 s' : ''}`,
    }),
  );
}, 200_000);

afterAll(async () => {
  // Two installed trees (the project's and the global prefix): large enough to take a while on a loaded machine.
  if (dir) await rm(dir, { recursive: true, force: true });
}, 120_000);

describe('the packed package, imported by name', () => {
  it('holds the library, its declarations and the CLI, and not the sources or tests', () => {
    const pkg = join(dir, 'node_modules/jobfit-cli');
    for (const f of ['package.json', 'bin/jobfit.js', 'dist/main.js', 'dist/lib/index.js', 'dist/types/lib/index.d.ts', 'dist/stub/seed.json', 'fixtures/csv/sample.csv', 'docs/library.md']) {
      expect(existsSync(join(pkg, f)), f).toBe(true);
    }
    expect(readdirSync(pkg).sort()).toEqual(['README.md', 'bin', 'dist', 'docs', 'fixtures', 'package.json']);
  });

  it('the CLI and the library are separate bundles: no CLI file imports the library', () => {
    const dist = join(ROOT, 'dist');
    const cli = ['main.js', ...readdirSync(join(dist, 'chunks')).map((f) => `chunks/${f}`)];
    for (const f of cli) expect(readFileSync(join(dist, f), 'utf8'), f).not.toMatch(/(from\s*|import\()"(\.\.?\/)+lib\//);
    for (const f of readdirSync(join(dist, 'lib'), { recursive: true }) as string[]) {
      if (f.endsWith('.js')) expect(readFileSync(join(dist, 'lib', f), 'utf8'), f).not.toMatch(/(from\s*|import\()"\.\.\/(\.\.\/)?(main|chunks\/)/);
    }
  });

  it('type-checks a consumer of all four functions with tsc, against the declarations of the package and of its dependencies', () => {
    const lines = tsc.output.split('\n');
    expect(lines.filter((l) => !l.startsWith('/') && l.trim() !== '')).toEqual([]);
    expect(tsc.code).toBe(0);
    // Resolved through the package's "exports" and from its declarations: zod (the item types), undici (the transport).
    const read = (part: string) => lines.some((l) => l.includes(part));
    expect(read('/node_modules/jobfit-cli/dist/types/lib/index.d.ts')).toBe(true);
    expect(read('/node_modules/jobfit-cli/dist/types/client/client.d.ts')).toBe(true);
    expect(read('/node_modules/zod/')).toBe(true);
    expect(read('/node_modules/undici/')).toBe(true);
  });

  it('runs createClient, bulkInvite, listAll and startStub against the stub', async () => {
    expect(tsc.code).toBe(0);
    const { stdout } = await run(process.execPath, [join(dir, 'out/consumer.js')], { cwd: dir, timeout: 60_000 });
    const r = JSON.parse(stdout);
    // 120 rows invited, each with its participant link on the stub; the same rows again already exist.
    expect(r.sent).toEqual({ created: 120, rows: 120, statuses: ['created'], withUrl: 120 });
    expect(r.progress).toBe(120);
    expect(r.again).toEqual(['exists', 'exists', 'exists']);
    expect(r.viaInterface).toEqual(['created']);
    // Every item of lists far past the service's cap of 50, each once, as many as it counts.
    expect(r.invitations.total).toBeGreaterThan(150);
    expect(r.invitations).toEqual({ listed: r.invitations.total, distinct: r.invitations.total, total: r.invitations.total });
    expect(r.team.listed).toBe(r.team.total);
    expect(r.takers.total).toBeGreaterThan(50);
    expect(r.takers).toEqual({ listed: r.takers.total, distinct: r.takers.total, total: r.takers.total });
    expect(r.iterated).toEqual({ distinct: r.takers.total, same: true });
    expect(r.profiles.total).toBeGreaterThan(50);
    expect(r.profiles).toEqual({ listed: r.profiles.total, distinct: r.profiles.total, total: r.profiles.total, url: 'string' });
    // The error classes work across the package boundary (instanceof).
    expect(r.invalidRows).toEqual([1]);
    expect(r.authFailed).toBe(true);
  }, 70_000);

  it(`a global install (npm install -g of the tarball) puts a working jobfit on the PATH, on node ${process.versions.node}`, async () => {
    const prefix = join(dir, 'global');
    const home = join(dir, 'home');
    mkdirSync(home, { recursive: true });
    // The Node running this test first on the PATH: `#!/usr/bin/env node` in bin/jobfit.js finds it.
    const env = { PATH: [dirname(process.execPath), join(prefix, 'bin'), process.env.PATH ?? ''].join(delimiter), HOME: home, NO_COLOR: '1' };
    await run('npm', ['install', '-g', '--prefix', prefix, ...NPM_FLAGS, tarballPath], { cwd: dir, timeout: 120_000, env: { ...process.env, npm_config_prefix: prefix } });
    const version = await run('jobfit', ['--version'], { cwd: home, env, timeout: 30_000 });
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    const teams = await run('jobfit', ['teams', '-o', 'json'], { cwd: home, env, timeout: 60_000 });
    expect(JSON.parse(teams.stdout).data.length).toBeGreaterThan(0);
    expect(teams.stderr).toContain('embedded local stub');
  }, 200_000);
});
