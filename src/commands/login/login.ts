/**
 * login: connect a profile to the service. On a terminal it asks for the
 * profile name, base URL and the two keys (typed masked) and checks each key
 * with GET /accounts. Without a terminal it never prompts: the key comes from
 * JOBFIT_API_KEY or stdin, the base URL from --base-url, JOBFIT_BASE_URL or the
 * profile.
 */
import { ROUTES } from '../../api/routes.js';
import * as z from 'zod';
import { ApiError } from '../../client/errors.js';
import type { JobfitClient } from '../../client/client.js';
import { type ClientSettings, clientForConnection as createClient } from '../../client/create.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { flag } from '../kit/flags.js';
import { AuthError, JobfitError, ModeMismatchError, UsageError } from '../../core/errors.js';
import { forPerson } from '../../format/person-text.js';
import { noPromptReason } from '../../core/prompter.js';
import { normalizeBaseUrl } from '../../config/keys.js';
import { storedKey } from '../../config/resolve.js';
import { maskKey, modeOfKey } from '../../config/mask.js';
import type { KeyMode, Profile } from '../../config/types.js';
import { readInput } from '../../core/input.js';
import { baselineWasmOnly } from '../../core/wasm.js';

const LoginFlags = z.object({
  defaultMode: flag(z.enum(['live', 'test'], { error: 'must be live or test' }).optional(), {
    flag: '--default-mode <mode>',
    description: 'live or test: the key used without --live/--test',
  }),
  insecureStorage: flag(z.boolean().optional(), {
    flag: '--insecure-storage',
    description: 'keep the keys in the config file (owner-only) instead of the OS keyring',
  }),
});
/** The profile and the base URL are the global --profile and --base-url. */
export type LoginOptions = z.output<typeof LoginFlags> & { profile?: string; baseUrl?: string };

export interface AccountSummary {
  id: unknown;
  display_name: unknown;
  mode: unknown;
}

/**
 * A client for a server and key outside the resolved connection (the key is
 * checked before it is saved), from the one factory: JOBFIT_TIMEOUT,
 * JOBFIT_MAX_RETRIES and JOBFIT_BREAKER_SECONDS apply. The caller closes it.
 */
async function clientFor(ctx: Context, baseUrl: string, apiKey: string | undefined, defaults?: ClientSettings): Promise<JobfitClient> {
  baselineWasmOnly();
  return createClient({
    baseUrl,
    apiKey,
    env: ctx.io.env,
    signal: ctx.io.signal,
    defaults,
    trace: ctx.globals.verbose ? (line) => ctx.io.stderr.write(`${forPerson(line)}\n`) : undefined,
  });
}

/** Checks a key with GET /accounts; seam for tests. */
export type VerifyKey = (ctx: Context, baseUrl: string, key: string) => Promise<AccountSummary>;

export const verifyKey: VerifyKey = async (ctx, baseUrl, key) => {
  const mode = modeOfKey(key);
  const client = await clientFor(ctx, baseUrl, key);
  try {
    const account = (await client.getAccount()) as AccountSummary;
    if (account?.mode !== undefined && account.mode !== mode) {
      throw new ModeMismatchError(`The ${mode} key ${maskKey(key)} got an answer in ${String(account.mode)} mode from ${baseUrl}.`, 'check that the key and the base URL belong together');
    }
    return account;
  } catch (err) {
    if (err instanceof ApiError) {
      throw new AuthError(`The service at ${baseUrl} refused the ${mode} key ${maskKey(key)}: ${err.apiText}.`, 'check the key and the base URL');
    }
    throw err;
  } finally {
    await client.close();
  }
};

/** Stands for a key the keyring keeps and the person did not type again. */
const KEPT = '\u0000kept-in-keyring';

function describe(a: AccountSummary): string {
  return `account ${String(a.display_name)} (id ${String(a.id)})`;
}

/** What is wrong with a base URL, or undefined when its healthcheck answers as the v2 API. */
export type CheckBaseUrl = (ctx: Context, baseUrl: string) => Promise<{ problem: string; unreachable: boolean; suggestion?: string } | undefined>;

