/**
 * The participant's `assessment_url` on a local stub points at the stub's
 * published origin (the last `stub serve`, else http://127.0.0.1:4010), which
 * serves the participant's page only while a `stub serve` runs there. The
 * embedded stub lives for one command on a random port, so a command that
 * prints such a link says whether it opens now, and how to make it open.
 */
import { ROUTES } from '../../api/routes.js';
import type { Context } from '../kit/context.js';
import { isLoopbackHost } from '../../core/loopback.js';

function firstLink(items: unknown[]): URL | undefined {
  for (const it of items) {
    const v = it && typeof it === 'object' ? (it as { assessment_url?: unknown }).assessment_url : undefined;
    if (typeof v === 'string' && URL.canParse(v)) return new URL(v);
  }
  return undefined;
}

async function answers(origin: string, signal: AbortSignal): Promise<boolean> {
  try {
    const res = await fetch(`${origin}/v2${ROUTES.healthcheck.path}`, { signal: AbortSignal.any([signal, AbortSignal.timeout(1000)]), redirect: 'manual' });
    const body = (await res.json().catch(() => null)) as { version?: unknown } | null;
    return res.ok && body?.version === 'v2';
  } catch {
    return false;
  }
}

/** After printing items that carry assessment_url: one notice when their stub is not serving them. */
export async function noteParticipantLinks(ctx: Context, items: unknown[]): Promise<void> {
  const c = ctx.connection;
  if (!c || ctx.globals.quiet) return;
  const link = firstLink(items);
  if (!link || !isLoopbackHost(link.hostname)) return;
  // Only a stub hands out loopback links: the embedded one, or one the profile points at.
  if (!c.embedded && !(URL.canParse(c.baseUrl) && isLoopbackHost(new URL(c.baseUrl).hostname))) return;
  if (await answers(link.origin, ctx.io.signal)) return;
  const port = link.port || (link.protocol === 'https:' ? '443' : '80');
  ctx.info(
    `The assessment_url links point at ${link.origin}, where no stub is serving now: run \`jobfit stub serve --port ${port}\` in another terminal to open them in a browser.`,
  );
}
