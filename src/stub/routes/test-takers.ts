/** GET /test-takers and GET /test-takers/:id. */
import { MSG } from '../../api/messages.js';
import * as F from '../fakes.js';
import { type Reply, fail, json } from '../http/reply.js';
import { type TestTakerListRow, type TestTakerRow, minimalTestTakerListItem, testTakerListItem, testTakerObject } from '../views.js';
import { type Call, fakeCtx, intId, list, teamOfAccount } from './call.js';
import { listFilters, whereOf } from './list-filters.js';

export function listTestTakers(c: Call): Reply {
  const f = listFilters(c);
  if (c.auth.mode === 'test') {
    const team = f.teamId !== undefined ? teamOfAccount(c, f.teamId) : undefined;
    const fake = F.fakeTestTakerListItem(fakeCtx(c, team), f);
    return list(c, [c.minimal ? minimalTestTakerListItem(fake) : fake]);
  }
  const w = whereOf('x', f);
  return c.store.read(() => {
    const total = c.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM test_takers x WHERE x.account_id = ?${w.sql}`, c.auth.accountId, ...w.args)!.n;
    const rows = c.store.all<TestTakerListRow>(
      `SELECT x.*, t.display_name AS team_name, a.display_name AS account_name FROM test_takers x
       JOIN teams t ON t.id = x.team_id JOIN accounts a ON a.id = x.account_id
       WHERE x.account_id = ?${w.sql} ORDER BY x.created_at DESC, x.id DESC LIMIT ?`,
      c.auth.accountId,
      ...w.args,
      f.cap,
    );
    return list(c, rows.map((r) => (c.minimal ? minimalTestTakerListItem(testTakerListItem(r)) : testTakerListItem(r))), total);
  });
}

export function findTestTaker(c: Call, idText: string): TestTakerRow {
  const id = intId(idText);
  const row = id === null ? undefined : c.store.get<TestTakerRow>('SELECT * FROM test_takers WHERE id = ? AND account_id = ?', id, c.auth.accountId);
  if (!row) fail(MSG.testTakerNotFound);
  return row;
}

/** Test keys: the fake test taker's id, for any id in the path. */
export function testIdParam(c: Call): number {
  return intId(c.params[0]) ?? F.fakeId(c.params[0]);
}

export function getTestTaker(c: Call): Reply {
  if (c.auth.mode === 'test') return json(200, F.fakeTestTaker(fakeCtx(c), testIdParam(c)));
  return json(200, testTakerObject(c.store, findTestTaker(c, c.params[0]), 'live', c.origin));
}
