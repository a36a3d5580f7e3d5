/**
 * `jobfit webhook verify`: checks a received delivery's Standard Webhooks
 * signature against its raw body, as an app should (src/api/webhook-signature.ts).
 */
import * as z from 'zod';
import { verifyDelivery } from '../../api/webhook-signature.js';
import { JobfitError, UsageError } from '../../core/errors.js';
import { readInputBytes } from '../../core/input.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { examples } from '../kit/help.js';
import { flag } from '../kit/flags.js';
import { givenSecrets } from './listen.js';
import { NUM } from '../../format/number.js';

const VerifyOptions = z
  .object({
    file: z.string().optional(),
    signature: flag(z.string(), {
      flag: '--signature <header>',
      description: 'the webhook-signature header (v1,<base64>)',
      required: true,
    }),
    id: flag(z.string().optional(), { flag: '--id <webhook-id>', description: 'the webhook-id header (the event id)' }),
    timestamp: flag(z.string().optional(), { flag: '--timestamp <seconds>', description: 'the webhook-timestamp header' }),
    secret: flag(z.string().optional(), { flag: '--secret <whsec>', description: 'the signing secret (visible to ps: prefer JOBFIT_WEBHOOK_SECRET or --secret-stdin)' }),
    secretStdin: flag(z.boolean().optional(), { flag: '--secret-stdin', description: 'read the signing secret from stdin (the body then comes from FILE)' }),
    tolerance: flag(z.string(), { flag: '--tolerance <seconds>', description: 'how far the timestamp may be from now, either way (default 300; 0: any)', default: '300' }),
  })
  .superRefine((o, zctx) => {
    const bad = (message: string) => zctx.addIssue({ code: 'custom', message });
    if (!/^\d+$/.test(o.tolerance.trim())) return bad(`--tolerance must be a number of seconds, got "${o.tolerance}".`);
    if ((o.id === undefined || o.timestamp === undefined)) return bad('A webhook-signature is checked with its --id and --timestamp (the webhook-id and webhook-timestamp headers).');
    if (o.timestamp !== undefined && !/^\d{1,12}$/.test(o.timestamp.trim())) return bad(`--timestamp must be unix seconds, got "${o.timestamp}".`);
    if (o.secretStdin && (o.file === undefined || o.file === '-')) return bad('With --secret-stdin the body comes from a FILE, not stdin.');
    if (o.secretStdin && o.secret !== undefined) return bad('Give --secret or --secret-stdin, not both.');
  });
export type VerifyOptions = z.output<typeof VerifyOptions>;

/** "42 s", "5 min", "3 h", "331 days": how long, for a person. */
export function ageText(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)} h`;
  return NUM.count(Math.round(seconds / 86_400), 'day');
}

async function bodyOf(ctx: Context, file: string | undefined): Promise<Buffer> {
  if ((file === undefined || file === '-') && ctx.io.stdin.isTTY) throw new UsageError('No body: give the file holding the raw body, or pipe it on stdin.');
  return readInputBytes(ctx.io, file ?? '-');
}

async function run(o: VerifyOptions, ctx: Context): Promise<void> {
  const secrets = o.secret !== undefined ? [o.secret.trim()] : await givenSecrets(ctx, o.secretStdin);
  // --secret-stdin and the variable both given: the one read from stdin is the one meant.
  const secret = secrets.at(-1);
  if (!secret) throw new UsageError('No signing secret: set JOBFIT_WEBHOOK_SECRET, pipe it with --secret-stdin, or give --secret whsec_….', 'the local stub\'s is printed by `jobfit webhook listen --print-secret`');
  const body = await bodyOf(ctx, o.file);
  const r = verifyDelivery(secret, { id: o.id, timestamp: o.timestamp, signature: o.signature }, body, { toleranceSeconds: Number(o.tolerance), nowSeconds: Math.floor(ctx.io.now().getTime() / 1000) });
  if (!r.ok) throw new JobfitError(`Not verified: ${r.reason}.`);
  ctx.info(`Verified: signed ${r.ageSeconds >= 0 ? `${ageText(r.ageSeconds)} ago` : `${ageText(-r.ageSeconds)} ahead of this clock`} (at ${new Date((Math.floor(ctx.io.now().getTime() / 1000) - r.ageSeconds) * 1000).toISOString().replace('.000Z', 'Z')}) with this secret, ${NUM.count(body.length, 'byte')}.`);
}

export default defineCommand({
  name: 'verify',
  summary: 'Check the signature of a webhook delivery (Standard Webhooks)',
  args: [{ name: 'file', description: 'the raw body as received (- or nothing: stdin)', optional: true }],
  options: VerifyOptions,
  // Unlike other commands', this help ends right after its last example.
  helpAfter: `
Checks a delivery as your app should (Standard Webhooks): the base64
HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>", keyed with the
base64-decoded secret after whsec_, must equal a v1 signature of the
webhook-signature header, and the timestamp must be within --tolerance
seconds of now, either way (default 300; 0 turns the check off). The body must
be the bytes received: parsed and serialised again, it no longer matches.
The secret comes from JOBFIT_WEBHOOK_SECRET, --secret-stdin, or --secret
(which ps shows to other users of the machine).

How the real service signs deliveries is not in its reference.

Exit codes: 0 valid, 1 invalid (the reason on stderr), 2 usage.
${examples(
    '# fixtures/webhook/delivery.json: a delivery signed with whsec_am9iZml0LWV4YW1wbGUtc2VjcmV0LTI0, its headers below',
    'jobfit webhook verify --secret whsec_am9iZml0LWV4YW1wbGUtc2VjcmV0LTI0 --id evt_00000000000000000000000a --timestamp 1767225600 --tolerance 0 --signature "v1,HcOBcK2/VJ3XuWYl+fVOLVxZF98RifDxqHj2G2QVCJU=" fixtures/webhook/delivery.json',
    'JOBFIT_WEBHOOK_SECRET=$(jobfit webhook listen --print-secret) jobfit webhook verify --id "$ID" --timestamp "$TS" --signature "$SIG" body.json',
    'pass show app/webhook | jobfit webhook verify --secret-stdin --id evt_… --timestamp 1767225600 --signature "v1,K5oZ…" body.json',
  ).trimEnd()}`,
  run,
});
