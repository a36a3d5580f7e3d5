#!/usr/bin/env node
// Would a V8 start-up snapshot make an embedded `jobfit teams` start fast
// enough (issue 23's goal: 2.3x `node -e 0`)? This bench builds one: the CLI
// bundled as one CommonJS file (scripts/bundle-options.mjs, as the real build
// but unsplit), its `teams` command, config and embedded stub loaded and run
// to their top level while node builds the snapshot (`--build-snapshot`),
// and times, interleaved with `node -e 0` and today's built CLI:
//
// - an empty snapshot (node's own state, nothing of ours): any snapshot's floor,
// - the CLI's snapshot deserialised with nothing run,
// - `teams -o json` against the embedded stub from the snapshot,
// - `teams -o json` against the embedded stub from dist/ (code cache warm).
//
//   node bench/cli/snapshot.mjs [--runs 21] [--warmup 3]
//
// undici is not in the snapshot: it reads node:http's exports as it loads,
// and node:http (its parser binding) cannot be serialised. It loads at run
// time, as it does from dist/. The bench only measures: the CLI does not
// ship a snapshot (docs/performance.md says why).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { bundlePlugins, common } from '../../scripts/bundle-options.mjs';
import { arg } from '../lib.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const RUNS = arg('--runs', 21);
const WARMUP = arg('--warmup', 3);
const tmp = mkdtempSync(join(tmpdir(), 'jobfit-snapshot-'));
execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });

const src = (p) => JSON.stringify(join(root, 'src', p));
writeFileSync(
  join(tmp, 'entry.ts'),
  `import { runMain } from ${src('cli/main.ts')};
import { COMMANDS } from ${src('commands/table.ts')};
const v8 = process.getBuiltinModule('node:v8');
void (async () => {
  await COMMANDS.find((c) => c.name === 'teams')!.command!();
  await Promise.all([import(${src('stub/index.ts')}), import(${src('config/read.ts')}), import(${src('config/resolve.ts')}), import(${src('config/mask.ts')}), import(${src('config/paths.ts')})]);
})();
v8.startupSnapshot.setDeserializeMainFunction(() => {
  if (process.argv[1] === 'nothing') return;
  v8.setFlagsFromString('--liftoff-only');
  void runMain(process.argv.slice(1));
});
`,
);
const bundle = join(tmp, 'jobfit.cjs');
await build({
  ...common,
  entryPoints: [join(tmp, 'entry.ts')],
  outfile: bundle,
  outdir: undefined,
  splitting: false,
  format: 'cjs',
  // node:http and node:https are required on first use, not as a module loads.
  plugins: bundlePlugins(/^(node:)?https?$/),
  // The files the code finds beside itself (the stub's seed, better-sqlite3) are the checkout's.
  define: { ...common.define, 'import.meta.url': JSON.stringify(pathToFileURL(join(root, 'dist/main.js')).href) },
  banner: {},
  chunkNames: undefined,
});
const blob = join(tmp, 'jobfit.blob');
const made = spawnSync(process.execPath, ['--snapshot-blob', blob, '--build-snapshot', bundle], { cwd: tmp, encoding: 'utf8' });
if (made.status !== 0) throw new Error(`--build-snapshot failed (${made.status}):\n${made.stderr}`);
const blobMb = (statSync(blob).size / 1e6).toFixed(1);
// The cost of any user snapshot: one that holds node's own state and nothing of ours.
const emptyBlob = join(tmp, 'empty.blob');
writeFileSync(join(tmp, 'empty.cjs'), "require('node:v8').startupSnapshot.setDeserializeMainFunction(() => {});\n");
execFileSync(process.execPath, ['--snapshot-blob', emptyBlob, '--build-snapshot', join(tmp, 'empty.cjs')], { cwd: tmp });

const env = { ...process.env, HOME: join(tmp, 'home'), JOBFIT_CONFIG_DIR: join(tmp, 'config'), XDG_CACHE_HOME: join(tmp, 'cache'), XDG_DATA_HOME: join(tmp, 'data'), NO_COLOR: '1' };
delete env.JOBFIT_BASE_URL;
delete env.JOBFIT_API_KEY;
delete env.JOBFIT_PROFILE;
const CASES = [
  { name: 'node -e 0', argv: ['-e', '0'] },
  { name: 'an empty snapshot (node\'s own state only)', argv: ['--snapshot-blob', emptyBlob] },
  { name: 'snapshot of the CLI, deserialised only', argv: ['--snapshot-blob', blob, 'nothing'] },
  { name: 'jobfit teams -o json (embedded), from the snapshot', argv: ['--snapshot-blob', blob, 'teams', '-o', 'json'] },
  { name: 'jobfit teams -o json (embedded), from dist/', argv: [join(root, 'bin/jobfit.js'), 'teams', '-o', 'json'] },
];
function once(c) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, c.argv, { env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${c.name} exited ${r.status}: ${r.stderr}`);
  if (c.argv.includes('teams') && !JSON.parse(r.stdout).data?.length) throw new Error(`${c.name} printed no teams`);
  return ms;
}
const times = CASES.map(() => []);
try {
  for (let i = 0; i < WARMUP; i++) CASES.forEach((c) => once(c));
  for (let i = 0; i < RUNS; i++) CASES.forEach((c, k) => times[k].push(once(c)));
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(times[0]);
console.log(`node ${process.version}, ${RUNS} interleaved runs each (${WARMUP} warm-up rounds), medians; the snapshot is ${blobMb} MB`);
console.log('| command | median | × node -e 0 |\n|---|---:|---:|');
CASES.forEach((c, k) => console.log(`| ${c.name} | ${median(times[k]).toFixed(1)} ms | ${(median(times[k]) / base).toFixed(2)} |`));
