/**
 * The fault server in front of a real server (`startFaultServer({ upstream })`,
 * our stub, say; an upstream with a path, `…/v2`, prefixes every request's): a request no fault answered is forwarded as it came (method,
 * path and query, headers but the hop's own, body), and its answer comes back
 * as it is (status, headers, the upstream's Date too), or, with `rewrite`, with
 * its body as that says (a list that lies about its total, drops people).
 * `accept-encoding` is not forwarded, so a rewrite reads plain text.
 */
import { request, type IncomingHttpHeaders, type ServerResponse } from 'node:http';

/** The request as forwarded: its raw `url` (path and query) and headers. */
export interface Forwarded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** The body to send instead of the upstream's (status, body and headers as the upstream answered). */
export type Rewrite<R> = (req: R, status: number, body: string, headers: IncomingHttpHeaders) => string | Promise<string>;

const HOP = new Set(['host', 'connection', 'keep-alive', 'accept-encoding', 'content-length', 'transfer-encoding']);

export function forward<R extends Forwarded>(origin: string, r: R, res: ServerResponse, rewrite?: Rewrite<R>): Promise<void> {
  const to = new URL(origin);
  const headers = Object.fromEntries(Object.entries(r.headers).filter(([k]) => !HOP.has(k)));
  return new Promise<void>((resolve, reject) => {
    // An origin with a path (http://127.0.0.1:PORT/v2) prefixes the request's.
    const path = to.pathname.replace(/\/$/, '') + r.url;
    const up = request({ host: to.hostname, port: to.port, method: r.method, path, headers }, (answer) => {
      const status = answer.statusCode ?? 502;
      // The upstream's Date, or none if it sent none.
      res.sendDate = false;
      if (!rewrite) {
        res.writeHead(status, answer.headers);
        answer.pipe(res);
        answer.on('end', () => resolve());
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        Promise.resolve(rewrite(r, status, Buffer.concat(chunks).toString('utf8'), answer.headers)).then((body) => {
          const { 'content-length': _length, 'transfer-encoding': _chunked, ...kept } = answer.headers;
          res.writeHead(status, kept);
          res.end(body);
          resolve();
        }, reject);
      });
    });
    up.on('error', reject);
    up.end(r.body);
  });
}
