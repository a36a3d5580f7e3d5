/**
 * docs/openapi.json against tools nobody here wrote: Redocly's linter must
 * find 0 errors, and every answer of the stub (every route, success and error,
 * live and test keys) must validate, with Ajv (JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1), against the document's schema for its route and
 * status. The committed file must be what `npm run openapi` writes today.
 */
import { fileURLToPath } from 'node:url';
import { createConfig, lint } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../src/api/messages.js';
import { renderOpenApi } from '../../src/api/openapi.js';
import { ROUTES, type RouteName } from '../../src/api/routes.js';
import type { RunningStub } from '../../src/stub/index.js';
import { type StartedStub, startStub } from '../helpers/stub.js';
import { type Answer, type Case, DOC_URL, type Request, type SeedPicks, cases, pickSeed, runCases, send, toExamples } from '../../scripts/openapi.js';
import { ajv, committed, doc, operations, responseValidator, schemaAt, violation } from './contract.js';
import { DANA } from '../helpers/seeded.js';

function expectValid(operationId: string, request: Request, answer: Answer): void {
  const what = `${request.method} ${request.path} → ${answer.status} ${answer.text.slice(0, 120)}`;
  expect(violation(operationId, answer.status, answer.contentType, answer.text), what).toBeNull();
}

let stub: RunningStub;
let started: StartedStub | undefined;
let since: number;
let results: Array<{ case: Case; answer: Answer }>;
let picks: SeedPicks;

beforeAll(async () => {
  since = Date.now();
  started = await startStub({ server: { publishOrigin: false } });
  stub = started.server!;
  results = await runCases(stub);
  picks = await pickSeed(stub);
});
afterAll(async () => {
  await started?.stop();
});

