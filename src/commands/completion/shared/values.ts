/**
 * `jobfit completion --values KIND`: the words a shell offers after a flag
 * whose values live in the service (score profiles, teams, templates,
 * inviters), one a line. Asked of the connection the commands use, with a
 * short timeout, and cached for a few minutes beside the config (owner-only),
 * so TAB stays quick. Any failure prints nothing: the shell then offers nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../../kit/context.js';
import { UsageError } from '../../../core/errors.js';
import { VALUE_KINDS, type ValueKind } from '../../../format/completion.js';
import { configDir } from '../../../config/paths.js';
import { ensurePrivateDir } from '../../../core/files.js';
import { writeOutFileSync } from '../../../core/whole-file.js';

const TTL_MS = 5 * 60_000;
const TIMEOUT_MS = 3000;

type Cache = Record<string, { at: number; values: string[] }>;

const cacheFile = (env: Record<string, string | undefined>) => join(configDir(env), 'cache', 'completion.json');

function readCache(file: string): Cache {
  try {
    const c = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return c && typeof c === 'object' && !Array.isArray(c) ? (c as Cache) : {};
  } catch {
    return {};
  }
}

const items = (list: unknown): Array<Record<string, unknown>> => {
  const data = (list as { data?: unknown })?.data;
  return Array.isArray(data) ? (data as Array<Record<string, unknown>>) : [];
};
/** One word per line, no control characters: a stranger's text goes onto a command line. */
const word = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v).replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+/g, ' ').trim() : '');

async function fetchValues(ctx: Context, kind: ValueKind): Promise<string[]> {
  const client = await ctx.client({ announce: false });
  if (kind === 'score-profiles') return items(await client.listScoreProfiles()).map((p) => word(p.short_name));
  if (kind === 'teams') return items(await client.listTeams()).flatMap((t) => [word(t.display_name), word(t.id)]);
  if (kind === 'templates') return items(await client.listEmailTemplates()).flatMap((t) => [word(t.display_name), word(t.id)]);
  return items(await client.listUsers()).map((u) => word(u.email));
}

export async function printValues(ctx: Context, kind: string): Promise<void> {
  if (!(VALUE_KINDS as readonly string[]).includes(kind)) throw new UsageError(`No values for "${kind}": choose one of ${VALUE_KINDS.join(', ')}.`);
  let values: string[];
  try {
    // Resolve first: the cache is per server and key.
    const client = ctx.client({ announce: false });
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), TIMEOUT_MS).unref());
    await Promise.race([client, timeout]);
    const c = ctx.connection!;
    const key = `${c.embedded ? 'embedded' : c.baseUrl}|${c.maskedKey}|${kind}`;
    const file = cacheFile(ctx.io.env);
    const cache = readCache(file);
    const hit = cache[key];
    const now = ctx.io.now().getTime();
    if (hit && now - hit.at < TTL_MS && Array.isArray(hit.values)) {
      values = hit.values;
    } else {
      values = [...new Set((await Promise.race([fetchValues(ctx, kind as ValueKind), timeout])).filter(Boolean))];
      for (const [k, v] of Object.entries(cache)) if (now - v.at >= TTL_MS) delete cache[k];
      cache[key] = { at: now, values };
      try {
        ensurePrivateDir(join(configDir(ctx.io.env), 'cache'));
        // Whole or not at all (the one writer path): a full disk leaves the earlier cache, and no temporary file.
        writeOutFileSync(file, 'the completion cache', JSON.stringify(cache));
      } catch {
        // A cache is a convenience.
      }
    }
  } catch {
    return;
  }
  if (values.length) ctx.io.stdout.write(`${values.join('\n')}\n`);
}
