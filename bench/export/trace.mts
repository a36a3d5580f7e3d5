import { generatePeople } from '../../src/stub/people.js';
import { listAll } from '../../src/export/complete-list.js';
import { fakeList } from '../../test/export/fake-list.js';
const n = Number(process.argv[2]);
const people = generatePeople(n, { seed: 's' + n });
const items = people.map((p, i) => ({ id: i + 1, email: p.email, team_id: 1 + (i % 5), custom_id: p.custom_id }));
const { fetchPage } = fakeList(items);
const r = await listAll(fetchPage, {}, () => {}, { onRequest: (q, a) => console.log(q.email, a.total, a.returned) });
console.log(r);
