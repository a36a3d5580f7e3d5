/**
 * `jobfit webhook verify`: checks a received delivery's jobfit-signature
 * against its raw body, as an app should (src/api/webhook-signature.ts).
 */
import { verifySignature } from '../../api/webhook-signature.js';
import type { Context } from '../kit/context.js';
import { JobfitError, UsageError } from '../../core/errors.js';
import { readInputBytes } from '../../core/input.js';

export interface VerifyOptions {
  file?: string;
  signature: string;
  secret?: string;
  tolerance: string;
}

async function bodyOf(ctx: Context, file: string | undefined): Promise<Buffer> {
  if ((file === undefined || file === '-') && ctx.io.stdin.isTTY) throw new UsageError('No body: give the file holding the raw body, or pipe it on stdin.');
  return readInputBytes(ctx.io, file ?? '-');
}

export async function verify(ctx: Context, o: VerifyOptions): Promise<void> {
  const secret = (o.secret ?? ctx.io.env.JOBFIT_WEBHOOK_SECRET ?? '').trim();
  if (!secret) throw new UsageError('No signing secret: give --secret whsec_… or set JOBFIT_WEBHOOK_SECRET.', 'the local stub\'s is printed by `jobfit webhook listen --print-secret`');
  if (!/^\d+$/.test(o.tolerance.trim())) throw new UsageError(`--tolerance must be a number of seconds, got "${o.tolerance}".`);
  const body = await bodyOf(ctx, o.file);
  const r = verifySignature(secret, o.signature, body, { toleranceSeconds: Number(o.tolerance), nowSeconds: Math.floor(ctx.io.now().getTime() / 1000) });
  if (!r.ok) throw new JobfitError(`Not verified: ${r.reason}.`);
  ctx.info(`Verified: signed ${r.ageSeconds >= 0 ? `${r.ageSeconds} s ago` : `${-r.ageSeconds} s ahead of this clock`} with this secret, ${body.length} bytes.`);
}
