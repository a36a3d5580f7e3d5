import { generatePeople } from '../../src/stub/people.js';
import { listAll } from '../../src/export/complete-list.js';
import { fakeList } from '../../test/export/fake-list.js';
for (const n of [40, 120, 1000, 3000, 10000, 100000]) {
  const people = generatePeople(n, { seed: 's' + n });
  const items = people.map((p, i) => ({ id: i + 1, email: p.email, team_id: 1 + (i % 5), custom_id: p.custom_id }));
  const { fetchPage } = fakeList(items);
  let c = 0;
  const t = Date.now();
  const r = await listAll(fetchPage, {}, () => { c++; });
  console.log(n, r, c, Date.now() - t, 'ms', (r.requests / r.minimum).toFixed(2));
}
