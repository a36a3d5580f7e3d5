/**
 * Writes fixtures/fairness/self-id.csv: a synthetic self-identification file
 * for the stub as `jobfit stub seed --test-takers 2000` leaves it (a fresh
 * stub, account 1: the 180 people of the seed and the 2,000 seeded ones).
 * People are joined by email, as an employer's HR system would.
 *
 *   npx tsx test/fairness/make-self-id.ts > fixtures/fairness/self-id.csv
 *
 * Everything is made up and deterministic (a hash of the email draws each
 * answer). So that the report has something to find, a disparity is planted:
 * people whose job fit for sales-rep is at or below the median are drawn as
 * "Hispanic or Latino" more often. Also planted, to show how each is
 * reported: blanks and "Decline to self-identify" (undisclosed), a race of
 * about 1% (left out by --exclude-under 2%), one of three people (shown as
 * "fewer than 5"), 90 invited people with no row, 12 rows matching nobody,
 * and 2 repeated rows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStub } from '../helpers/stub.js';
import { runCli } from '../helpers/cli.js';

const u = (email: string, salt: string): number => createHash('sha256').update(`${salt}:${email}`).digest().readUInt32BE(0) / 2 ** 32;

function pick(x: number, table: Array<[string, number]>): string {
  let acc = 0;
  for (const [v, w] of table) {
    acc += w;
    if (x < acc) return v;
  }
  return table[table.length - 1][0];
}

const SEX: Array<[string, number]> = [
  ['Female', 0.49],
  ['Male', 0.47],
  ['', 0.02],
  ['Decline to self-identify', 0.02],
];
const RACE_HIGH: Array<[string, number]> = [
  ['White', 0.42],
  ['Black or African American', 0.17],
  ['Hispanic or Latino', 0.1],
  ['Asian', 0.15],
  ['Two or More Races', 0.09],
  ['American Indian or Alaska Native', 0.012],
  ['Decline to self-identify', 0.058],
];
const RACE_LOW: Array<[string, number]> = [
  ['White', 0.35],
  ['Black or African American', 0.15],
  ['Hispanic or Latino', 0.25],
  ['Asian', 0.1],
  ['Two or More Races', 0.07],
  ['American Indian or Alaska Native', 0.012],
  ['Decline to self-identify', 0.068],
];

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'jobfit-selfid-'));
  try {
    const seeded = await runCli(['stub', 'seed', '--test-takers', '2000', '--data', join(dir, 'stub')]);
    if (seeded.code !== 0) throw new Error(seeded.stderr);
    const stub = await startStub({ dataDir: join(dir, 'stub') });
    const env = { JOBFIT_BASE_URL: stub.url, JOBFIT_API_KEY: stub.keys[0].live_key };
    try {
      const inv = await runCli(['invitations', 'list', '--all', '-o', 'json'], { env });
      const sc = await runCli(['scorecard', '--all', '--sp', 'sales-rep', '-o', 'json'], { env });
      if (inv.code !== 0 || sc.code !== 0) throw new Error(inv.stderr + sc.stderr);
      const listed = JSON.parse(inv.stdout) as { data: Array<{ email: string }> } | Array<{ email: string }>;
      const invitations = Array.isArray(listed) ? listed : listed.data;
      const cards = JSON.parse(sc.stdout) as Array<{ email: string | null; job_fit_percentage: number | null }>;
      const fit = new Map(cards.map((c) => [String(c.email).toLowerCase(), c.job_fit_percentage]));
      const fits = [...fit.values()].filter((v): v is number => typeof v === 'number').sort((a, b) => a - b);
      const median = fits.length % 2 ? fits[fits.length >> 1] : (fits[fits.length / 2 - 1] + fits[fits.length / 2]) / 2;
      const lines = ['Self-identification (synthetic),,,', 'Exported for the adverse-impact analysis,,,', 'Email,Sex,Race/Ethnicity,Veteran'];
      const emails = [...new Set(invitations.map((i) => i.email.toLowerCase()))].sort();
      let pacific = 0;
      const rows: string[] = [];
      for (const email of emails) {
        if (u(email, 'norow') < 0.041) continue;
        const f = fit.get(email);
        const low = typeof f === 'number' && f <= median;
        let race = pick(u(email, 'race'), low ? RACE_LOW : RACE_HIGH);
        if (pacific < 3 && u(email, 'pacific') < 0.01) {
          race = 'Native Hawaiian or Other Pacific Islander';
          pacific++;
        }
        rows.push(`${email},${pick(u(email, 'sex'), SEX)},${race},${u(email, 'vet') < 0.07 ? 'Yes' : 'No'}`);
      }
      for (let i = 1; i <= 12; i++) rows.push(`former.applicant${i}@example.org,${i % 2 ? 'Female' : 'Male'},White,No`);
      rows.push(rows[10], rows[20]);
      process.stdout.write(`${[...lines, ...rows].join('\r\n')}\r\n`);
    } finally {
      await stub.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
