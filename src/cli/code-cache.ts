/**
 * V8's code cache of the CLI's chunks, made after they ran. Node's own
 * compile cache (module.enableCompileCache) stores a module's code as
 * compiled before it runs: only its top level. Every function a
 * command then calls (zod's schema set-up, commander, undici) is compiled
 * again on every run. A cache made at exit holds those too: `jobfit teams`
 * spends about 12 ms less of the main thread's time (docs/performance.md).
 *
 * Only the chunks of this build (dist/chunks, CommonJS) go through here, with
 * one file per chunk in the user's own cache folder, keyed by the CPU
 * architecture and V8's version (a file V8 refuses, made under other flags
 * or for another CPU, is written again), the install (where its
 * chunks are: a global install and a project's keep a folder each, instead of
 * each dropping the other's files as stale at every run) and the chunk's name
 * (its content hash) and length. A file is written once, at exit, when there
 * was none or V8 refused it; a missing or unwritable folder only means no
 * cache. The folder of an install not run for 30 days goes when another
 * writes.
 */

interface CompilingModule {
  exports: unknown;
}
type Compile = (this: CompilingModule, content: string, filename: string, ...rest: unknown[]) => unknown;

/**
 * Both caches, in the user's own cache folder (XDG_CACHE_HOME, else
 * ~/.cache): node's compile cache for what is not a chunk of ours (the
 * packages loaded from node_modules, such as exceljs), left to node when
 * NODE_COMPILE_CACHE names a folder, and the code cache of our chunks. Each
 * only in folders of this user's that no one else can write (a shared
 * XDG_CACHE_HOME, another user's folder: no cache). With
 * NODE_DISABLE_COMPILE_CACHE set, neither. Never stops a run.
 */
export function startCodeCaches(chunksDir: string): void {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return;
  const { join } = process.getBuiltinModule('node:path');
  const base = join(process.env.XDG_CACHE_HOME || join(process.getBuiltinModule('node:os').homedir(), '.cache'), 'jobfit');
  const module = process.getBuiltinModule('node:module');
  if (!process.env.NODE_COMPILE_CACHE) {
    const dir = join(base, 'compile-cache');
    try {
      // Compiled code is code: node would run what another user planted in a folder they can write.
      fs().mkdirSync(dir, { recursive: true, mode: 0o700 });
      if ([base, dir].every(ownFolder)) module.enableCompileCache(dir);
    } catch {
      // No cache folder (read-only HOME): start without it.
    }
  }
  cacheChunkCode(chunksDir, join(base, 'code-cache'));
}

const fs = () => process.getBuiltinModule('node:fs');

/**
 * The rule of core/files.ts trustProblem, for one stat (importing it would make --version load a chunk): this
 * user's, and no one else can write it. Where there are no user ids (Windows), the folder under the user's profile.
 */
function ownedByUser(st: import('node:fs').Stats): boolean {
  const uid = process.getuid?.();
  return uid === undefined || (st.uid === uid && (st.mode & 0o022) === 0);
}

/** A real folder (not a link) of this user's that no one else can write. */
function ownFolder(dir: string): boolean {
  const st = fs().lstatSync(dir, { throwIfNoEntry: false });
  return st !== undefined && st.isDirectory() && ownedByUser(st);
}

