/**
 * The participant's page: what `assessment_url` (/take/<token>) shows. Plain
 * HTML forms (POST, then a 303 redirect back to the page), no JavaScript, so
 * it works in any browser, with a keyboard and with a screen reader. It drives
 * the same lifecycle functions as `jobfit stub accept` / `stub complete`, so
 * it produces the same events.
 *
 *   GET  /take/<token>                   start page: accept, or the list of assessments
 *   POST /take/<token>/accept            accept the invitation
 *   GET  /take/<token>/assessments/<id>  the questionnaire of one assigned assessment
 *   POST /take/<token>/assessments/<id>  submit it: the assessment is complete
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Questionnaire, missingAnswers, questionnaireOf } from './page/questions.js';
import { type Store, originOf } from './store.js';
import type { InvitationRow } from './views.js';

const LANGUAGES: Array<{ id: string; label: string }> = [
  { id: 'en', label: 'English' },
  { id: 'es', label: 'Español' },
  { id: 'fr', label: 'Français' },
  { id: 'de', label: 'Deutsch' },
];

const MAX_FORM_BYTES = 64 * 1024;

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

const STYLE = `
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1b1b1b;background:#f6f7f9}
main{max-width:42rem;margin:2rem auto;padding:1.5rem 2rem;background:#fff;border:1px solid #d8dbe0;border-radius:8px}
h1{font-size:1.6rem;margin-top:0}h2{font-size:1.2rem}
button{font:inherit;padding:.55rem 1.1rem;border-radius:6px;border:1px solid #0b5cad;background:#0b5cad;color:#fff;cursor:pointer}
button:focus-visible,a:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #f0b400;outline-offset:2px}
a{color:#0b5cad}
fieldset{border:1px solid #d8dbe0;border-radius:6px;margin:0 0 1rem;padding:.5rem 1rem 1rem}
legend{font-weight:600;padding:0 .3rem}
label.choice{display:block;padding:.15rem 0}
ul.assessments{list-style:none;padding:0}ul.assessments li{display:flex;justify-content:space-between;align-items:center;gap:1rem;padding:.6rem 0;border-bottom:1px solid #eceef1}
.done{color:#1c6b2a;font-weight:600}
.notice{background:#eaf5ec;border:1px solid #9fcfa8;padding:.6rem 1rem;border-radius:6px}
.error{background:#fdecea;border:1px solid #e8a39b;padding:.6rem 1rem;border-radius:6px}
.muted{color:#5b616b;font-size:.9rem}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;

export function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  });
  res.end(html);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, 'cache-control': 'no-store', 'content-length': '0' });
  res.end();
}

function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_FORM_BYTES) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_FORM_BYTES ? undefined : new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

interface Assigned {
  id: number;
  test_id: number;
  completed_at: string | null;
}

interface PageState {
  inv: InvitationRow;
  teamName: string;
  inviter: string | null;
  assigned: Assigned[];
  /** Display names of the invitation's assessments (before acceptance). */
  invited: Array<{ id: number; display_name: string }>;
  profileUrl: string | null;
}

async function loadState(store: Store, token: string): Promise<PageState | undefined> {
  const { assessmentRef, invitationTests, careerNavigationUrl } = await import('./views.js');
  const inv = store.get<InvitationRow>('SELECT * FROM invitations WHERE token = ?', token);
  if (!inv) return undefined;
  const team = store.get<{ display_name: string }>('SELECT display_name FROM teams WHERE id = ?', inv.team_id);
  const user =
    inv.invited_by_user_id === null
      ? undefined
      : store.get<{ first_name: string; last_name: string }>('SELECT first_name, last_name FROM users WHERE id = ?', inv.invited_by_user_id);
  const assigned =
    inv.test_taker_id === null
      ? []
      : store.all<Assigned>('SELECT id, test_id, completed_at FROM assigned_assessments WHERE test_taker_id = ? ORDER BY position', inv.test_taker_id);
  const profile =
    inv.test_taker_id === null ? undefined : store.get<{ id: string }>('SELECT id FROM career_navigation_profiles WHERE test_taker_id = ?', inv.test_taker_id);
  return {
    inv,
    teamName: team?.display_name ?? '',
    inviter: user ? `${user.first_name} ${user.last_name}` : null,
    assigned,
    invited: invitationTests(store, inv.id).map((t) => ({ id: t, display_name: assessmentRef(t).display_name })),
    profileUrl: profile ? careerNavigationUrl(originOf(store), profile.id) : null,
  };
}