describe('docs/openapi.json', () => {
  it('is what `npm run openapi` writes today (run it when this fails)', () => {
    expect(committed).toBe(renderOpenApi(toExamples(results, since)));
  });

  it('lints with 0 errors (Redocly, recommended rules)', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lint({ ref: fileURLToPath(DOC_URL), config });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  });

  it('has every route of the route table; only the healthcheck takes no key', () => {
    expect([...operations.keys()].sort()).toEqual(Object.keys(ROUTES).sort());
    for (const [name, route] of Object.entries(ROUTES)) {
      const [path, method] = operations.get(name)!;
      expect(doc.paths[path][method].security, name).toEqual(route.auth ? [{ bearer: [] }] : []);
    }
  });

  it('every answer of the stub to the documented cases validates against the document', () => {
    for (const { case: c, answer } of results) expectValid(c.operationId, c.request, answer);
  });

  it('every route documents a success, and every keyed route both key errors', () => {
    for (const [name, route] of Object.entries(ROUTES) as Array<[RouteName, (typeof ROUTES)[RouteName]]>) {
      const mine = results.filter((r) => r.case.operationId === name);
      expect(mine.some((r) => r.case.status === route.status), name).toBe(true);
      if (route.auth) {
        const keyErrors = mine.filter((r) => r.case.status === 404 && r.case.request.key !== undefined).map((r) => r.answer.body);
        expect(keyErrors, name).toEqual([{ error: MSG.apiKeyRequired }, { error: MSG.accountNotFound }]);
      }
    }
  });

  it("documents every message of the service, verbatim, as an example (or in the document's description)", () => {
    const examples = new Set<string>();
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        for (const r of Object.values(op.responses)) {
          for (const ex of Object.values(r.content?.['application/json']?.examples ?? {})) {
            const e = (ex.value as { error?: unknown } | null)?.error;
            for (const m of Array.isArray(e) ? e : [e]) if (typeof m === 'string') examples.add(m);
          }
        }
      }
    }
    const text = [...examples].join('\n');
    // Answers of the HTTP layer rather than of a route (unknown path, method, oversized body, a disk that
    // cannot store) are described once in info.description.
    const inDescription = new Set(['notFound', 'methodNotAllowed', 'bodyTooLarge', 'notStored']);
    for (const [key, m] of Object.entries(MSG)) {
      if (inDescription.has(key)) {
        expect(doc.info.description, key).toContain(typeof m === 'function' ? (m as (x: never) => string)('\u0000' as never).split('\u0000')[0] : m);
      } else if (typeof m === 'function') {
        // The message around its argument: its fixed part must be in some example.
        const [head, tail] = (m as (x: never) => string)('\u0000' as never).split('\u0000');
        expect([...examples].some((e) => e.startsWith(head) && e.endsWith(tail)), key).toBe(true);
      } else {
        expect(text, key).toContain(m);
      }
    }
  });

  it('the validator is not vacuous: null is accepted only where the schema says nullable', () => {
    const ok = results.find((r) => r.case.operationId === 'getInvitation' && r.case.name === 'pending')!.answer.body as Record<string, unknown>;
    const validate = responseValidator('getInvitation', 200)!;
    expect(validate({ ...ok, invited_by_user: null, target_score_profile: null })).toBe(true);
    expect(validate({ ...ok, team: null })).toBe(false);
    expect(validate({ ...ok, id: '1' })).toBe(false);
    expect(validate({ ...ok, extra: 1 })).toBe(false);
    const { email: _omitted, ...missing } = ok;
    expect(validate(missing)).toBe(false);
    expect(responseValidator('getCareerNavigationProfile', 404)!(null)).toBe(true);
    expect(responseValidator('getInvitation', 400)!(null)).toBe(false);
  });

  it('the request bodies of the documented successes validate against the request schemas', () => {
    for (const { case: c } of results.filter((r) => r.case.status < 300 && r.case.request.body !== undefined)) {
      const [path, method] = operations.get(c.operationId)!;
      const validate = schemaAt('paths', path, method, 'requestBody', 'content', 'application/json', 'schema');
      expect(validate(c.request.body), `${c.name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
  });

  it('the answers to a test key, to the second account and to filtered lists validate too', async () => {
    const [, a2] = stub.keys;
    const extra: Array<[RouteName, Request]> = [];
    // Every documented success again with the test key: fakes, or the real catalog.
    for (const c of cases(picks).filter((x) => x.status < 300)) {
      extra.push([c.operationId, { ...c.request, key: picks.test }]);
      if (c.request.method === 'GET') extra.push([c.operationId, { ...c.request, key: a2.live_key }]);
    }
    extra.push(
      ['listInvitations', { method: 'GET', path: '/invitations?team_id=12' }],
      ['listInvitations', { method: 'GET', path: '/invitations?email=%40' }],
      ['listTestTakers', { method: 'GET', path: '/test-takers?team_id=13&custom_id=REQ' }],
      ['getInvitation', { method: 'GET', path: '/invitations/abc' }],
      ['getCareerNavigationProfile', { method: 'GET', path: '/career-navigation-profiles/cnp_doesnotexist', key: picks.test }],
      ['createInvitation', { method: 'POST', path: '/invitations', body: { first_name: 'Kit', last_name: 'Moreau', email: 'kit.moreau@example.com', created_by_user_email: DANA, phone: '+44 7400 123456', send_via_sms: true, custom_id: 'C-9', person_id: 'P-9', ref_text: 'r', team_id: 13, assessments_to_assign: [{ test_id: 7 }], email_template_id: 303 } }],
    );
    // Every test taker and invitation of the first page, with every enabled score profile's scorecard.
    const tts = (await send(stub, { method: 'GET', path: '/test-takers' })).body as { data: Array<{ id: number; invitation_id: number }> };
    for (const t of tts.data) {
      extra.push(['getTestTaker', { method: 'GET', path: `/test-takers/${t.id}` }]);
      extra.push(['getInvitation', { method: 'GET', path: `/invitations/${t.invitation_id}` }]);
      extra.push(['getJobFitReport', { method: 'GET', path: `/test-takers/${t.id}/job-fit-report` }]);
      extra.push(['getScorecard', { method: 'GET', path: `/test-takers/${t.id}/scorecard?sp=${picks.sp}` }]);
    }
    for (const [operationId, request] of extra) expectValid(operationId, request, await send(stub, request));
    expect(extra.length).toBeGreaterThan(200);
  });
});
