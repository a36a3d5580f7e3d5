/** The shapes of the HTTP layer's requests and answers (http.ts sends them). */
import type { BreakerOptions } from './breaker.js';
import type { ExpectedShape } from './response.js';
import type { RetryOptions } from './retry.js';
import type { Headers, Timeouts, Transport } from './transport.js';

export type QueryValue = string | number | boolean | null | undefined;

export interface HttpClientOptions {
  /** Root of the API, including /v2. */
  baseUrl: string;
  apiKey?: string;
  /** Receives `-v` trace lines; the key is masked before they get here. */
  trace?: (line: string) => void;
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryOptions>;
  /** Injected in tests so retries take no time. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
  /**
   * A ready dispatcher (the embedded stub's, in this process; tests); otherwise one is built from the
   * environment's proxy settings. Only `dispatch` is used, and `close` by whoever made it.
   */
  dispatcher?: Transport;
  /** Where HTTPS_PROXY/HTTP_PROXY/NO_PROXY are read (io.env). */
  env?: Record<string, string | undefined>;
  /** Aborts requests and retry waits (Ctrl-C). */
  signal?: AbortSignal;
  userAgent?: string;
  /** The largest answer read, in bytes (default DEFAULT_MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  /** When the service counts as gone (default DEFAULT_BREAKER; see breaker.ts). */
  breaker?: Partial<BreakerOptions>;
}

export interface RequestOptions {
  method: string;
  /** Relative to the base URL, e.g. `/teams`; may carry its own query string. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Send the key (default true; false for the healthcheck). */
  auth?: boolean;
  /** Return non-2xx answers instead of throwing (the raw `api` command). */
  throwOnError?: boolean;
  signal?: AbortSignal;
  /** Check the shape of a 2xx answer (typed routes); the raw `api` command takes anything. `bytes`: return the body's bytes, of the `accept` type. */
  expect?: ExpectedShape;
  /** The content type asked for (default application/json); with `expect: 'bytes'`, the one a 2xx answer must have. */
  accept?: string;
  /** Sent on a connection of its own, opened for it and closed after (never one kept alive): an answer that was someone else's is asked for again. */
  fresh?: boolean;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the text when the body is not JSON, or null when empty; the bytes (a Buffer) with `expect: 'bytes'`. */
  data: T;
  /** Retries made before this answer. */
  retries: number;
  durationMs: number;
}

/** One request as it goes out, the same for every attempt but its URL (a redirect moves it). */
export interface Outgoing {
  opts: RequestOptions;
  method: string;
  url: URL;
  /** The path as the caller gave it, with the query, for messages. */
  relPath: string;
  auth: boolean;
  signal?: AbortSignal;
  headers: Record<string, string>;
  payload?: string;
}

/** What one attempt got: an answer (status) or, when none came, the network error's code. */
export interface Attempt {
  status?: number;
  headers: Headers;
  raw: Buffer;
  code?: string;
  cause?: unknown;
  ms: number;
}

/** The counts of one request's loop: retries that count against maxRetries, 429s waited out on the server's word (retry.ts), redirects followed. */
export interface Tries {
  retries: number;
  rateLimitWaits: number;
  redirects: number;
}