function assessmentName(id: number, s: PageState): string {
  return s.invited.find((a) => a.id === id)?.display_name ?? `Assessment ${id}`;
}

function startPage(token: string, s: PageState, notice?: string): string {
  const t = escapeHtml(token);
  const who = escapeHtml(s.inv.first_name);
  const from = s.inviter ? ` by ${escapeHtml(s.inviter)}` : '';
  const team = s.teamName ? ` (${escapeHtml(s.teamName)})` : '';
  const note = notice ? `<p class="notice" role="status">${escapeHtml(notice)}</p>\n` : '';
  if (!s.inv.accepted_at) {
    const items = s.invited.map((a) => `<li>${escapeHtml(a.display_name)}</li>`).join('\n');
    return layout(
      'Your assessments: accept the invitation',
      `<h1>Welcome, ${who}</h1>
${note}<p>You have been invited${from}${team} to take ${s.invited.length === 1 ? 'an assessment' : `${s.invited.length} assessments`}:</p>
<ul>
${items}
</ul>
<p>Each one takes a few minutes. You can stop after any of them and come back to this page later.</p>
<form method="post" action="/take/${t}/accept">
<button type="submit">Accept the invitation</button>
</form>
<p class="muted">This is the local stub of the service: nothing leaves this computer.</p>`,
    );
  }
  const open = s.assigned.filter((a) => a.completed_at === null);
  const rows = s.assigned
    .map((a) => {
      const name = escapeHtml(assessmentName(a.test_id, s));
      const action = a.completed_at
        ? `<span class="done">Completed</span>`
        : `<a href="/take/${t}/assessments/${a.test_id}">Start <span class="visually-hidden">${name}</span></a>`;
      return `<li><span>${name}</span> ${action}</li>`;
    })
    .join('\n');
  const finished =
    open.length === 0
      ? `<h2>All done</h2>
<p>Thank you, ${who}. You have completed every assessment. Your results have been sent${from ? ` to ${escapeHtml(s.inviter ?? '')}` : ''}.</p>
${s.profileUrl ? `<p><a href="${escapeHtml(s.profileUrl)}">Explore careers that match your interests</a></p>` : ''}`
      : `<p>${open.length} of ${s.assigned.length} still to do.</p>`;
  return layout(
    open.length === 0 ? 'Your assessments: all done' : 'Your assessments',
    `<h1>Your assessments</h1>
${note}<ul class="assessments" aria-label="Assigned assessments">
${rows}
</ul>
${finished}`,
  );
}

function assessmentPage(token: string, s: PageState, q: Questionnaire, opts: { missing?: string[]; answers?: URLSearchParams } = {}): string {
  const t = escapeHtml(token);
  const name = escapeHtml(assessmentName(q.testId, s));
  const index = s.assigned.findIndex((a) => a.test_id === q.testId) + 1;
  const missing = new Set(opts.missing ?? []);
  const error =
    missing.size > 0
      ? `<div class="error" role="alert" id="form-error"><p>Please answer every question: ${missing.size} ${missing.size === 1 ? 'is' : 'are'} missing.</p></div>\n`
      : '';
  const fields = q.questions
    .map((item, i) => {
      const chosen = opts.answers?.get(item.name);
      const err = missing.has(item.name) ? ' aria-invalid="true"' : '';
      const choices = item.choices
        .map(
          (c) =>
            `<label class="choice"><input type="radio" name="${item.name}" value="${escapeHtml(c.value)}" required${chosen === c.value ? ' checked' : ''}> ${escapeHtml(c.label)}</label>`,
        )
        .join('\n');
      return `<fieldset${err}>
<legend>${i + 1}. ${escapeHtml(item.text)}</legend>
${choices}
</fieldset>`;
    })
    .join('\n');
  const langs = LANGUAGES.map((l) => `<option value="${l.id}"${(opts.answers?.get('language') ?? 'en') === l.id ? ' selected' : ''}>${escapeHtml(l.label)}</option>`).join('');
  return layout(
    `${assessmentName(q.testId, s)}: assessment ${index} of ${s.assigned.length}`,
    `<p><a href="/take/${t}">Back to your assessments</a></p>
<h1>${name}</h1>
<p class="muted">Assessment ${index} of ${s.assigned.length}</p>
${error}<p>${escapeHtml(q.intro)}</p>
<form method="post" action="/take/${t}/assessments/${q.testId}">
<p><label for="language">Language</label>
<select id="language" name="language">${langs}</select></p>
${fields}
<button type="submit">Submit ${name}</button>
</form>`,
  );
}

