/**
 * Issue 42, item 2: every value from the service that reaches a page we write
 * is text, never markup. Every field of a job-fit report and of the group
 * report's data (numbers included: a server may send anything) is fed a
 * payload of each kind: markup with a script and a handler, a `javascript:`
 * and a `data:` link, a meta refresh to another page, a form, a `<base>`, and
 * CSS. Each page is opened in headless Chromium with scripts ON (as a reader
 * opens it) and its DOM is checked: nothing but our own elements, no script
 * ran, no navigation, no request, every link http(s), and the payload shown
 * as text. The CSP of both pages is read from the DOM.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ranking } from '../../src/commands/report/ranked.js';
import { type GroupReportPageData, renderGroupReportHtml } from '../../src/format/html/group-report.js';
import { createJobFitHtmlWriter } from '../../src/format/html/job-fit.js';
import { CSP } from '../../src/format/html/page.js';
import { memoryIO } from '../helpers/io.js';
import { skipBecause } from '../helpers/skip.js';
import report from '../format/job-fit-report.json' with { type: 'json' };

const CHROMIUM = '/usr/bin/chromium';
const EVIL = 'http://127.0.0.1:9';

const PAYLOADS: Record<string, string> = {
  markup: `<b class="pwned" id="pwned">x</b><script>window.__pwned=1</script><img src=x onerror="window.__pwned=1"><svg onload="window.__pwned=1">`,
  javascript: 'javascript:window.__pwned=1//',
  data: 'data:text/html,<script>window.__pwned=1</script>',
  'meta refresh': `<meta http-equiv="refresh" content="0;url=${EVIL}/refresh">`,
  form: `<form action="${EVIL}/form" class="pwned"><input name="q" autofocus><button>Send</button></form>`,
  base: `<base href="${EVIL}/">`,
  css: `</style><style>body{background:url(${EVIL}/css) red}</style><div class="pwned" style="background:url(${EVIL}/inline)">"'>`,
  attribute: `" onmouseover="window.__pwned=1" x="' autofocus onfocus='window.__pwned=1`,
};

/** A copy of a value with every string and number (keys kept) replaced by the payload. */
function poisoned<T>(v: T, payload: string): T {
  if (typeof v === 'string' || typeof v === 'number') return payload as T;
  if (v instanceof Date) return v;
  if (Array.isArray(v)) return v.map((x) => poisoned(x, payload)) as T;
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, poisoned(x, payload)])) as T;
  return v;
}

async function jobFitPage(payload: string): Promise<string> {
  const m = memoryIO({ tty: false });
  const w = createJobFitHtmlWriter({ io: m.io, globals: { color: false, quiet: true, verbose: false } }, { count: 1, generatedAt: new Date(0), source: payload, mode: payload }, () => []);
  w.write(poisoned({ ...report, scorecard_url: 'x', team: { id: 1, display_name: 'x' }, account: { id: 1, display_name: 'x' } }, payload));
  await w.end();
  return m.stdout();
}

function groupPage(payload?: string): string {
  const ranking = new Ranking(25);
  ranking.add('1', 7, { first_name: 'Ada', last_name: 'L', job_fit_percentage: 91, five_star_score: 5, riasec_profile: 'SEC', scorecard_url: 'https://app.example.com/sc/7' });
  const stats = { key: 1, name: 'Team', invited: 10, accepted: 8, completed: 6, stars: { '1': 1, '2': 1, '3': 1, '4': 2, '5': 1 }, median_job_fit_percentage: 55.5, top_riasec: [{ code: 'SEC', count: 3 }] };
  const data: GroupReportPageData = {
    scoreProfile: 'sales',
    groupBy: 'team',
    generatedAt: new Date(0),
    source: 's',
    account: 'a',
    mode: 'test',
    team: 1,
    top: 25,
    groups: [{ stats, ...ranking.group('1') }],
    total: { stats: { ...stats, key: null }, bins: ranking.totalBinsOf() },
  };
  return renderGroupReportHtml(payload === undefined ? data : poisoned(data, payload));
}

let dir: string;
let browser: BrowserContext | undefined;
const hasChromium = existsSync(CHROMIUM);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-html-payloads-'));
  if (hasChromium) {
    browser = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      javaScriptEnabled: true,
    });
  }
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Seen {
  url: string;
  navigations: number;
  requests: string[];
  dom: { tags: string[]; metas: string[]; styles: number; hrefs: string[]; handlers: string[]; pwned: number; ran: boolean; csp: string | null; text: string; background: string };
}