async function healthOf(ctx: Context, baseUrl: string): Promise<{ status?: number; version?: unknown; error?: string }> {
  // Quick by default; JOBFIT_TIMEOUT and JOBFIT_MAX_RETRIES still win.
  const client = await clientFor(ctx, baseUrl, undefined, { retry: { maxRetries: 1 }, timeouts: { headersMs: 10_000, bodyMs: 10_000 } });
  try {
    const res = await client.raw('GET', ROUTES.healthcheck.path);
    const data = res.data as { version?: unknown } | null;
    return { status: res.status, version: data && typeof data === 'object' ? data.version : undefined };
  } catch (err) {
    return { error: err instanceof Error ? err.message.replace(/\.$/, '') : String(err) };
  } finally {
    await client.close();
  }
}

/**
 * Checks the base URL before any key is sent to it: GET /healthcheck (no key)
 * must answer `version: v2`. A URL without `/v2` whose `/v2/healthcheck`
 * answers is named as the fix.
 */
export const checkBaseUrl: CheckBaseUrl = async (ctx, baseUrl) => {
  const h = await healthOf(ctx, baseUrl);
  if (h.status !== undefined && h.status >= 200 && h.status < 300 && h.version === 'v2') return undefined;
  if (h.error !== undefined) return { problem: `Nothing at ${baseUrl} answered: ${h.error}.`, unreachable: true };
  let suggestion: string | undefined;
  if (!/\/v2$/.test(baseUrl)) {
    const withV2 = `${baseUrl}/v2`;
    const again = await healthOf(ctx, withV2);
    if (again.version === 'v2') suggestion = withV2;
  }
  const got = h.status !== undefined && (h.status < 200 || h.status >= 300) ? `answered ${h.status}` : `answered without version: v2`;
  return {
    problem: `${baseUrl} is not the root of the v2 API: its /healthcheck ${got}${suggestion ? `; ${suggestion} is` : ''}.`,
    unreachable: false,
    suggestion,
  };
};

function validBaseUrl(v: string): true | string {
  try {
    normalizeBaseUrl(v);
    return true;
  } catch (err) {
    return (err as Error).message;
  }
}

export async function runLogin(opts: LoginOptions, ctx: Context, verify: VerifyKey = verifyKey, check: CheckBaseUrl = checkBaseUrl): Promise<void> {
  const envKey = ctx.io.env.JOBFIT_API_KEY?.trim();
  if (ctx.io.canPrompt && !envKey) await interactive(opts, ctx, verify, check);
  else await unattended(opts, ctx, verify, envKey, check);
}

/**
 * Saves the profile. Its keys (the ones given now, and any the file still holds
 * in plain text) go to the OS keyring, and the file keeps only their masked
 * form; when no keyring answers, or with --insecure-storage, they stay in the
 * owner-only file, and one warning says which file and why.
 */
async function save(ctx: Context, name: string, patch: Partial<Profile>, insecure: boolean | undefined): Promise<void> {
  const store = await ctx.config();
  const existing = store.getProfile(name) ?? {};
  const keys: Partial<Record<KeyMode, string>> = {};
  for (const mode of ['live', 'test'] as const) {
    const field = mode === 'live' ? 'live_key' : 'test_key';
    const key = patch[field] ?? existing[field];
    if (key) keys[mode] = key;
  }
  const placed = { ...patch, keyring: { ...(existing.keyring ?? {}) } };
  const inFile: KeyMode[] = [];
  let reason: string | undefined;
  if (!insecure) {
    const { writeKeyringKey } = await import('../../config/keyring.js');
    for (const mode of ['live', 'test'] as const) {
      const key = keys[mode];
      if (!key) continue;
      // Once one call has failed, the others would wait the same 3 seconds for the same answer.
      const put = reason === undefined ? await writeKeyringKey(ctx.io.env, name, mode, key) : { ok: false as const, reason };
      if (put.ok) {
        placed.keyring[mode] = maskKey(key);
        placed[mode === 'live' ? 'live_key' : 'test_key'] = undefined;
      } else {
        reason = put.reason;
        inFile.push(mode);
      }
    }
  }
  for (const mode of ['live', 'test'] as const) {
    // A key kept in the file now: no stale keyring marker beside it.
    if (keys[mode] && (insecure || inFile.includes(mode))) {
      placed[mode === 'live' ? 'live_key' : 'test_key'] = keys[mode];
      delete placed.keyring[mode];
    }
  }
  const saved = { ...placed, keyring: Object.keys(placed.keyring).length ? placed.keyring : undefined };
  // One locked read-modify-write: a `config set` or another login at the same moment is kept.
  store.updateProfile(name, saved, { makeCurrent: true });
  const kept = Object.keys(saved.keyring ?? {}).length ? ', its keys in the OS keyring' : '';
  ctx.info(`Saved profile "${name}" in ${store.path} (readable by you only)${kept}; it is now the current profile.`);
  if (reason !== undefined) {
    ctx.warn(`no OS keyring answered (${reason}), so the ${inFile.join(' and ')} key${inFile.length > 1 ? 's are' : ' is'} kept in ${store.path} (readable by you only).`);
  } else if (insecure && Object.keys(keys).length) {
    ctx.info('The keys are kept in the config file, as --insecure-storage asks.');
  }
}

