import type { Context, GlobalOptions, IOStreams } from './context.js';

export function createContext(io: IOStreams, globals: GlobalOptions): Context {
  return {
    io,
    globals,
    info: (m) => {
      if (!globals.quiet) io.stderr.write(`${m}\n`);
    },
    warn: (m) => {
      io.stderr.write(`Warning: ${m}\n`);
    },
    debug: (m) => {
      if (globals.verbose) io.stderr.write(`${m}\n`);
    },
  };
}