/** What the page's DOM holds, read in the page (a string: the test is compiled without the DOM's types). */
const DOM_PROBE = `(() => {
  const all = [...document.querySelectorAll('*')];
  return {
    tags: [...new Set(all.map((e) => e.localName))].sort(),
    metas: [...document.querySelectorAll('meta[http-equiv]')].map((m) => m.getAttribute('http-equiv') ?? ''),
    styles: document.querySelectorAll('style').length,
    hrefs: [...document.querySelectorAll('[href]')].map((a) => a.getAttribute('href') ?? ''),
    handlers: all.flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name) || a.name === 'style' || a.name === 'autofocus').map((a) => e.localName + '[' + a.name + ']')),
    pwned: document.querySelectorAll('.pwned, #pwned').length,
    ran: window.__pwned !== undefined,
    csp: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? null,
    text: document.body.textContent ?? '',
    background: getComputedStyle(document.body).backgroundColor,
  };
})()`;

async function open(name: string, page: string): Promise<Seen> {
  const file = join(dir, `${name.replace(/\W+/g, '-')}.html`);
  writeFileSync(file, page);
  const tab = await browser!.newPage();
  const requests: string[] = [];
  let navigations = 0;
  tab.on('request', (r) => {
    if (r.url() !== `file://${file}`) requests.push(r.url());
  });
  tab.on('framenavigated', (f) => {
    if (f === tab.mainFrame()) navigations++;
  });
  await tab.goto(`file://${file}`);
  // Time for a refresh of 0 s, an autofocus handler, a late request.
  await tab.waitForTimeout(600);
  const dom = (await tab.evaluate(DOM_PROBE)) as Seen['dom'];
  const url = tab.url();
  await tab.close();
  return { url, navigations, requests, dom };
}

/** Our pages' elements: nothing a stranger could add is among them. */
const OURS = new Set(['a', 'b', 'body', 'caption', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'h1', 'h2', 'h3', 'head', 'header', 'html', 'li', 'line', 'meta', 'ol', 'p', 'rect', 'section', 'span', 'strong', 'style', 'svg', 'table', 'tbody', 'td', 'text', 'th', 'thead', 'title', 'tr', 'ul']);

function expectInert(seen: Seen, file: string, payload: string): void {
  expect(seen.url).toBe(`file://${file}`);
  expect(seen.navigations).toBe(1);
  expect(seen.requests).toEqual([]);
  expect(seen.dom.tags.filter((t) => !OURS.has(t))).toEqual([]);
  expect(seen.dom.metas).toEqual(['Content-Security-Policy']);
  expect(seen.dom.styles).toBe(1);
  for (const h of seen.dom.hrefs) expect(h).toMatch(/^https?:\/\//);
  expect(seen.dom.handlers).toEqual([]);
  expect(seen.dom.pwned).toBe(0);
  expect(seen.dom.ran).toBe(false);
  expect(seen.dom.background).toBe('rgb(255, 255, 255)');
  // The payload is on the page as text (its first 20 characters, unbroken).
  expect(seen.dom.text).toContain(payload.slice(0, 20));
  expect(seen.dom.csp).toBe(CSP);
}

describe.skipIf(skipBecause(!hasChromium && 'the browser test needs /usr/bin/chromium (run .ci/setup-browser)'))('every field of both pages, each payload, in headless Chromium (issue 42)', () => {
  it("both pages' CSP forbids forms and <base> besides everything from outside", () => {
    expect(CSP).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'");
  });

  it.each(Object.entries(PAYLOADS))('the job-fit page, every field: %s', async (name, payload) => {
    const seen = await open(`job-fit ${name}`, await jobFitPage(payload));
    expectInert(seen, join(dir, `${`job-fit ${name}`.replace(/\W+/g, '-')}.html`), payload);
    // The one link a report has (its scorecard) is shown only for an http(s) URL.
    expect(seen.dom.hrefs).toEqual([]);
  }, 30_000);

  it.each(Object.entries(PAYLOADS))('the group report, every field: %s', async (name, payload) => {
    const seen = await open(`group ${name}`, groupPage(payload));
    expectInert(seen, join(dir, `${`group ${name}`.replace(/\W+/g, '-')}.html`), payload);
  }, 30_000);

  it('unpoisoned, the same page keeps its one scorecard link and draws the same elements', async () => {
    const seen = await open('group-plain', groupPage());
    expect(seen.dom.hrefs).toEqual(['https://app.example.com/sc/7']);
    expect(seen.dom.tags.filter((t) => !OURS.has(t))).toEqual([]);
    expect(seen.dom.csp).toBe(CSP);
  });
});
