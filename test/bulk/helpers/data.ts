/** Generated participant files and a look into the stub's own database. */
import { writeFileSync } from 'node:fs';
import { openStore } from '../../../src/stub/index.js';

import { DANA as INVITER } from '../../helpers/seeded.js';

export { INVITER };

/** A CSV of `n` participants with unique emails (tagged so runs do not collide) and an extra column. */
export function writePeople(path: string, n: number, tag: string): void {
  const teams = ['Retail Stores', '13', 'Head Office Recruiting', '14'];
  const parts = ['First Name,Last Name,Email,Team,Assessments,Notes\n'];
  for (let i = 1; i <= n; i++) {
    parts.push(`First${i},Last${i},p${i}.${tag}@example.com,${teams[i % 4]},"Personality, Interests",row ${i}\n`);
  }
  writeFileSync(path, parts.join(''));
}

/** Invitations in the stub whose email carries the tag: how many, how many distinct emails. */
export async function countInvitations(dataDir: string, tag: string): Promise<{ total: number; distinct: number }> {
  const store = await openStore(dataDir);
  try {
    const [r] = store.all<{ total: number; distinct: number }>(
      'SELECT COUNT(*) AS total, COUNT(DISTINCT email_lc) AS "distinct" FROM invitations WHERE email_lc LIKE ?',
      `%.${tag.toLowerCase()}@example.com`,
    );
    return r;
  } finally {
    store.close();
  }
}
