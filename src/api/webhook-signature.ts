/**
 * How the stub signs webhook deliveries, and how a receiver checks them.
 *
 * The reference does not say whether or how the real service signs its
 * deliveries; this is the stub's own scheme (docs/webhooks.md), in the shape
 * Stripe uses: each account's endpoint has a signing secret (`whsec_…`), and
 * every delivery carries
 *
 *   jobfit-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
 *
 * The timestamp is signed with the body, so a captured delivery cannot be
 * replayed later than the receiver's tolerance (default five minutes).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'jobfit-signature';
const SECRET_PREFIX = 'whsec_';
const DEFAULT_TOLERANCE_S = 300;

export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64url')}`;
}

function hmac(secret: string, timestamp: number, body: string | Uint8Array): string {
  const h = createHmac('sha256', secret);
  h.update(`${timestamp}.`);
  h.update(body);
  return h.digest('hex');
}

/** The header value for a body sent at `timestamp` (unix seconds). */
export function signatureHeader(secret: string, timestamp: number, body: string | Uint8Array): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`;
}

export type VerifyResult = { ok: true; timestamp: number; ageSeconds: number } | { ok: false; reason: string };

/**
 * Checks a header against the raw body as received (byte for byte: a body
 * parsed and serialised again no longer matches).
 */
export function verifySignature(
  secret: string,
  header: string,
  body: string | Uint8Array,
  opts: { toleranceSeconds?: number; nowSeconds?: number } = {},
): VerifyResult {
  const parts = header.split(',').map((p) => p.trim());
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const p of parts) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    const k = p.slice(0, eq);
    const v = p.slice(eq + 1);
    if (k === 't' && /^\d{1,12}$/.test(v)) timestamp = Number(v);
    else if (k === 'v1' && /^[0-9a-f]{64}$/i.test(v)) signatures.push(v.toLowerCase());
  }
  if (timestamp === undefined) return { ok: false, reason: `the signature header has no timestamp (t=…); expected "t=<unix seconds>,v1=<hex>"` };
  if (signatures.length === 0) return { ok: false, reason: 'the signature header has no v1= signature' };
  const expected = Buffer.from(hmac(secret, timestamp, body), 'hex');
  const match = signatures.some((s) => {
    const got = Buffer.from(s, 'hex');
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
  if (!match) return { ok: false, reason: 'the signature does not match this body and secret (was the body changed, or re-serialised, on the way?)' };
  const now = opts.nowSeconds ?? Math.floor(Date.now() / 1000);
  const age = now - timestamp;
  const tolerance = opts.toleranceSeconds ?? DEFAULT_TOLERANCE_S;
  if (tolerance > 0 && Math.abs(age) > tolerance) {
    return { ok: false, reason: `the signature is valid but was made ${Math.abs(age)} s ${age >= 0 ? 'ago' : 'ahead of this clock'}, beyond the tolerance of ${tolerance} s (a replay?)` };
  }
  return { ok: true, timestamp, ageSeconds: age };
}
