/**
 * An in-memory list route with the service's rules: case-insensitive
 * substring match on email and custom_id, exact team_id, newest first, at most
 * 50 items unfiltered and 150 with an email or custom_id filter.
 */
import type { FetchPage, ListPageQuery } from '../../src/listing/complete-list.js';

export interface FakeItem {
  id: number;
  email: string;
  team_id: number;
  custom_id: string | null;
}

export function fakeList(items: FakeItem[]): { fetchPage: FetchPage<FakeItem>; calls: ListPageQuery[] } {
  // Newest first: the higher id was created later.
  const sorted = [...items].sort((a, b) => b.id - a.id);
  const calls: ListPageQuery[] = [];
  const fetchPage: FetchPage<FakeItem> = async (q) => {
    calls.push(q);
    const email = q.email?.toLowerCase();
    const cid = q.custom_id?.toLowerCase();
    const team = q.team_id === undefined ? undefined : Number(q.team_id);
    const all = sorted.filter(
      (it) =>
        (team === undefined || it.team_id === team) &&
        (email === undefined || it.email.toLowerCase().includes(email)) &&
        (cid === undefined || (it.custom_id ?? '').toLowerCase().includes(cid)),
    );
    const cap = q.email || q.custom_id ? 150 : 50;
    return { mode: 'test', object: 'list', total_count: all.length, has_more: all.length > cap, data: all.slice(0, cap) };
  };
  return { fetchPage, calls };
}
