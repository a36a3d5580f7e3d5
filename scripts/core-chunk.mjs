// The CLI's core as one chunk (scripts/build.mjs). esbuild splits a bundle by
// the set of entry points that reach each module, and every import() is an
// entry point: with 100 of them (each command, each cold feature), what every
// command needs came out as ~60 chunks of a few KB, reached by slightly
// different sets of entries (the csv writer reaches format/field-paths.ts but not
// commands/kit/define.ts), and an embedded `teams` loaded 71 files, ~175 µs
// each (docs/performance.md, "Start-up (issue 41)").
//
// Here every lazily loaded module of ours also imports the core (appended, so
// its line numbers stay): every entry point then reaches every core module,
// which makes them one set, so one chunk, loaded with src/cli/main.ts (itself
// lazy: `--version` loads no chunk). A lazy module loads the core first, which
// has always run by then. What is not in the core keeps its own chunks and
// stays out of the commands that do not use it.
//
// Only esbuild's documented API: a first build with `metafile` gives the
// module graph; plugins (onResolve, onLoad) add the import in the second; its
// metafile checks that the core is one chunk.
import { readFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';

/**
 * The core: these modules and every module they import statically (of
 * src/cli/main.ts, itself loaded by import(), what it imports). What an
 * offline or served listing command runs: the command kit and its output
 * writers (json, text), the connection (config, the client, the embedded stub
 * with its route table and what the routes share). A command's own module, a
 * route's handlers, the schemas of one resource and the cold features (csv,
 * xlsx and html writers, bulk, sync, reports, prompts, mcp, the stub's server)
 * stay lazy.
 */
export const CORE_ROOTS = ['src/cli/main.ts', 'src/cli/create-context.ts', 'src/commands/shared/simple-list.ts', 'src/stub/routes/call.ts', 'src/api/schemas/envelope.ts'];

const CORE = 'jobfit:core';

/** Static imports (module -> modules) and the dynamic import targets (the entry points besides the build's own), from a metafile. */
function graphOf(metafile) {
  const statics = new Map();
  const lazy = new Map();
  for (const [file, input] of Object.entries(metafile.inputs)) {
    statics.set(file, input.imports.filter((i) => !i.external && i.kind !== 'dynamic-import').map((i) => i.path));
    for (const i of input.imports) if (!i.external && i.kind === 'dynamic-import') lazy.set(i.path, [...(lazy.get(i.path) ?? []), file]);
  }
  return { statics, lazy };
}

function closureOf(statics, roots) {
  const seen = new Set();
  const stack = [...roots];
  while (stack.length > 0) {
    const file = stack.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    stack.push(...(statics.get(file) ?? []));
  }
  return seen;
}

/**
 * From the metafile of a build without it: the plugin that makes the core one
 * chunk. A core module loaded by import() would be an entry point reaching
 * only part of the core and split it again: a build error (it is loaded with
 * every command anyway, so a static import costs nothing).
 */
export function coreChunk(metafile, { root, entry }) {
  const { statics, lazy } = graphOf(metafile);
  for (const r of CORE_ROOTS) if (!statics.has(r)) throw new Error(`scripts/core-chunk.mjs: ${r} is not in the bundle`);
  // A root loaded by import() stays an entry point of its own, importing the core like the others: its imports are the core's.
  // (Files only: a built-in's stand-in, in a namespace of its own, comes with the modules that use it.)
  const roots = CORE_ROOTS.flatMap((r) => (lazy.has(r) ? statics.get(r) : [r])).filter((file) => !/^[\w-]+:/.test(file));
  const core = closureOf(statics, roots);
  const early = closureOf(statics, [entry]);
  const misplaced = [...lazy].filter(([file]) => core.has(file)).map(([file, by]) => `${[...new Set(by)].join(', ')} import()s ${file}`);
  if (misplaced.length > 0) throw new Error(`core modules loaded by import() (scripts/core-chunk.mjs; import them statically):\n  ${misplaced.join('\n  ')}`);
  // The entry points besides the build's own: ours, and the ES modules of packages (a CommonJS one cannot take an import).
  const lazyEntries = [...lazy.keys()].filter((file) => !early.has(file) && (file.startsWith('src/') || metafile.inputs[file].format === 'esm'));
  const withCore = new Set(lazyEntries.map((file) => resolve(root, file)));
  const plugin = {
    name: 'core-chunk',
    setup(b) {
      b.onResolve({ filter: /^jobfit:core$/ }, () => ({ path: CORE, namespace: 'core-chunk' }));
      b.onLoad({ filter: /.*/, namespace: 'core-chunk' }, () => ({
        contents: roots.map((r) => `import ${JSON.stringify(resolve(root, r))};`).join('\n'),
        resolveDir: root,
        loader: 'js',
      }));
      b.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
        if (!withCore.has(args.path)) return undefined;
        const contents = `${readFileSync(args.path, 'utf8')}\nimport ${JSON.stringify(CORE)};\n`;
        return { contents, resolveDir: dirname(args.path), loader: extname(args.path) === '.ts' ? 'ts' : 'js' };
      });
    },
  };
  return { plugin, core };
}

/** The check after the build: every core module that is in the output is in one chunk. */
export function checkCoreChunk(metafile, core) {
  const chunks = Object.entries(metafile.outputs)
    .filter(([, out]) => Object.keys(out.inputs).some((file) => core.has(file) && file.startsWith('src/')))
    .map(([name, out]) => `${name} (${Object.keys(out.inputs).filter((file) => core.has(file)).slice(0, 3).join(', ')}…)`);
  if (chunks.length !== 1) throw new Error(`the core is in ${chunks.length} chunks, not one (scripts/core-chunk.mjs):\n  ${chunks.join('\n  ')}`);
}
