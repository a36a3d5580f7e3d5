/** The stub's random ids and tokens, and the text of the current time. */

/** Unguessable token for the participant's start link (/take/<token>). */
// Random bytes drawn in blocks: one call into the CSPRNG per 256 tokens
// instead of one per token (it showed in the profile of a POST load).
const TOKEN_BYTES = 18;
let tokenPool: Buffer = Buffer.alloc(0);
let tokenAt = 0;
/** node:crypto's CSPRNG, loaded at the first token (~6 ms of OpenSSL set-up an offline read does not need). */
const randomBytes = (n: number): Buffer => process.getBuiltinModule('node:crypto').randomBytes(n);
export function newToken(): string {
  if (tokenAt + TOKEN_BYTES > tokenPool.length) {
    tokenPool = randomBytes(TOKEN_BYTES * 256);
    tokenAt = 0;
  }
  tokenAt += TOKEN_BYTES;
  return tokenPool.toString('base64url', tokenAt - TOKEN_BYTES, tokenAt);
}

/** Career navigation profile id: `cnp_` + 20 random alphanumerics. */
export function newProfileId(): string {
  return `cnp_${randomBytes(15).toString('base64url').replace(/[-_]/g, '').slice(0, 20).padEnd(20, '0')}`;
}

// The ISO text of the current millisecond, made once per millisecond: a
// POST load asks for it several times per request.
let isoAt = -1;
let isoText = '';
export function nowIso(): string {
  const t = Date.now();
  if (t !== isoAt) {
    isoAt = t;
    isoText = new Date(t).toISOString();
  }
  return isoText;
}
