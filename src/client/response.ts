/**
 * Reading an answer and checking it (after stripe-node's HttpClientResponse
 * and its JSON handling): the bytes undone from a compression the client did
 * not ask for, the text without a BOM and with any echo of the key masked,
 * the JSON parsed leniently (a foreign server may mislabel it), and for a
 * typed route the shape (an object, a list envelope) and the key's mode, or
 * for a route that answers bytes (a PDF), its content type.
 * A 2xx answer that is not the API's is one sentence (ProtocolError).
 */
import { ModeMismatchError } from '../core/errors.js';
import { redactKey } from '../config/mask.js';
import { htmlSummary, isHtml, ProtocolError } from './errors.js';
import { isNonIdempotent } from './retry.js';
import { errorCode, errorWithCode, header, type Headers, sizeText } from './transport.js';

/**
 * The largest answer read (after decompression). The API's biggest answers
 * (a list of 150 items, a job-fit report) are well under 1 MB; anything near
 * this is not the API, and reading it whole could exhaust memory.
 */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * What a 2xx answer of a typed route must be: any JSON object, a list
 * envelope (an object with a data array), or bytes of the type asked for
 * (`accept`), returned as they are.
 */
export type ExpectedShape = 'object' | 'list' | 'bytes';

/** What a body turned out to be, for the sentence about an answer that is not the API's. */
export type BodyKind = 'empty' | 'json' | 'invalid-json' | 'html' | 'text';