async function unattended(opts: LoginOptions, ctx: Context, verify: VerifyKey, envKey: string | undefined, check: CheckBaseUrl): Promise<void> {
  let key = envKey;
  let from = 'JOBFIT_API_KEY';
  if (!key && !ctx.io.stdin.isTTY) {
    key = (await readInput(ctx.io, '-')).split(/\r?\n/).find((l) => l.trim())?.trim();
    from = 'stdin';
  }
  if (!key) {
    throw new UsageError(`No API key given and ${noPromptReason(ctx.io)}.`, 'pipe the key on stdin (`printf %s "$KEY" | jobfit login`) or set JOBFIT_API_KEY');
  }
  const mode = modeOfKey(key);
  if (!mode) throw new UsageError(`The key from ${from} (${maskKey(key)}) does not start with sk_live or sk_test.`);
  const store = await ctx.config();
  const name = opts.profile ?? (ctx.io.env.JOBFIT_PROFILE || undefined) ?? store.currentProfileName() ?? 'default';
  const existing = store.getProfile(name);
  const rawBase = opts.baseUrl ?? ctx.io.env.JOBFIT_BASE_URL ?? existing?.base_url;
  if (!rawBase) throw new UsageError('No base URL: give --base-url https://host/v2 (or set JOBFIT_BASE_URL).');
  const baseUrl = normalizeBaseUrl(rawBase);
  const wrong = await check(ctx, baseUrl);
  if (wrong) {
    const hint = wrong.suggestion ? `run it again with --base-url ${wrong.suggestion}` : 'give the base URL of the v2 API with --base-url (it ends in /v2)';
    if (wrong.unreachable) throw new JobfitError(wrong.problem, { hint });
    throw new UsageError(wrong.problem, hint);
  }
  const account = await verify(ctx, baseUrl, key);
  ctx.info(`The ${mode} key ${maskKey(key)} from ${from} belongs to ${describe(account)}.`);
  await save(
    ctx,
    name,
    {
      base_url: baseUrl,
      [mode === 'live' ? 'live_key' : 'test_key']: key,
      default_mode: opts.defaultMode ?? existing?.default_mode ?? mode,
    },
    opts.insecureStorage,
  );
}

/** A `stub serve` running on this machine, offered when nothing else is known. */
async function localStubUrl(ctx: Context): Promise<string | undefined> {
  const { servedStubs } = await import('../../config/served-stubs.js');
  return servedStubs(ctx.io.env)[0]?.url;
}

