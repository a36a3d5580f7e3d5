/**
 * The real Context of a command run (commands/kit/context.ts): the process's
 * streams and global options, the config store, the prompter, and the one
 * client, created on first use from the resolved connection (the embedded
 * stub when nothing is configured), which shows the mode line once.
 */
import type { JobfitClient } from '../client/client.js';
import type { HttpClientOptions } from '../client/http.js';
import type { ConfigStore } from '../config/store.js';
import type { Resolution } from '../config/resolve.js';
import type { ConnectionInfo, Context } from '../commands/kit/context.js';
import type { GlobalOptions, Prompter } from '../core/session.js';
import type { IOStreams } from '../core/io.js';
import { AuthError, UsageError } from '../core/errors.js';
import { forPerson } from '../format/person-text.js';
import { announceMode } from '../commands/kit/mode-line.js';
import { Command } from 'commander';
import { wireEntry } from '../commands/kit/wire.js';
import { COMMANDS } from '../commands/table.js';
import { baselineWasmOnly } from '../core/wasm.js';
// The connection's modules, in the core chunk every command loads (scripts/core-chunk.mjs).
import { hideUrlPasswords, maskKey, modeOfKey } from '../config/mask.js';
import { stubDataDir } from '../config/paths.js';
import { readConfigView } from '../config/read.js';
import { resolveConnection } from '../config/resolve.js';
import { isLoopbackHost } from '../core/loopback.js';
import { clientForConnection as createClient } from '../client/create.js';
import { openEmbeddedStub } from '../stub/embedded.js';

export const EMBEDDED_NOTICE =
  'Using the embedded local stub (no service configured; run `jobfit login` to use the real service).';

/** What the embedded stub module gives us (src/stub/embedded.ts, openEmbeddedStub). */
export interface StubHandle {
  url: string;
  keys: Array<{ account_id: number; display_name: string; live_key: string; test_key: string }>;
  /** How the client reaches it: in this process (the real one); a stand-in may listen on a port instead. */
  dispatcher?: HttpClientOptions['dispatcher'];
  close(): Promise<void>;
}
export type StartStub = (opts: { dataDir: string }) => Promise<StubHandle>;

/** Seams for tests; main() passes none. */
export interface ContextDeps {
  startStub?: StartStub;
  /** Extra client options (sleep, retry, timeouts, dispatcher). */
  clientOptions?: Partial<HttpClientOptions>;
  /** A prompter that answers from a script (tests); else the real one on a terminal. */
  prompter?: Prompter;
}

/**
 * A profile's key kept in the OS keyring (at most 3 s). Each way it can fail is
 * an AuthError saying which and what to do: a keyring that did not answer or
 * could not be read (the key may be there), no entry (removed), or an entry
 * holding another key than the one login stored (written by another login).
 */
async function keyFromKeyring(env: Record<string, string | undefined>, ref: { profile: string; mode: 'live' | 'test'; masked: string }): Promise<string> {
  const { readKeyringKey, keyringEntryText, KEYRING_TIMEOUT_MS } = await import('../config/keyring.js');
  const got = await readKeyringKey(env, ref.profile, ref.mode);
  const what = `The ${ref.mode} key of profile "${ref.profile}" (${ref.masked})`;
  const entry = keyringEntryText(env, ref.profile, ref.mode);
  const again = `run \`jobfit login --profile ${ref.profile}\` again (add --insecure-storage to keep the key in the config file), or set JOBFIT_API_KEY`;
  if (!got.ok) {
    const why = got.silent ? `did not answer within ${KEYRING_TIMEOUT_MS / 1000} s` : `could not be read (${got.reason})`;
    throw new AuthError(`${what} is kept in the ${entry}, which ${why}; the key may still be there.`, `unlock the keyring (or answer its prompt) and run the command again; else ${again}`);
  }
  if (!got.value) throw new AuthError(`${what} is no longer in the ${entry}: the keyring answered that it has no such entry.`, again);
  if (maskKey(got.value) !== ref.masked) {
    throw new AuthError(`The ${entry} holds another key (${maskKey(got.value)}) than the one login stored for profile "${ref.profile}" (${ref.masked}), so it is not used.`, again);
  }
  return got.value;
}

/** What makeClient resolves before it builds the client: where, with which key, and what the mode line says. */
interface Target {
  baseUrl: string;
  /** The embedded stub's, answering in this process. */
  dispatcher?: HttpClientOptions['dispatcher'];
  apiKey?: string;
  connection: ConnectionInfo;
}

/** What the connection steps share with the Context: its streams, options, seams, closers and notices. */
interface Steps {
  io: IOStreams;
  globals: GlobalOptions;
  deps: ContextDeps;
  closers: Array<() => Promise<void>>;
  info(m: string): void;
  /** The connection as flags, environment and config say (read once per command). */
  resolve(): Promise<Resolution>;
  /** Told the connection as soon as it is known (before the client is built). */
  resolved(c: ConnectionInfo): void;
}

