/**
 * How the stub signs webhook deliveries, and how a receiver checks them:
 * Standard Webhooks (https://www.standardwebhooks.com), the scheme with
 * reference libraries in nine languages.
 *
 * The reference does not say whether or how the real service signs its
 * deliveries ("Signing or verification of deliveries: not shown"); this is the
 * stub's choice (docs/webhooks.md). Each account's endpoint has a signing
 * secret, `whsec_` + standard base64 of 24 to 64 random bytes (the key), and
 * every delivery carries
 *
 *   webhook-id:        <event id>
 *   webhook-timestamp: <unix seconds of this attempt>
 *   webhook-signature: v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<raw body>")>
 *
 * The id and timestamp are signed with the body, so a captured delivery cannot
 * be replayed later (or earlier) than the receiver's tolerance, five minutes.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const ID_HEADER = 'webhook-id';
export const TIMESTAMP_HEADER = 'webhook-timestamp';
export const SIGNATURE_HEADER = 'webhook-signature';

const SECRET_PREFIX = 'whsec_';
const NEW_SECRET_BYTES = 32;
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;
export const DEFAULT_TOLERANCE_S = 300;

export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(NEW_SECRET_BYTES).toString('base64')}`;
}

/** `whsec_` + standard base64 (padded, no `-` or `_`) of 24 to 64 bytes: what every Standard Webhooks library loads. */
export function isStandardSecret(secret: string): boolean {
  if (!secret.startsWith(SECRET_PREFIX)) return false;
  const b64 = secret.slice(SECRET_PREFIX.length);
  if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return false;
  const n = Buffer.from(b64, 'base64').length;
  return n >= MIN_KEY_BYTES && n <= MAX_KEY_BYTES;
}

/**
 * The key a secret stands for, from either base64 alphabet (secrets made
 * before Standard Webhooks were base64url), with or without `whsec_`;
 * undefined when it is not base64 of 24 to 64 bytes.
 */
export function secretKey(secret: string): Buffer | undefined {
  const b64 = secret.trim().replace(/^whsec_/, '');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(b64)) return undefined;
  const key = Buffer.from(b64, 'base64');
  return key.length >= MIN_KEY_BYTES && key.length <= MAX_KEY_BYTES ? key : undefined;
}

/** The same key spelled the standard way (`-_` → `+/`, padded), or undefined when it is not a key. */
export function standardSpelling(secret: string): string | undefined {
  const key = secretKey(secret);
  return key && `${SECRET_PREFIX}${key.toString('base64')}`;
}

function standardSignature(key: Buffer, id: string, timestamp: number, body: string | Uint8Array): Buffer {
  const h = createHmac('sha256', key);
  h.update(`${id}.${timestamp}.`);
  h.update(body);
  return h.digest();
}

/** The signature headers of one delivery attempt. */
export function signDelivery(secret: string, d: { id: string; timestamp: number; body: string | Uint8Array }): Record<string, string> {
  const key = secretKey(secret);
  if (!key) throw new Error('the signing secret is not whsec_ + base64 of 24 to 64 bytes');
  return {
    [ID_HEADER]: d.id,
    [TIMESTAMP_HEADER]: String(d.timestamp),
    [SIGNATURE_HEADER]: `v1,${standardSignature(key, d.id, d.timestamp, d.body).toString('base64')}`,
  };
}

/** The headers of a delivery that verification reads (names in lower case, as node gives them). */
export interface SignedHeaders {
  id?: string;
  timestamp?: string;
  signature?: string;
}

/** Picks the signature headers out of node's `req.headers` (or any lower-case record). */
export function signedHeaders(h: Record<string, string | string[] | undefined>): SignedHeaders {
  const one = (name: string) => {
    const v = h[name];
    return typeof v === 'string' ? v : undefined;
  };
  return { id: one(ID_HEADER), timestamp: one(TIMESTAMP_HEADER), signature: one(SIGNATURE_HEADER) };
}

export type VerifyResult =
  | { ok: true; timestamp: number; ageSeconds: number }
  | { ok: false; reason: string; timestamp?: number };

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function withinTolerance(timestamp: number, opts: { toleranceSeconds?: number; nowSeconds?: number }): VerifyResult {
  const now = opts.nowSeconds ?? Math.floor(Date.now() / 1000);
  const age = now - timestamp;
  const tolerance = opts.toleranceSeconds ?? DEFAULT_TOLERANCE_S;
  if (tolerance > 0 && Math.abs(age) > tolerance) {
    return {
      ok: false,
      timestamp,
      reason: `the signature is valid but was made ${Math.abs(age)} s ${age >= 0 ? 'ago' : 'ahead of this clock'}, beyond the tolerance of ${tolerance} s (a replay?)`,
    };
  }
  return { ok: true, timestamp, ageSeconds: age };
}

/**
 * Checks a delivery against the raw body as received (byte for byte: a body
 * parsed and serialised again no longer matches).
 */
export function verifyDelivery(
  secret: string,
  h: SignedHeaders,
  body: string | Uint8Array,
  opts: { toleranceSeconds?: number; nowSeconds?: number } = {},
): VerifyResult {
  if (h.signature === undefined) return { ok: false, reason: `the delivery has no ${SIGNATURE_HEADER} header` };
  const key = secretKey(secret);
  if (!key) return { ok: false, reason: 'the signing secret is not whsec_ followed by base64 of 24 to 64 bytes' };
  if (!h.id) return { ok: false, reason: `the delivery has no ${ID_HEADER} header` };
  if (!h.timestamp || !/^\d{1,12}$/.test(h.timestamp.trim())) return { ok: false, reason: `the ${TIMESTAMP_HEADER} header is not unix seconds` };
  const timestamp = Number(h.timestamp.trim());
  const expected = standardSignature(key, h.id, timestamp, body);
  // Several signatures may be sent, space-separated, during a key change: any v1 that matches will do.
  const given = h.signature
    .split(' ')
    .map((s) => s.trim())
    .filter((s) => s.startsWith('v1,'))
    .map((s) => Buffer.from(s.slice(3), 'base64'));
  if (given.length === 0) return { ok: false, reason: `the ${SIGNATURE_HEADER} header has no v1,<base64> signature` };
  if (!given.some((g) => sameBytes(g, expected))) {
    return { ok: false, reason: 'the signature does not match this id, timestamp, body and secret (was the body changed, or re-serialised, on the way?)' };
  }
  return withinTolerance(timestamp, opts);
}
