/**
 * A proxy in front of our stub for the sync tests, so that a stub playing a
 * strict server (`--minimal-fields`) can also misbehave the way fault-server.ts
 * does: every request is forwarded as it is (the stub's Date header too),
 * except that a GET /invitations answer leaves out the `hidden` invitations
 * (its items and its total_count: a list that drops people), and `beforeList`
 * runs when a list request arrives, before it is forwarded ("invitations",
 * "test-takers"). The total_count is lowered by every hidden invitation the
 * query matches, in the answer's page or beyond it.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ListProxy {
  /** The base URL of API v2 through the proxy. */
  url: string;
  hidden: number[];
  beforeList?: (list: string) => void;
  close(): Promise<void>;
}

/** A proxy to the stub at `origin` (http://127.0.0.1:PORT), on a loopback port of its own. */
export async function startListProxy(origin: string): Promise<ListProxy> {
  /** Whether the invitation matches a list query as the reference filters: team_id exact, custom_id and email partial, case-insensitive. */
  async function matches(id: number, q: URLSearchParams, headers: Record<string, string>): Promise<boolean> {
    const inv = (await (await fetch(`${origin}/v2/invitations/${id}`, { headers })).json()) as { team: { id: number }; custom_id: string | null; email: string };
    const part = (name: string, value: string | null) => !q.get(name) || (value ?? '').toLowerCase().includes(q.get(name)!.toLowerCase());
    return (!q.get('team_id') || String(inv.team.id) === q.get('team_id')) && part('custom_id', inv.custom_id) && part('email', inv.email);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const u = new URL(req.url ?? '/', origin);
    const list = /^\/v2\/(invitations|test-takers)$/.exec(u.pathname)?.[1];
    if (list) proxy.beforeList?.(list);
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'accept', 'user-agent']) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
    const answer = await fetch(u, { method: req.method, headers });
    let body = await answer.text();
    if (list === 'invitations' && answer.ok && proxy.hidden.length > 0) {
      const json = JSON.parse(body) as { total_count: number; data: Array<{ id: unknown }> };
      const kept = json.data.filter((it) => !proxy.hidden.includes(Number(it.id)));
      // The total counts every hidden invitation the query matches, in this page or beyond it.
      let matching = 0;
      for (const id of proxy.hidden) if (await matches(id, u.searchParams, headers)) matching++;
      body = JSON.stringify({ ...json, total_count: json.total_count - matching, data: kept });
    }
    const out: Record<string, string> = { 'content-type': answer.headers.get('content-type') ?? 'application/json' };
    const date = answer.headers.get('date');
    if (date) out.date = date;
    res.sendDate = false;
    res.writeHead(answer.status, out);
    res.end(body);
  }
  const http = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: String(err) }));
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const proxy: ListProxy = {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/v2`,
    hidden: [],
    async close() {
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
  return proxy;
}
