/**
 * `report --fairness` against a newer server whose invitation list items carry
 * the test taker's `assigned_assessments` (issue 46, item 6: the reference's
 * list items have none and the stub gives none; the client uses the field
 * when present and works without it). The fault server between the CLI and
 * the stub (`upstream`) adds the field to each list item from the stub's own
 * test taker, and records the requests: completion comes from the list, no
 * test taker is read, and the report is the one of the run without the field. A field of
 * another shape says nothing: every test taker is read as before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { type FaultServer, startFaultServer } from '../helpers/fault-server.js';
import { type StartedStub, startStub } from '../helpers/stub.js';
import { selfIdFileFor } from './self-id-for.js';

type Mode = 'as-is' | 'with-assigned' | 'other-shape';

let dir: string;
let stub: StartedStub;
let proxy: FaultServer | undefined;
let file: string;
let mode: Mode = 'as-is';
const seen: string[] = [];

/** The stub's answer to a GET, as JSON. */
async function upstream(path: string, headers: Record<string, string>): Promise<{ status: number; json: unknown }> {
  const up = await fetch(`${new URL(stub.url).origin}${path}`, { headers });
  return { status: up.status, json: await up.json() };
}

/** Each accepted invitation of a list answer with its test taker's assigned assessments (or, 'other-shape', a field that tells nothing). */
async function withAssigned(body: { data?: Array<Record<string, unknown>> }, headers: Record<string, string>): Promise<void> {
  const base = new URL(stub.url).pathname;
  for (const item of body.data ?? []) {
    if (typeof item.test_taker_id !== 'number') continue;
    if (mode === 'other-shape') {
      item.assigned_assessments = [{ id: 1, done: true }];
      continue;
    }
    const taker = (await upstream(`${base}/test-takers/${item.test_taker_id}`, headers)).json as { assigned_assessments: unknown };
    item.assigned_assessments = taker.assigned_assessments;
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-fair-listitem-'));
  const seeded = await runCli(['stub', 'seed', '--test-takers', '300', '--data', join(dir, 'stub')]);
  expect(seeded.code, seeded.stderr).toBe(0);
  stub = await startStub({ dataDir: join(dir, 'stub') });
  proxy = await startFaultServer({ upstream: new URL(stub.url).origin });
  proxy.faults.push((req) => {
    seen.push(`${req.method} ${req.url}`);
    return false;
  });
  proxy.rewrite = async (req, status, text) => {
    if (mode === 'as-is' || !/\/invitations(\?|$)/.test(req.url) || status !== 200) return text;
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<string, string>;
    const json = JSON.parse(text) as { data?: Array<Record<string, unknown>> };
    await withAssigned(json, headers);
    return JSON.stringify(json);
  };
  file = await selfIdFileFor(env(stub.url), dir);
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await stub?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function env(url: string) {
  return { JOBFIT_BASE_URL: url, JOBFIT_API_KEY: stub.keys[0].live_key };
}

interface Report {
  people: { with_a_row: number; completed: number };
  sections: Array<{ groups: Array<{ label: string; completed: number | null }> }>;
}

async function fairness(m: Mode): Promise<{ report: Report; takers: number; cards: number }> {
  mode = m;
  seen.length = 0;
  const url = `${proxy!.url}${new URL(stub.url).pathname}`;
  const r = await runCli(['report', '--sp', 'sales-rep', '--fairness', file, '--by', 'sex', '-o', 'json'], { env: env(url) });
  expect(r.code, r.stderr).toBe(0);
  return {
    report: JSON.parse(r.stdout) as Report,
    takers: seen.filter((x) => /^GET \S*\/test-takers\/\d+(\?\S*)?$/.test(x)).length,
    cards: seen.filter((x) => /^GET \S*\/test-takers\/\d+\/scorecard/.test(x)).length,
  };
}

const completion = (r: Report) => ({ people: r.people, groups: r.sections.map((s) => s.groups.map((g) => [g.label, g.completed])) });

it('completion from the list items when they carry assigned_assessments: no test taker read, the same report', async () => {
  const plain = await fairness('as-is');
  // The reference's list items: one test taker read per person beside the scorecard.
  expect(plain.takers).toBe(plain.cards);
  expect(plain.report.people.completed).toBeGreaterThan(0);
  expect(plain.report.people.completed).toBeLessThan(plain.report.people.with_a_row);

  const newer = await fairness('with-assigned');
  expect(newer.takers).toBe(0);
  expect(newer.cards).toBe(plain.cards);
  expect(completion(newer.report)).toEqual(completion(plain.report));
}, 120_000);

it('a field of another shape says nothing: every test taker is read, the same report', async () => {
  const plain = await fairness('as-is');
  const other = await fairness('other-shape');
  expect(other.takers).toBe(plain.takers);
  expect(completion(other.report)).toEqual(completion(plain.report));
}, 120_000);
