// `npm run package`: one standalone executable per platform (scripts/package/
// targets.mjs), built on this machine with Node's own `--build-sea` from the
// official Node build of each platform (fetched from the npm registry, cached),
// into release/ (git-ignored):
//
//   release/jobfit-<version>-<platform>/jobfit[.exe]   the executable
//   release/jobfit-<version>-<platform>.tar.gz | .zip  what a person downloads
//   release/SHA256SUMS                                 every file above
//   release/manifests/                                 Homebrew, Scoop, winget
//
// `--only linux-x64,win-x64` builds those alone. Run after `npm run build`
// (the root help it renders is an asset); `npm run package` does both.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fetchPackage } from './package/fetch.mjs';
import { manifests } from './package/manifests.mjs';
import { zipOneFile } from './package/zip.mjs';
import { buildExecutable, bundleMain, writeMain } from './package/sea.mjs';
import { hostTarget, NODE_VERSION, TARGETS } from './package/targets.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const RELEASE = join(ROOT, 'release');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const version = pkg.version;
const keyringVersion = JSON.parse(readFileSync(join(ROOT, 'node_modules/@napi-rs/keyring/package.json'), 'utf8')).version;

const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
function commitOf() {
  try {
    const changed = git('status', '--porcelain', '--untracked-files=no') !== '';
    return `${git('rev-parse', '--short=12', 'HEAD')}${changed ? '+changes' : ''}`;
  } catch {
    return 'unknown';
  }
}
/** Archive entries' time: the commit's, so the same commit packs the same bytes. */
function commitTime() {
  try {
    return Number(git('log', '-1', '--format=%ct'));
  } catch {
    return 0;
  }
}

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1].split(',') : undefined;
const targets = only ? TARGETS.filter((t) => only.includes(t.id)) : TARGETS;
if (only && targets.length !== only.length) throw new Error(`--only: unknown platform among ${only.join(', ')} (known: ${TARGETS.map((t) => t.id).join(', ')})`);
const host = hostTarget();
if (!host) throw new Error(`npm run package builds on ${TARGETS.map((t) => t.id).join(', ')}; this is ${process.platform}-${process.arch}`);
if (!existsSync(join(ROOT, 'dist/root-help.txt'))) throw new Error('dist/root-help.txt is missing: run `npm run build` first (npm run package does)');

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;

/** `<name>.tar.gz` (Unix) or `<name>.zip` (Windows) holding the executable alone, mode 755. */
function archive(target, exeFile, name) {
  const exeName = exeFile.split(/[\\/]/).pop();
  if (target.os === 'win32') {
    const file = join(RELEASE, `${name}.zip`);
    writeFileSync(file, zipOneFile(exeName, readFileSync(exeFile), commitTime()));
    return file;
  }
  const tar = execFileSync('tar', ['--sort=name', '--owner=0', '--group=0', '--numeric-owner', `--mtime=@${commitTime()}`, '-cf', '-', '-C', dirname(exeFile), exeName], { maxBuffer: 1 << 30 });
  const file = join(RELEASE, `${name}.tar.gz`);
  writeFileSync(file, gzipSync(tar));
  return file;
}

const started = Date.now();
rmSync(RELEASE, { recursive: true, force: true });
mkdirSync(RELEASE, { recursive: true });
const work = join(ROOT, '.tmp', 'sea');
mkdirSync(work, { recursive: true });
const commit = commitOf();
const bundle = join(work, 'jobfit.js');
const packages = await bundleMain(bundle, { version });
const main = join(work, 'main.cjs');
writeMain(main, { version, commit });
const builder = join(fetchPackage(host.node, NODE_VERSION), host.exe);

const rows = [];
const archives = {};
for (const target of targets) {
  const t0 = Date.now();
  const name = `jobfit-${version}-${target.id}`;
  const output = join(RELEASE, name, target.os === 'win32' ? 'jobfit.exe' : 'jobfit');
  mkdirSync(dirname(output), { recursive: true });
  buildExecutable({
    builder,
    target,
    nodeDir: fetchPackage(target.node, NODE_VERSION),
    keyringDir: fetchPackage(target.keyring, keyringVersion),
    main,
    bundle,
    packages,
    work: join(work, target.id),
    output,
    codeCache: target === host,
  });
  const packed = archive(target, output, name);
  const packedSha = sha256(readFileSync(packed));
  archives[target.id] = { name: relative(RELEASE, packed), sha256: packedSha };
  rows.push({ target: target.id, exe: output, size: statSync(output).size, packed, packedSize: statSync(packed).size, seconds: (Date.now() - t0) / 1000 });
}

const sums = rows.flatMap((r) => [r.exe, r.packed]).map((f) => `${sha256(readFileSync(f))}  ${relative(RELEASE, f).split('\\').join('/')}`);
writeFileSync(join(RELEASE, 'SHA256SUMS'), `${sums.join('\n')}\n`);
for (const [path, text] of Object.entries(manifests(version, archives))) {
  mkdirSync(dirname(join(RELEASE, 'manifests', path)), { recursive: true });
  writeFileSync(join(RELEASE, 'manifests', path), text);
}

console.log(`jobfit ${version} (commit ${commit}), Node ${NODE_VERSION}, in ${((Date.now() - started) / 1000).toFixed(0)} s:`);
for (const r of rows) console.log(`  ${r.target.padEnd(12)} ${relative(ROOT, r.exe).padEnd(44)} ${mb(r.size).padStart(9)}   ${relative(ROOT, r.packed).padEnd(38)} ${mb(r.packedSize).padStart(8)}   (${r.seconds.toFixed(0)} s)`);
console.log('  release/SHA256SUMS, release/manifests/');