const LOOKS_JSON = /^\s*[[{"]|^\s*(null|true|false|-?\d)/;

/** The body as JSON when it is JSON (whatever the label says), else as text; null when empty. */
export function parseBody(text: string, contentType: string | undefined): { data: unknown; kind: BodyKind } {
  if (!/\S/.test(text)) return { data: null, kind: 'empty' };
  const saysJson = (contentType ?? '').includes('json');
  // A server that is not ours may label JSON as text/plain, or send none at all.
  if (saysJson || LOOKS_JSON.test(text)) {
    try {
      return { data: JSON.parse(text), kind: 'json' };
    } catch {
      // A broken JSON body is shown as text.
      if (!isHtml(text, contentType)) return { data: text, kind: 'invalid-json' };
    }
  }
  return { data: text, kind: isHtml(text, contentType) ? 'html' : 'text' };
}

/**
 * Undoes a Content-Encoding the client never asked for (it sends
 * `accept-encoding: identity`, but some servers and proxies compress anyway),
 * never inflating past `max` bytes (a small gzip can hold gigabytes).
 */
async function decodeBody(body: Buffer, encoding: string, max: number): Promise<Buffer> {
  const codings = encoding
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0 || body.length === 0) return body;
  const zlib = await import('node:zlib');
  const opts = { maxOutputLength: max };
  let out = body;
  // Codings are listed in the order they were applied.
  for (const c of codings.reverse()) {
    if (c === 'gzip' || c === 'x-gzip') out = zlib.gunzipSync(out, opts);
    else if (c === 'br') out = zlib.brotliDecompressSync(out, opts);
    else if (c === 'deflate') {
      try {
        out = zlib.inflateSync(out, opts);
      } catch (err) {
        // Some servers send raw deflate without the zlib header.
        if (errorCode(err) === 'ERR_BUFFER_TOO_LARGE') throw err;
        out = zlib.inflateRawSync(out, opts);
      }
    } else throw errorWithCode(`unsupported content-encoding ${c}`, 'JOBFIT_UNKNOWN_ENCODING');
  }
  return out;
}

/** What reading an answer needs from the client. */
export interface ReadLimits {
  /** The largest answer read, once decompressed. */
  maxBytes: number;
  /** The key, masked wherever the answer echoes it. */
  apiKey?: string;
  trace(line: string): void;
}

/** The body's bytes, decompressed when the server compressed it anyway. */
export async function readBytes(raw: Buffer, headers: Headers, method: string, path: string, status: number, limits: ReadLimits): Promise<Buffer> {
  const encoding = header(headers, 'content-encoding');
  if (!encoding) return raw;
  let body: Buffer;
  try {
    body = await decodeBody(raw, encoding, limits.maxBytes);
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ERR_BUFFER_TOO_LARGE') {
      throw new ProtocolError(`The answer to ${method} ${path} is larger than ${sizeText(limits.maxBytes)} once decompressed; it was not read.`, { status, cause: err });
    }
    const what = code === 'JOBFIT_UNKNOWN_ENCODING' ? `an encoding the client cannot read (content-encoding: ${encoding})` : `a body that is not valid ${encoding} (content-encoding: ${encoding})`;
    throw new ProtocolError(`The service answered ${method} ${path} with ${what}.`, { status, cause: err, hint: 'a proxy may be changing the answers; try without it (NO_PROXY)' });
  }
  limits.trace(`  decoded content-encoding ${encoding} (${raw.length} → ${body.length} bytes)`);
  return body;
}

/** The body as text: decompressed when the server compressed it anyway, without a BOM, the key masked. */
export async function readText(raw: Buffer, headers: Headers, method: string, path: string, status: number, limits: ReadLimits): Promise<string> {
  const body = await readBytes(raw, headers, method, path, status, limits);
  let text = body.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // A server that echoes the key (in an error, a page) must not get it printed.
  if (limits.apiKey && text.includes(limits.apiKey)) text = redactKey(text, limits.apiKey);
  return text;
}

/** A 2xx answer of a typed route must be a JSON object (a list: with a data array); anything else is one sentence. */
export function checkShape(expect: ExpectedShape, data: unknown, kind: BodyKind, text: string, contentType: string | undefined, status: number, method: string, path: string): void {
  const answered = `The service answered ${method} ${path}`;
  let what: string | undefined;
  switch (kind) {
    case 'empty':
      what = status === 204 ? 'no content (HTTP 204) where JSON was expected' : `an empty body (HTTP ${status}) instead of JSON`;
      break;
    case 'html': {
      const title = htmlSummary(text);
      what = `an HTML page${title ? ` ("${title.slice(0, 80)}")` : ''} instead of JSON (HTTP ${status})`;
      break;
    }
    case 'invalid-json':
      what = `a body that is not valid JSON (HTTP ${status}, ${text.length} characters${contentType ? `, ${contentType.split(';')[0]}` : ''})`;
      break;
    case 'text': {
      const flat = text.replace(/\s+/g, ' ').trim();
      what = `plain text instead of JSON (HTTP ${status}): "${flat.length > 60 ? `${flat.slice(0, 59)}…` : flat}"`;
      break;
    }
    case 'json':
      if (data === null) what = `null instead of a JSON object (HTTP ${status})`;
      else if (Array.isArray(data)) what = `a JSON array instead of an object (HTTP ${status})`;
      else if (typeof data !== 'object') what = `a JSON ${typeof data} instead of an object (HTTP ${status})`;
      else if (expect === 'list' && !Array.isArray((data as { data?: unknown }).data)) {
        what = `an object without a data array where a list was expected (HTTP ${status})`;
      }
      break;
  }
  if (!what) return;
  // A write answered 2xx was accepted: what it did is unknown, not undone.
  const hint = isNonIdempotent(method) ? `the ${method} was accepted (HTTP ${status}) and may have been done; check before sending it again` : undefined;
  throw new ProtocolError(`${answered} with ${what}.`, { status, hint, garbled: kind !== 'json' });
}

/** A 2xx answer of a route that answers bytes must be of the type asked for; anything else (an HTML page, JSON) is one sentence. */
export function checkContentType(contentType: string | undefined, wanted: string, status: number, method: string, path: string): void {
  if ((contentType ?? '').split(';')[0].trim().toLowerCase() === wanted.toLowerCase()) return;
  const got = contentType ? contentType.split(';')[0].trim() : 'no content type';
  const hint = isNonIdempotent(method) ? `the ${method} was accepted (HTTP ${status}) and may have been done; check before sending it again` : undefined;
  throw new ProtocolError(`The service answered ${method} ${path} with ${got} instead of ${wanted} (HTTP ${status}).`, { status, hint, garbled: true });
}

/** Every keyed answer carries `mode`; one that disagrees with the key means the wrong server or key. A missing mode is let through. */
export function checkMode(data: unknown, keyMode: 'live' | 'test' | undefined, maskedKey: string, method: string, path: string): void {
  if (!keyMode || !data || typeof data !== 'object' || Array.isArray(data)) return;
  const raw = (data as { mode?: unknown }).mode;
  const mode = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
  if ((mode === 'live' || mode === 'test') && mode !== keyMode) {
    throw new ModeMismatchError(
      `The service answered ${method} ${path} in ${mode} mode, but the key is a ${keyMode} key (${maskedKey}).`,
      'check the key and the base URL of the profile (`jobfit whoami`)',
    );
  }
}