/** The embedded stub, opened for this command in this process; its first account's key in the mode asked for. */
async function startEmbedded(s: Steps, resolution: { mode?: 'live' | 'test'; profileName?: string }): Promise<Target> {
  const startStub: StartStub = s.deps.startStub ?? openEmbeddedStub;
  // Its URLs use the origin of a `stub serve` on the same data (else :4010), so the links it hands out can be opened there.
  const stub = await startStub({ dataDir: stubDataDir(s.io.env) });
  s.closers.push(() => stub.close());
  const account = stub.keys[0];
  if (!account) throw new UsageError('The embedded stub has no seeded account.', 'run `jobfit stub reset`');
  // Live by default so its state is kept between runs; nothing leaves this machine.
  const mode = resolution.mode ?? 'live';
  const apiKey = mode === 'test' ? account.test_key : account.live_key;
  s.info(EMBEDDED_NOTICE);
  return {
    baseUrl: stub.url,
    dispatcher: stub.dispatcher,
    apiKey,
    connection: { baseUrl: stub.url, mode, maskedKey: maskKey(apiKey), source: 'embedded-stub', embedded: true, profileName: resolution.profileName, account: `${account.display_name} (${account.account_id})` },
  };
}

/** A live key is refused over plain http (HttpClient); a test key is let through, as test servers often lack TLS, but not without a word. */
function warnPlainHttp(io: IOStreams, baseUrl: string, apiKey: string | undefined): void {
  if (!apiKey || modeOfKey(apiKey) !== 'test' || !URL.canParse(baseUrl)) return;
  const u = new URL(baseUrl);
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) {
    io.stderr.write(`Warning: ${forPerson(`the test key goes over plain http:// to ${u.host}: anyone on the network between can read it and the answers (use https://).`)}\n`);
  }
}

/** Resolves the connection (the embedded stub when nothing is configured) and builds the one client of the command. */
async function makeClient(s: Steps): Promise<JobfitClient> {
  const { io, globals } = s;
  // A config another user owns or others can write is refused here (read.ts), before any key is sent.
  const resolution = await s.resolve();
  let target: Target;
  if (resolution.embedded) {
    target = await startEmbedded(s, resolution);
  } else {
    // The chunks a request loads are compiled before the flag is set: a chunk's code cache is made with the
    // flags of the start (core/wasm.ts), and one compiled under the flag would be refused, and written, every run.
    await import('../client/undici-agents.js');
    baselineWasmOnly();
    const apiKey = resolution.keyring ? await keyFromKeyring(io.env, resolution.keyring) : resolution.apiKey;
    target = {
      baseUrl: resolution.baseUrl,
      apiKey,
      connection: {
        // Safe to print: a password in the URL never is.
        baseUrl: hideUrlPasswords(resolution.baseUrl),
        mode: resolution.mode,
        maskedKey: maskKey(apiKey),
        source: resolution.source,
        profileName: resolution.profileName,
        embedded: false,
        keyInKeyring: resolution.keyring !== undefined,
      },
    };
  }
  s.resolved(target.connection);
  warnPlainHttp(io, target.baseUrl, target.apiKey);
  // JOBFIT_TIMEOUT, JOBFIT_MAX_RETRIES and JOBFIT_BREAKER_SECONDS are read by the factory, for every client alike.
  const client = createClient({
    baseUrl: target.baseUrl,
    dispatcher: target.dispatcher,
    apiKey: target.apiKey,
    env: io.env,
    signal: io.signal,
    trace: globals.verbose ? (line) => io.stderr.write(`${forPerson(line)}\n`) : undefined,
    verbose: globals.verbose,
    ...s.deps.clientOptions,
  });
  s.closers.unshift(() => client.close());
  return client;
}

/** Which service, key and profile flags, environment and config name; nothing is connected to. */
async function resolveFromConfig(io: IOStreams, globals: GlobalOptions): Promise<Resolution> {
  return resolveConnection({ globals, env: io.env, config: readConfigView(io.env) });
}

export function createContext(io: IOStreams, globals: GlobalOptions, deps: ContextDeps = {}): Context {
  let configP: Promise<ConfigStore> | undefined;
  let resolutionP: Promise<Resolution> | undefined;
  const resolve = () => (resolutionP ??= resolveFromConfig(io, globals));
  let clientP: Promise<JobfitClient> | undefined;
  let connection: ConnectionInfo | undefined;
  let announced = false;
  const closers: Array<() => Promise<void>> = [];

  // Notices, warnings and traces quote the service, files and URLs: each line
  // passes the one sanitiser (and loses any URL password) on its way out.
  const info = (m: string) => {
    if (!globals.quiet) io.stderr.write(`${forPerson(m)}\n`);
  };

  const session: Context = {
    io,
    globals,
    async everyCommand() {
      const program = new Command('jobfit');
      const never = { context: (): Context => { throw new Error('a program for reading: its commands never run'); } };
      for (const entry of COMMANDS) await wireEntry(program, entry, never);
      return program;
    },
    info,
    warn: (m) => {
      io.stderr.write(`Warning: ${forPerson(m)}\n`);
    },
    debug: (m) => {
      if (globals.verbose) io.stderr.write(`${forPerson(m)}\n`);
    },
    config() {
      configP ??= import('../config/store.js').then(({ ConfigStore }) => new ConfigStore({ env: io.env }));
      return configP;
    },
    async client(opts: { announce?: boolean } = {}) {
      clientP ??= makeClient({ io, globals, deps, closers, info, resolve, resolved: (c) => (connection = c) });
      const client = await clientP;
      if (opts.announce !== false && !announced && connection) {
        announced = true;
        announceMode(session, connection);
      }
      return client;
    },
    async prompter() {
      if (deps.prompter) return deps.prompter;
      const { createPrompter } = await import('../core/prompter.js');
      return createPrompter(io);
    },
    async profileName() {
      return (await resolve()).profileName;
    },
    get connection() {
      return connection;
    },
    async close() {
      const fns = closers.splice(0);
      for (const fn of fns) {
        try {
          await fn();
        } catch {
          // Closing is best effort: the command's own result matters more.
        }
      }
    },
  };
  return session;
}