/** An install's folder name: FNV-1a of where its chunks are (a name, not a secret: the folders are checked as this user's own). */
function installKey(chunksDir: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < chunksDir.length; i++) h = Math.imul(h ^ chunksDir.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** An install's folder not written for this long goes when another install writes. */
const UNUSED_INSTALL_MS = 30 * 24 * 3600 * 1000;

function cacheChunkCode(chunksDir: string, cacheDir: string): void {
  const { Module, createRequire } = process.getBuiltinModule('node:module');
  const vm = process.getBuiltinModule('node:vm');
  const fs = process.getBuiltinModule('node:fs');
  const path = process.getBuiltinModule('node:path');
  const proto = Module.prototype as unknown as { _compile: Compile };
  const original = proto._compile;
  const made: Array<{ file: string; script: import('node:vm').Script }> = [];
  let dir: string | undefined;
  let usable = false;
  let requireOfChunks: NodeJS.Require | undefined;
  const ours = ownedByUser;

  proto._compile = function (content, filename, ...rest) {
    if (!filename.startsWith(chunksDir)) return original.call(this, content, filename, ...rest);
    if (dir === undefined) {
      // Not V8's own tag (node:v8, and with it node's stream modules: ~2 ms of an offline command). A cache that
      // V8 refuses all the same (other flags, another CPU behind the same home folder) is written again.
      const node = path.join(cacheDir, `${process.arch}-${process.versions.v8.replace(/[^\w.-]/g, '_')}`);
      dir = path.join(node, installKey(chunksDir));
      // A folder that is not this user's own (XDG_CACHE_HOME in a shared place) is not used at all.
      usable = [node, dir].every((d) => {
        const st = fs.lstatSync(d, { throwIfNoEntry: false });
        return !st || (st.isDirectory() && ours(st));
      });
    }
    if (!usable) return original.call(this, content, filename, ...rest);
    const file = path.join(dir, `${path.basename(filename)}-${content.length}`);
    let cachedData: Buffer | undefined;
    try {
      // Compiled code is code: only a file of this user's that nobody else can write is read.
      const st = fs.statSync(file);
      if (ours(st)) cachedData = fs.readFileSync(file);
    } catch {
      // None yet.
    }
    const script = new vm.Script((Module as unknown as { wrap(s: string): string }).wrap(content), {
      filename,
      cachedData,
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    if (cachedData === undefined || script.cachedDataRejected) made.push({ file, script });
    const wrapper = script.runInThisContext() as (exports: unknown, require: unknown, module: unknown, filename: string, dirname: string) => unknown;
    // One require for every chunk: they share a folder, so each resolves alike (createRequire builds a module each
    // call). Node's own, with its search: a require of our own that skipped it (Module._cache, new Module, load)
    // saved nothing measurable once the core became one chunk, six files for an embedded `teams` (docs/performance.md).
    requireOfChunks ??= createRequire(filename);
    return wrapper.call(this.exports, this.exports, requireOfChunks, this, filename, path.dirname(filename));
  };

  process.once('exit', () => {
    if (made.length === 0 || dir === undefined || !usable) return;
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      // The files of chunks an earlier build of this install had (an upgrade) go.
      const current = new Set(fs.readdirSync(chunksDir));
      for (const name of fs.readdirSync(dir)) if (!name.endsWith('.tmp') && !current.has(name.replace(/-\d+$/, ''))) fs.rmSync(path.join(dir, name), { force: true });
    } catch {
      return; // No folder to write in.
    }
    for (const { file, script } of made) {
      const part = `${file}.${process.pid}.tmp`;
      try {
        // A new file or none: nothing already there (a planted link) is written through.
        fs.writeFileSync(part, script.createCachedData(), { mode: 0o600, flag: 'wx' });
        fs.renameSync(part, file);
      } catch {
        // A read-only or full cache folder, or something at the temporary name: the next run compiles as this one did.
        try {
          fs.rmSync(part, { force: true });
        } catch {
          // Nothing to remove, or no right to.
        }
      }
    }
    try {
      pruneOtherInstalls(fs, path.join, path.dirname(dir), path.basename(dir));
    } catch {
      // Another user's folder, or one in use: left.
    }
  });
}

/** Beside an install's folder: the folders of installs not written for UNUSED_INSTALL_MS, and files of the one-folder layout before installs had their own. */
function pruneOtherInstalls(fs: typeof import('node:fs'), join: (...parts: string[]) => string, parent: string, own: string): void {
  const now = Date.now();
  for (const name of fs.readdirSync(parent)) {
    if (name === own) continue;
    const at = join(parent, name);
    const st = fs.lstatSync(at, { throwIfNoEntry: false });
    if (st?.isFile() || (st?.isDirectory() && now - st.mtimeMs > UNUSED_INSTALL_MS)) fs.rmSync(at, { recursive: true, force: true });
  }
}
