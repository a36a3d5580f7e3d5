// In-memory simulation of the complete-list engines on the stub's generator
// (the service's rules on a list in memory): `npx tsx bench/export/sim.mts`.
// For each size: the adaptive search on items that carry an email, and the
// path for items without one (the invitations' complete list, then the
// planned patterns), with requests beside the minimum ceil(N / 150).
import { listComplete, minimumRequests } from '../../src/listing/complete-list.js';
import { listTestTakersComplete } from '../../src/listing/guided-list.js';
import { generatePeople } from '../../src/stub/people.js';
import { fakeList } from '../../test/listing/fake-list.js';

const sizes = (process.argv[2] ?? '1000,3000,10000,100000').split(',').map(Number);
for (const n of sizes) {
  const people = generatePeople(n, { seed: `s${n}` });
  const items = people.map((p, i) => ({ id: i + 1, email: p.email, team_id: 1 + (i % 5), custom_id: p.custom_id }));
  const min = minimumRequests(n);
  const t = Date.now();
  const adaptive = await listComplete(fakeList(items).fetchPage, {}, () => {});
  const invitations = items.map((it) => ({ ...it, test_taker_id: it.id + 1_000_000 }));
  const takers = fakeList(items.map((it) => ({ ...it, id: it.id + 1_000_000 })));
  const hidden = async (q: Parameters<typeof takers.fetchPage>[0]) => {
    const env = await takers.fetchPage(q);
    return { ...env, data: env.data.map((it) => ({ id: it.id })) };
  };
  const strict = await listTestTakersComplete(hidden, fakeList(invitations).fetchPage, {}, () => {});
  console.log(
    `${n}: minimum ${min}; with emails ${adaptive.requests} (${(adaptive.requests / min).toFixed(2)}x); ` +
      `without ${strict.requests} (${(strict.requests / min).toFixed(2)}x); ${Date.now() - t} ms`,
  );
}
