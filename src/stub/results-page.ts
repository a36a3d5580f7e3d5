/**
 * The pages behind a test taker's `scorecard_url` and `job_fit_summary_url`
 * on `stub serve` (/results/<token>/scorecard, /results/<token>/job-fit-summary):
 * the stub's own rendering of the same data the API routes answer, so the
 * links of a report or a `--web` work offline. Plain HTML, no script (the
 * participant page's layout and headers, page.ts). A token the stub does not
 * know, or a result not ready yet, is a page that says so.
 *
 *   GET /results/<token>/scorecard[?sp=SHORT]   the scorecard for each of the account's score profiles (or SHORT)
 *   GET /results/<token>/job-fit-summary        RIASEC, top interests and traits, the top fit occupations
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JobFitReport, Scorecard } from '../api/schemas.js';
import { SCORE_PROFILES } from './catalog-content.js';
import { escapeHtml as h, layout, sendHtml } from './page.js';
import { jobFitReportObject, scorecardObject } from './results.js';
import { subjectFor } from './routes/results.js';
import type { Store } from './store.js';
import type { TestTakerRow } from './views.js';

const PATH = /^\/results\/([A-Za-z0-9_-]{1,100})\/(scorecard|job-fit-summary)\/?$/;

function notReady(res: ServerResponse, status: number, title: string, text: string): void {
  sendHtml(res, status, layout(title, `<h1>${h(title)}</h1>\n<p>${h(text)}</p>`));
}

const stars = (n: number | null) => (n === null ? '–' : `${'★'.repeat(n)}${'☆'.repeat(5 - n)}`);
const who = (r: { first_name: string | null; last_name: string | null; email: string | null }) => `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() + (r.email ? ` <${r.email}>` : '');

function scorecardBody(cards: Scorecard[]): string {
  const first = cards[0];
  const rows = cards
    .map((c) => `<tr><td>${h(c.score_profile?.display_name ?? '')} (<code>${h(c.score_profile?.short_name ?? '')}</code>)</td><td>${h(stars(c.five_star_score))}</td><td>${c.job_fit_percentage === null ? '–' : `${c.job_fit_percentage}%`}</td></tr>`)
    .join('\n');
  const dims = Object.entries(first.scores)
    .flatMap(([section, list]) => (list ?? []).map((d) => `<tr><td>${h(section.replaceAll('_', ' '))}</td><td>${h(d.display_name)}</td><td>${d.test_taker_score ?? '–'}</td></tr>`))
    .join('\n');
  return [
    `<h1>Scorecard</h1>`,
    `<p>${h(who(first))} · test taker ${first.test_taker_id} · RIASEC ${h(first.riasec_profile ?? '–')}</p>`,
    `<h2>Fit by score profile</h2>`,
    `<table><thead><tr><th>Score profile</th><th>Stars</th><th>Job fit</th></tr></thead><tbody>\n${rows}\n</tbody></table>`,
    dims ? `<h2>Scores</h2>\n<table><thead><tr><th>Section</th><th>Dimension</th><th>Score</th></tr></thead><tbody>\n${dims}\n</tbody></table>` : '<p class="muted">No assessment is complete yet.</p>',
    `<p class="muted">Served by the local stub from the same data as <code>GET /test-takers/${first.test_taker_id}/scorecard</code>.</p>`,
  ].join('\n');
}

function jobFitBody(r: JobFitReport): string {
  const interests = r.career_interests_profile.map((i) => `<li>${i.rank}. ${h(i.display_name)}</li>`).join('');
  const traits = r.personality_traits_profile.map((t) => `<li>${t.rank}. ${h(t.display_name)}</li>`).join('');
  const jobs = r.top_fit_occupations
    .map((o) => `<tr><td>${o.rank}</td><td>${h(o.job_family_name)}</td><td>${o.job_fit_percentage}%</td><td>${h(stars(o.job_fit_star_rating))}</td></tr>`)
    .join('\n');
  return [
    `<h1>Job-fit summary</h1>`,
    `<p>${h(who(r))} · test taker ${r.test_taker_id} · ${h(r.team.display_name)}</p>`,
    `<p>RIASEC code <strong>${h(r.riasec_profile)}</strong> (the three strongest of Realistic, Investigative, Artistic, Social, Enterprising, Conventional interests)</p>`,
    `<h2>Top career interests</h2><ol class="plain">${interests}</ol>`,
    `<h2>Top personality traits</h2><ol class="plain">${traits}</ol>`,
    `<h2>Top fit occupations</h2>`,
    `<table><thead><tr><th>#</th><th>Job family</th><th>Fit</th><th>Stars</th></tr></thead><tbody>\n${jobs}\n</tbody></table>`,
    `<p class="muted">Served by the local stub from the same data as <code>GET /test-takers/${r.test_taker_id}/job-fit-report</code>.</p>`,
  ].join('\n');
}

/** Serves /results/... requests; false for any other path. */
export function handleResultsPage(store: Store, req: IncomingMessage, res: ServerResponse, origin: string): boolean {
  const url = new URL(req.url ?? '/', 'http://stub.invalid');
  if (!url.pathname.startsWith('/results/')) return false;
  const m = PATH.exec(url.pathname);
  if (!m || !['GET', 'HEAD'].includes(req.method ?? 'GET')) {
    notReady(res, 404, 'This link does not work', 'The local stub has no result page here. Check the link, or ask for a new one.');
    return true;
  }
  const inv = store.get<{ test_taker_id: number | null; account_id: number }>('SELECT test_taker_id, account_id FROM invitations WHERE token = ?', m[1]);
  const tt = inv?.test_taker_id == null ? undefined : store.get<TestTakerRow>('SELECT * FROM test_takers WHERE id = ?', inv.test_taker_id);
  if (!inv || !tt) {
    notReady(res, 404, 'No results yet', 'This invitation has not been accepted, so it has no results yet.');
    return true;
  }
  const subject = subjectFor(store, origin, tt);
  if (m[2] === 'job-fit-summary') {
    const report = jobFitReportObject(subject, 'live');
    if (!report) notReady(res, 404, 'Job-fit summary not ready', 'The job-fit summary needs the Personality Traits and Career Interests assessments complete.');
    else sendHtml(res, 200, layout(`Job-fit summary: ${who(report)}`, jobFitBody(report)));
    return true;
  }
  const enabled = new Set(store.all<{ score_profile_id: number }>('SELECT score_profile_id FROM account_score_profiles WHERE account_id = ?', inv.account_id).map((r) => r.score_profile_id));
  const sp = url.searchParams.get('sp');
  const profiles = SCORE_PROFILES.filter((p) => enabled.has(p.id) && (sp === null || p.short_name === sp));
  if (profiles.length === 0) {
    notReady(res, 404, 'No such score profile', 'The account has no score profile of that name.');
    return true;
  }
  const cards = profiles.map((p) => scorecardObject(subject, p, 'live'));
  sendHtml(res, 200, layout(`Scorecard: ${who(cards[0])}`, scorecardBody(cards)));
  return true;
}
