/**
 * `jobfit webhook verify`: checks a received delivery's jobfit-signature
 * against its raw body, as an app should (src/api/webhook-signature.ts).
 */
import * as z from 'zod';
import { verifySignature } from '../../api/webhook-signature.js';
import { JobfitError, UsageError } from '../../core/errors.js';
import { readInputBytes } from '../../core/input.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { examples } from '../kit/help.js';
import { flag } from '../kit/flags.js';

const VerifyOptions = z.object({
  file: z.string().optional(),
  signature: flag(z.string(), { flag: '--signature <header>', description: 'the jobfit-signature header: t=<unix seconds>,v1=<hex>', required: true }),
  secret: flag(z.string().optional(), { flag: '--secret <whsec>', description: 'the signing secret (or JOBFIT_WEBHOOK_SECRET)' }),
  tolerance: flag(z.string(), { flag: '--tolerance <seconds>', description: 'how old a signature may be (default 300; 0: any)', default: '300' }),
}).superRefine((o, zctx) => {
  if (!/^\d+$/.test(o.tolerance.trim())) zctx.addIssue({ code: 'custom', message: `--tolerance must be a number of seconds, got "${o.tolerance}".` });
});
export type VerifyOptions = z.output<typeof VerifyOptions>;

async function bodyOf(ctx: Context, file: string | undefined): Promise<Buffer> {
  if ((file === undefined || file === '-') && ctx.io.stdin.isTTY) throw new UsageError('No body: give the file holding the raw body, or pipe it on stdin.');
  return readInputBytes(ctx.io, file ?? '-');
}

export async function run(o: VerifyOptions, ctx: Context): Promise<void> {
  const secret = (o.secret ?? ctx.io.env.JOBFIT_WEBHOOK_SECRET ?? '').trim();
  if (!secret) throw new UsageError('No signing secret: give --secret whsec_… or set JOBFIT_WEBHOOK_SECRET.', 'the local stub\'s is printed by `jobfit webhook listen --print-secret`');
  const body = await bodyOf(ctx, o.file);
  const r = verifySignature(secret, o.signature, body, { toleranceSeconds: Number(o.tolerance), nowSeconds: Math.floor(ctx.io.now().getTime() / 1000) });
  if (!r.ok) throw new JobfitError(`Not verified: ${r.reason}.`);
  ctx.info(`Verified: signed ${r.ageSeconds >= 0 ? `${r.ageSeconds} s ago` : `${-r.ageSeconds} s ahead of this clock`} with this secret, ${body.length} bytes.`);
}

export default defineCommand({
  name: 'verify',
  summary: 'Check the signature of a webhook delivery (the local stub\'s scheme)',
  args: [{ name: 'file', description: 'the raw body as received (- or nothing: stdin)', optional: true }],
  options: VerifyOptions,
  // Unlike other commands', this help ends right after its last example.
  helpAfter: `
Checks a delivery as your app should: the HMAC-SHA256 of "<t>.<raw body>"
with the signing secret must equal the v1 signature, and t must be within
--tolerance seconds of now (default 300; 0 turns the check off). The body must
be the bytes received: parsed and serialised again, it no longer matches.
The secret comes from --secret or JOBFIT_WEBHOOK_SECRET.

This is the local stub's scheme; how the real service signs deliveries is not
in its reference.

Exit codes: 0 valid, 1 invalid (the reason on stderr), 2 usage.
${examples(
    '# fixtures/webhook/delivery.json is a delivery signed with the secret whsec_example',
    'jobfit webhook verify --secret whsec_example --tolerance 0 --signature "t=1767225600,v1=cc7a6a11fad5febccac2a6186b9b7b4146e40af3c590160cb9a008e2fc2dfde5" fixtures/webhook/delivery.json',
    'JOBFIT_WEBHOOK_SECRET=$(jobfit webhook listen --print-secret) jobfit webhook verify --signature "$SIG" - < body.json',
  ).trimEnd()}`,
  run,
});
