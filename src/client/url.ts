/** The URLs of the HTTP layer: where a request goes, and where a live key may go at all. */
import { UsageError } from '../core/errors.js';
import { isLoopbackHost } from '../core/loopback.js';
import { modeOfKey } from '../config/mask.js';
import type { QueryValue } from './request-types.js';

/** Refuses to send a live key in clear text anywhere but this machine. */
export function assertSafeTransport(baseUrl: string, apiKey: string | undefined): void {
  if (!apiKey || modeOfKey(apiKey) !== 'live') return;
  const url = new URL(baseUrl);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(
      `Refusing to send a live key over plain http:// to ${url.host}.`,
      'use an https:// base URL, or a test key for a server on this machine',
    );
  }
}

/** Joins the base URL (which has its own path, /v2) and a route path. */
export function joinUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): URL {
  const base = new URL(baseUrl);
  return joinParsed(base.origin, base.pathname.replace(/\/+$/, ''), path, query);
}

/** joinUrl with the base already split (the client parses its base URL once, not per request). */
export function joinParsed(origin: string, basePath: string, path: string, query?: Record<string, QueryValue>): URL {
  const q = path.indexOf('?');
  const p = q < 0 ? path : path.slice(0, q);
  let search = q < 0 ? '' : path.slice(q + 1);
  // One URL parse per request (setting search and appending to searchParams reparsed it twice).
  let params: URLSearchParams | undefined;
  for (const k in query) {
    const v = query[k];
    if (v !== undefined && v !== null && v !== '') (params ??= new URLSearchParams(search)).append(k, String(v));
  }
  if (params) search = params.toString();
  return new URL(`${origin}${basePath}${p.startsWith('/') ? p : `/${p}`}${search ? `?${search}` : ''}`);
}

