/**
 * The standalone executable (`npm run package`: a Node single executable
 * application, scripts/package.mjs). There, `require` finds only Node's
 * built-ins and no file of the package is beside the program: every file
 * jobfit reads (the stub's seed, the root help, the keyring addon) is a SEA
 * asset, read through node:sea. Anywhere else (the npm install, tests from
 * source) these answer "not standalone" and callers read the package's files.
 */
type Sea = typeof import('node:sea');

let sea: Sea | null | undefined;

/** node:sea when this process is a standalone executable, else null. */
function seaModule(): Sea | null {
  if (sea === undefined) {
    const m = process.getBuiltinModule('node:sea') as Sea | undefined;
    sea = m?.isSea() ? m : null;
  }
  return sea;
}

export function isStandalone(): boolean {
  return seaModule() !== null;
}

/** An asset's text (the package's file at the same relative path, e.g. `stub/seed.json`, dist/stub/seed.json in the package); undefined when not standalone. */
export function assetText(name: string): string | undefined {
  return seaModule()?.getAsset(name, 'utf8');
}

/**
 * The keyring addon of this platform (asset `keyring.node`, its SHA-256 in
 * `keyring.node.sha256`, both written by the build), loaded with
 * process.dlopen from a private copy: a fresh folder only this user can
 * enter, the file written new (never through something already there), and
 * its bytes hashed again after writing, right before loading. The folder is
 * removed once loaded (Windows keeps a loaded DLL: there it stays in the
 * user's own temporary folder until a run an hour later removes it).
 */
export function loadAddonAsset(name: string): unknown {
  const s = seaModule();
  if (!s) throw new Error('not a standalone executable');
  // Node's modules as they are, when needed: the seed's reader imports this file on every embedded command.
  const { createHash } = process.getBuiltinModule('node:crypto');
  const fs = process.getBuiltinModule('node:fs');
  const { join } = process.getBuiltinModule('node:path');
  const tmp = process.getBuiltinModule('node:os').tmpdir();
  const bytes = Buffer.from(s.getRawAsset(name));
  const expected = s.getAsset(`${name}.sha256`, 'utf8').trim();
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  if (sha(bytes) !== expected) throw new Error(`the ${name} inside this executable is damaged`);
  if (process.platform === 'win32') removeOldCopies(fs, join, tmp);
  const dir = fs.mkdtempSync(join(tmp, ADDON_DIR_PREFIX));
  try {
    fs.chmodSync(dir, 0o700);
    const file = join(dir, name);
    fs.writeFileSync(file, bytes, { mode: 0o600, flag: 'wx' });
    if (sha(fs.readFileSync(file)) !== expected) throw new Error(`the copy of ${name} in ${dir} changed before it was loaded`);
    const m = { exports: {} as unknown };
    process.dlopen(m, file);
    return m.exports;
  } finally {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // Windows: the loaded DLL cannot be removed while this process runs.
    }
  }
}

const ADDON_DIR_PREFIX = 'jobfit-addon-';

/** Windows: the copies earlier runs could not remove (their DLL was loaded), once an hour old (a run in progress keeps its own). */
function removeOldCopies(fs: typeof import('node:fs'), join: (...p: string[]) => string, tmp: string): void {
  try {
    for (const name of fs.readdirSync(tmp)) {
      if (!name.startsWith(ADDON_DIR_PREFIX)) continue;
      const at = join(tmp, name);
      try {
        if (Date.now() - fs.statSync(at).mtimeMs > 3600_000) fs.rmSync(at, { recursive: true, force: true });
      } catch {
        // In use, or not ours.
      }
    }
  } catch {
    // No listing of the temporary folder: nothing to clean.
  }
}
