/**
 * api METHOD PATH: a raw request with the resolved server and key, for routes
 * or parameters the typed commands do not cover. The body is printed as
 * received; a 4xx/5xx answer still prints its body, then fails with the API's
 * message on stderr.
 */
import * as z from 'zod';
import { errorFromResponse } from '../../client/errors.js';
import type { QueryValue } from '../../client/http.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { collect, flag } from '../kit/flags.js';
import { JobfitError, UsageError } from '../../core/errors.js';
import { jsonText } from '../../format/output.js';
import { safeText } from '../../format/sanitize.js';
import { readInput } from '../../core/input.js';
import { checkOutputOptions } from '../kit/output-checks.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

export const ApiOptions = z.object({
  method: z
    .string()
    .transform((m) => m.toUpperCase())
    .pipe(z.enum(METHODS, { error: `must be one of ${METHODS.join(', ')}` })),
  path: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .refine((p) => !/^[a-z]+:\/\//i.test(p), 'give the path relative to the base URL (e.g. /teams), not a full URL')
    .transform((p) => (p.startsWith('/') ? p : `/${p}`)),
  data: flag(z.string().optional(), { flag: '-d, --data <json>', description: 'request body: JSON text, @file, or @- for stdin' }),
  query: flag(
    z
      .array(z.string().regex(/^[^=]+=/, 'each must look like key=value'))
      .default([])
      .transform((qs) => qs.map((q) => [q.slice(0, q.indexOf('=')), q.slice(q.indexOf('=') + 1)] as [string, string])),
    { flag: '--query <key=value>', description: 'query parameter (repeatable)', parse: collect, default: [] },
  ),
});
export type ApiOptions = z.output<typeof ApiOptions>;

/** --data as JSON: inline, @file, or @- for stdin. */
async function bodyOf(data: string, ctx: Context): Promise<unknown> {
  let text = data;
  let from = '--data';
  if (data === '@-') {
    text = await readInput(ctx.io, '-');
    from = 'stdin';
  } else if (data.startsWith('@')) {
    const file = data.slice(1);
    // A regular file of at most INPUT_MAX_BYTES (core/input.ts): `@/dev/zero` is refused, not read forever.
    text = await readInput(ctx.io, file);
    from = file;
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`The body from ${from} is not valid JSON (${(err as Error).message}).`);
  }
}

async function run(opts: ApiOptions, ctx: Context): Promise<void> {
  // The answer is printed as received: -o json (indented, even into a pipe) is
  // the one format; --fields would be silently ignored, so it is refused.
  checkOutputOptions(ctx, { formats: ['json'] });
  if (ctx.globals.fields?.length) {
    throw new UsageError('api prints the answer as received, so --fields cannot choose its fields.', "pipe the JSON to jq, e.g. jobfit api GET /teams | jq '.data[].name'");
  }
  if (opts.data !== undefined && (opts.method === 'GET' || opts.method === 'HEAD')) {
    throw new UsageError(`--data cannot be sent with ${opts.method}.`, 'use POST or PUT, or --query key=value for GET parameters');
  }
  const body = opts.data === undefined ? undefined : await bodyOf(opts.data, ctx);
  const query: Record<string, QueryValue> = {};
  // Repeated keys are rare in this API; the last one wins, as most servers read it.
  for (const [k, v] of opts.query) query[k] = v;
  const client = await ctx.client();
  const res = await client.raw(opts.method, opts.path, { query, body, signal: ctx.io.signal });
  const data = res.data;
  if (data !== null && data !== undefined && data !== '') {
    // A text body (an HTML page, a proxy's message) goes to a terminal through
    // the sanitiser; into a pipe it stays as received.
    const text =
      typeof data === 'string' ? (ctx.io.stdoutIsTTY ? safeText(data) : data) : jsonText(data, ctx.io.stdoutIsTTY || ctx.globals.output === 'json' ? 2 : undefined);
    ctx.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }
  if (res.status >= 300 && res.status < 400) {
    // A redirect the client did not follow (another origin, a write, too many):
    // printing nothing and exiting 0 would look like an empty success.
    const loc = res.headers.location;
    const where = Array.isArray(loc) ? loc[0] : loc;
    throw new JobfitError(
      `The service answered ${opts.method} ${opts.path} with ${res.status}${where ? ` to ${where.length > 160 ? `${where.slice(0, 159)}…` : where}` : ''}; the redirect was not followed.`,
      { hint: 'if the service moved, use its new address as the base URL (--base-url or JOBFIT_BASE_URL)' },
    );
  }
  if (res.status >= 400) {
    throw errorFromResponse({ status: res.status, method: opts.method, path: opts.path, body: data, headers: res.headers });
  }
}

export default defineCommand({
  description: 'Send a raw request with the configured server and key and print the answer as received',
  args: [
    { name: 'method', description: 'GET, POST, PUT, ...' },
    { name: 'path', description: 'path relative to the base URL, e.g. /teams or /invitations/12' },
  ],
  options: ApiOptions,
  helpAfter: `
The body is printed on stdout as received (JSON indented on a terminal or with
-o json, one line when piped; -o json is the only format, and --fields does not
apply). A 4xx/5xx answer prints its body too, then exits 1 (4 for a key the
service refuses) with the API's message on stderr. A redirect it does not follow
(another origin, a write) exits 1 with a sentence.
`,
  examples: [
    'jobfit api GET /teams',
    'jobfit api GET /invitations --query email=@acme.com --query team_id=12',
    'jobfit api GET /test-takers/500001/scorecard --query sp=sales-rep',
    'jobfit api PUT /invitations/100042 --data \'{"custom_id":"REQ-7"}\'',
    'jobfit api POST /invitations --data @fixtures/invite.json',
    'jq -n \'{first_name:"Ada"}\' | jobfit api PUT /invitations/100042 --data @-',
  ],
  run,
});