function notFound(res: ServerResponse): void {
  sendHtml(
    res,
    404,
    layout(
      'Invitation not found',
      `<h1>This link does not work</h1>
<p>We could not find an invitation for this link. Check that you copied the whole link from your invitation, or ask the person who invited you for a new one.</p>`,
    ),
  );
}

/**
 * Serves /take/... requests. Returns false for any other path, so the server's
 * dispatch can fall through to the API routes.
 */
export async function handleParticipantPage(store: Store, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://stub.invalid');
  const m = /^\/take\/([A-Za-z0-9_-]{1,100})(?:\/(accept|assessments\/(\d+)))?\/?$/.exec(url.pathname);
  if (!url.pathname.startsWith('/take/')) return false;
  if (!m) {
    notFound(res);
    return true;
  }
  const token = m[1];
  const action = m[2];
  const testId = m[3] === undefined ? undefined : Number(m[3]);
  const method = req.method ?? 'GET';
  const allowed = action === 'accept' ? ['POST'] : action ? ['GET', 'HEAD', 'POST'] : ['GET', 'HEAD'];
  if (!allowed.includes(method)) {
    res.writeHead(405, { 'content-type': 'text/plain; charset=utf-8', allow: allowed.join(', ') });
    res.end('Method not allowed\n');
    return true;
  }
  const state = await loadState(store, token);
  if (!state) {
    notFound(res);
    return true;
  }
  const { accept, complete, LifecycleError } = await import('./lifecycle.js');
  const { kickDeliveries } = await import('./webhooks/deliver.js');
  const home = `/take/${token}`;

  if (!action) {
    const done = url.searchParams.get('completed');
    const notice = url.searchParams.has('accepted')
      ? 'Thank you for accepting. Start with the first assessment below.'
      : done
        ? `${assessmentName(Number(done), state)} is complete.`
        : undefined;
    sendHtml(res, 200, startPage(token, state, notice));
    return true;
  }

  if (action === 'accept') {
    await readForm(req);
    if (!state.inv.accepted_at) {
      try {
        accept(store, state.inv.id);
        kickDeliveries(store);
      } catch (err) {
        // Two tabs accepting at once: the other one won, which is fine.
        if (!(err instanceof LifecycleError)) throw err;
      }
    }
    redirect(res, `${home}?accepted=1`);
    return true;
  }

  // An assessment.
  const q = testId === undefined ? undefined : questionnaireOf(testId);
  const assigned = state.assigned.find((a) => a.test_id === testId);
  if (!state.inv.accepted_at || !q || !assigned) {
    redirect(res, home);
    return true;
  }
  if (method !== 'POST') {
    if (assigned.completed_at) redirect(res, home);
    else sendHtml(res, 200, assessmentPage(token, state, q));
    return true;
  }
  const form = await readForm(req);
  if (!form) {
    sendHtml(res, 413, assessmentPage(token, state, q, { missing: q.questions.map((x) => x.name) }));
    return true;
  }
  const missing = missingAnswers(q, form);
  if (missing.length > 0) {
    sendHtml(res, 400, assessmentPage(token, state, q, { missing, answers: form }));
    return true;
  }
  const language = LANGUAGES.some((l) => l.id === form.get('language')) ? (form.get('language') as string) : 'en';
  if (!assigned.completed_at && state.inv.test_taker_id !== null) {
    try {
      complete(store, state.inv.test_taker_id, { assessment: q.alias, language });
      kickDeliveries(store);
    } catch (err) {
      // Submitted twice (back button, double click): the first submission counts.
      if (!(err instanceof LifecycleError)) throw err;
    }
  }
  redirect(res, `${home}?completed=${q.testId}`);
  return true;
}

/** The shape of startStub's `pages` option: the participant page, then the result pages of scorecard_url and job_fit_summary_url (results-page.ts). */
export const participantPages = async (req: IncomingMessage, res: ServerResponse, store: Store): Promise<boolean> => {
  if (await handleParticipantPage(store, req, res)) return true;
  if (!(req.url ?? '').startsWith('/results/')) return false;
  const { handleResultsPage } = await import('./results-page.js');
  return handleResultsPage(store, req, res, `http://${req.headers.host ?? '127.0.0.1'}`);
};
