/**
 * Golden outputs (issue 48, item 4): the table, CSV and JSON of `invitations
 * list` and `test-takers list`, and the job-fit report rendered as HTML, from
 * data made with a fixed seed and read with a fixed clock. In-process, against
 * the reference server of our own (test/helpers/fault-server.ts), whose job-fit
 * report is the stub's pure scoring (src/stub/results.ts) of a fixed seed.
 * The data holds a stranger's text (an escape sequence, markup, a formula),
 * so the files also pin what each format does with it.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type FaultServer, faultEnv, send, startFaultServer } from '../helpers/fault-server.js';
import { runCli } from '../helpers/cli.js';
import { hashString, mulberry32 } from '../../src/stub/random.js';
import { jobFitReportObject } from '../../src/stub/results.js';
import { expectGolden } from './golden.js';

const NOW = new Date('2026-11-20T12:00:00.000Z');
const FIRST = ['Ada', 'Björn', 'Chiara', 'Dmitri', 'Eun-ji', 'Femi', '\x1b[31mRed', 'Zoë'];
const LAST = ['Okafor', 'Lindqvist', '<b>Bold</b>', 'Nakamura', "O'Brien", 'García', 'Støre', 'Müller'];
const CUSTOM = [null, 'ats-1042', '=HYPERLINK("http://x.example")', 'ats-2077', null, '+1-555'];

let server: FaultServer;

/** Twelve invitations, five accepted, from the seed "golden": names, teams and custom ids drawn, times fixed. */
function fill(s: FaultServer): void {
  const rnd = mulberry32(hashString('golden'));
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  for (let i = 0; i < 12; i++) {
    const first = pick(FIRST);
    const last = pick(LAST);
    const inv = s.create({ email: `${first.replace(/\W/g, '').toLowerCase() || 'x'}.${i}@example.com`, first, last, team: 1 + Math.floor(rnd() * 2), custom_id: pick(CUSTOM) });
    inv.created_at = new Date(Date.UTC(2026, 10, 1, 9) + i * 3_600_000).toISOString();
    if (i % 2 === 0 && i < 10) {
      s.accept(inv.id, true);
      inv.accepted_at = new Date(Date.parse(inv.created_at) + 86_400_000).toISOString();
    }
  }
}

/** GET /test-takers/:id/job-fit-report: the stub's report of that test taker, scored from a fixed seed. */
function jobFitReports(s: FaultServer): void {
  s.faults.push((req, res) => {
    const m = /^\/test-takers\/(\d+)\/job-fit-report$/.exec(req.path);
    const inv = m && s.invitations.find((i) => String(i.test_taker_id) === m[1]);
    if (!inv) return false;
    const team = { id: inv.team_id, display_name: inv.team_id === 1 ? 'Team One' : 'Team Two' };
    const report = jobFitReportObject(
      {
        test_taker_id: inv.test_taker_id!,
        invitation_id: inv.id,
        custom_id: inv.custom_id,
        person_id: null,
        career_navigation_profile_id: null,
        first_name: inv.first_name,
        last_name: inv.last_name,
        email: inv.email,
        phone: null,
        assessment_url: `https://take.example/a/${inv.id}`,
        career_navigation_url: null,
        scorecard_url: null,
        job_fit_summary_url: null,
        career_options_spotlight_url: null,
        team,
        account: { id: 1, display_name: 'Fault Co' },
        seed: `golden:${inv.test_taker_id}`,
        completed: [6, 7, 8],
      },
      'live',
    );
    return send(res, 200, report);
  });
}

beforeAll(async () => {
  server = await startFaultServer();
  fill(server);
  jobFitReports(server);
});
afterAll(() => server?.close());

async function stdoutOf(args: string[]): Promise<string> {
  const r = await runCli(args, { env: faultEnv(server), now: () => NOW, columns: 120 });
  if (r.code !== 0) throw new Error(`jobfit ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  // The one thing a run cannot fix: the server's port (0, chosen by the system).
  return r.stdout.replaceAll(new URL(server.url).origin, 'http://127.0.0.1:PORT');
}

describe('golden outputs', () => {
  for (const noun of ['invitations', 'test-takers'] as const) {
    for (const [format, ext] of [['table', 'txt'], ['csv', 'csv'], ['json', 'json']] as const) {
      it(`${noun} list -o ${format}`, async () => {
        expectGolden(`${noun}-list.${format === 'table' ? 'table.txt' : ext}`, await stdoutOf([noun, 'list', '--all', '-o', format]));
      });
    }
  }

  it('job-fit ID -o html', async () => {
    const ids = server.invitations.filter((i) => i.test_taker_id !== null).map((i) => String(i.test_taker_id));
    expectGolden('job-fit-report.html', await stdoutOf(['job-fit', ...ids.slice(0, 2), '-o', 'html']));
  });
});