async function interactive(opts: LoginOptions, ctx: Context, verify: VerifyKey, check: CheckBaseUrl): Promise<void> {
  const prompter = await ctx.prompter();
  const store = await ctx.config();
  const name =
    opts.profile ??
    (await prompter.input('Profile name', {
      default: (ctx.io.env.JOBFIT_PROFILE || undefined) ?? store.currentProfileName() ?? 'default',
      validate: (v) => (/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(v.trim()) ? true : 'letters, digits, dot, dash or underscore'),
    })).trim();
  const existing = store.getProfile(name) ?? {};
  // Checked before any key goes to it; a wrong one is said and asked again.
  let suggested = existing.base_url ?? (ctx.io.env.JOBFIT_BASE_URL || undefined) ?? (await localStubUrl(ctx));
  let given = opts.baseUrl;
  let baseUrl: string;
  for (;;) {
    const typed = given ?? (await prompter.input('Base URL of the API (including /v2)', { default: suggested, validate: validBaseUrl }));
    given = undefined;
    baseUrl = normalizeBaseUrl(typed);
    const wrong = await check(ctx, baseUrl);
    if (!wrong) break;
    ctx.io.stderr.write(`✗ ${forPerson(wrong.problem)}\n`);
    suggested = wrong.suggestion ?? baseUrl;
  }

  const keys: Partial<Record<KeyMode, string>> = {};
  const accounts: Partial<Record<KeyMode, AccountSummary>> = {};
  for (const mode of ['live', 'test'] as const) {
    const had = storedKey(existing, mode);
    const keep = had ? `, empty keeps ${had.where === 'file' ? maskKey(had.key) : had.masked}` : ', empty to skip';
    for (let attempt = 1; ; attempt++) {
      const typed = (
        await prompter.password(`${mode === 'live' ? 'Live' : 'Test'} key (sk_${mode}_…${keep})`, {
          validate: (v) => (v.trim() === '' || v.trim().startsWith(`sk_${mode}`) ? true : `a ${mode} key starts with sk_${mode}`),
        })
      ).trim();
      if (!typed) break;
      try {
        const account = await verify(ctx, baseUrl, typed);
        ctx.io.stderr.write(`✓ ${mode} key ${maskKey(typed)}: ${forPerson(describe(account))}\n`);
        keys[mode] = typed;
        accounts[mode] = account;
        break;
      } catch (err) {
        if (!(err instanceof JobfitError) || attempt >= 3) throw err;
        ctx.io.stderr.write(`✗ ${forPerson(err.message)}\n`);
      }
    }
  }
  const liveKey = keys.live ?? (storedKey(existing, 'live') ? (existing.live_key ?? KEPT) : undefined);
  const testKey = keys.test ?? (storedKey(existing, 'test') ? (existing.test_key ?? KEPT) : undefined);
  if (!liveKey && !testKey) throw new UsageError('No key was given: a profile needs a live key, a test key or both.');
  if (accounts.live && accounts.test && accounts.live.id !== accounts.test.id) {
    ctx.warn(`the live key belongs to ${describe(accounts.live)} but the test key to ${describe(accounts.test)}.`);
  }
  let defaultMode: KeyMode = opts.defaultMode ?? existing.default_mode ?? (liveKey ? 'live' : 'test');
  if (!opts.defaultMode && liveKey && testKey) {
    defaultMode = await prompter.select(
      'Mode to use without --live/--test',
      [
        { name: 'test (fake answers, nothing stored)', value: 'test' as KeyMode },
        { name: 'live (real records)', value: 'live' as KeyMode },
      ],
      { default: defaultMode },
    );
  } else if (!(defaultMode === 'live' ? liveKey : testKey)) {
    defaultMode = liveKey ? 'live' : 'test';
  }
  // A key already in the keyring and not typed again stays there as it is.
  const fresh = (k: string | undefined) => (k === KEPT ? undefined : k);
  await save(ctx, name, { base_url: baseUrl, live_key: fresh(liveKey), test_key: fresh(testKey), default_mode: defaultMode }, opts.insecureStorage);
}

export default defineCommand({
  description: 'Connect a profile to the service: base URL, live and test keys, each checked with GET /accounts',
  options: LoginFlags,
  helpAfter: `
On a terminal, login asks for the profile name, the base URL and the keys (typed
masked). Without a terminal it never prompts: the key is read from stdin or
JOBFIT_API_KEY, the base URL from --base-url or JOBFIT_BASE_URL.
Use the global --profile NAME and --base-url URL to answer those questions up front.
`,
  examples: [
    'jobfit login',
    'jobfit login --profile work --base-url https://api.example.com/v2',
    'printf %s "$JOBFIT_TEST_KEY" | jobfit login --profile ci --base-url https://api.example.com/v2',
    'JOBFIT_API_KEY=sk_test_... jobfit login --base-url https://api.example.com/v2 --default-mode test',
  ],
  run: (opts, ctx) => runLogin({ ...opts, profile: ctx.globals.profile, baseUrl: ctx.globals.baseUrl }, ctx),
});
