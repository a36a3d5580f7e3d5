/**
 * The fault server in front of our stub for the sync tests (`upstream`), so
 * that a stub playing a strict server (`--minimal-fields`) can also misbehave
 * the way the fault server's sync world does: every request is forwarded as it
 * is (the stub's Date header too), except that a GET /invitations answer leaves
 * out the `hidden` invitations (its items and its total_count: a list that
 * drops people), and `beforeList` runs when a list request arrives, before it
 * is forwarded ("invitations", "test-takers"). The total_count is lowered by
 * every hidden invitation the query matches, in the answer's page or beyond it.
 */
import { type Req, startFaultServer } from '../helpers/fault-server.js';

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
  const listOf = (r: Req) => /^\/v2\/(invitations|test-takers)$/.exec(r.path)?.[1];

  const server = await startFaultServer({ upstream: origin });
  server.faults.push((r) => {
    const list = listOf(r);
    if (list) proxy.beforeList?.(list);
    return false;
  });
  server.rewrite = async (r, status, body) => {
    if (listOf(r) !== 'invitations' || status < 200 || status > 299 || proxy.hidden.length === 0) return body;
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'accept', 'user-agent']) if (typeof r.headers[name] === 'string') headers[name] = r.headers[name];
    const json = JSON.parse(body) as { total_count: number; data: Array<{ id: unknown }> };
    const kept = json.data.filter((it) => !proxy.hidden.includes(Number(it.id)));
    // The total counts every hidden invitation the query matches, in this page or beyond it.
    let matching = 0;
    for (const id of proxy.hidden) if (await matches(id, r.query, headers)) matching++;
    return JSON.stringify({ ...json, total_count: json.total_count - matching, data: kept });
  };
  const proxy: ListProxy = { url: `${server.url}/v2`, hidden: [], close: () => server.close() };
  return proxy;
}
