/**
 * The participant's page over plain HTTP (no browser needed): forms, redirects,
 * validation, idempotence, and the same events as the commands.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningStub } from '../../src/stub/index.js';
import { flushDeliveries } from '../../src/stub/webhooks/deliver.js';
import { listEventDeliveries } from '../../src/stub/webhooks/events.js';
import { setWebhookSettings } from '../../src/stub/webhooks/settings.js';
import { endpoint, type Endpoint, invite, stubOn, tempDir } from './helpers.js';

let tmp: ReturnType<typeof tempDir>;
let stub: RunningStub;
let ep: Endpoint;

beforeEach(async () => {
  tmp = tempDir();
  stub = await stubOn(tmp.dir);
  ep = await endpoint();
  setWebhookSettings(stub.store, 1, { endpoint: ep.url, enabled: true, teams: [{ id: 11, enabled: true }] });
});
afterEach(async () => {
  await ep.close();
  await stub.close();
  tmp.remove();
});

const form = (url: string, body: Record<string, string>) =>
  fetch(url, { method: 'POST', body: new URLSearchParams(body), redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' } });

describe("participant's page", () => {
  it('accepts, then completes each assessment through forms with 303 redirects, emitting the lifecycle events', async () => {
    const inv = await invite(stub, stub.keys[0].live_key, { assessments_to_assign: [{ test_id: 6 }, { test_id: 8 }] });
    const url = inv.assessment_url;
    const start = await fetch(url);
    expect(start.status).toBe(200);
    expect(start.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await start.text();
    expect(html).toMatch(/<html lang="en">/);
    expect(html).toMatch(/<h1>Welcome, Ada<\/h1>/);
    expect(html).toMatch(/<li>Personality Traits<\/li>\n<li>Career Interests<\/li>/);
    expect(html).not.toMatch(/<script/);

    const acc = await form(`${url}/accept`, {});
    expect(acc.status).toBe(303);
    expect(acc.headers.get('location')).toBe(`${new URL(url).pathname}?accepted=1`);
    // A second accept (another tab) changes nothing.
    expect((await form(`${url}/accept`, {})).status).toBe(303);

    const list = await (await fetch(url)).text();
    expect(list).toMatch(/Start <span class="visually-hidden">Personality Traits<\/span>/);

    const q = await (await fetch(`${url}/assessments/6`)).text();
    expect(q).toMatch(/<fieldset>\n<legend>1\. /);
    expect(q).toMatch(/<label for="language">Language<\/label>/);
    expect((q.match(/<fieldset/g) ?? []).length).toBe(5);

    const missing = await form(`${url}/assessments/6`, { q1: '3', language: 'en' });
    expect(missing.status).toBe(400);
    const missingHtml = await missing.text();
    expect(missingHtml).toMatch(/role="alert"/);
    expect(missingHtml).toMatch(/4 are missing/);
    expect(missingHtml).toMatch(/value="3" required checked/);

    const answers = { q1: '4', q2: '2', q3: '5', q4: '3', q5: '1', language: 'es' };
    const done = await form(`${url}/assessments/6`, answers);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toMatch(/\?completed=6$/);
    expect((await form(`${url}/assessments/6`, answers)).status).toBe(303); // double submit: ignored
    expect((await fetch(`${url}/assessments/6`, { redirect: 'manual' })).status).toBe(303); // already complete

    const interests = { q1: '1', q2: '2', q3: '3', q4: '4', q5: '5', q6: '1', language: 'en' };
    expect((await form(`${url}/assessments/8`, interests)).status).toBe(303);
    const final = await (await fetch(url)).text();
    expect(final).toMatch(/<h2>All done<\/h2>/);
    expect(final).toMatch(/Explore careers that match your interests/);

    await flushDeliveries();
    const types = listEventDeliveries(stub.store).map((v) => v.type);
    expect(types).toEqual(['invitation.accepted', 'test_taker.created', 'test_taker.assessment_completed', 'test_taker.assessment_completed', 'career_navigation_profile.created']);
    expect(ep.received).toHaveLength(5);
    const personality = ep.received.find((r) => r.json.type === 'test_taker.assessment_completed' && (r.json.data.object.assessment as { id: number }).id === 6)!;
    expect(personality.json.data.object.language).toBe('es');
  });

  it('answers 404 for an unknown link, 405 for a wrong method, and escapes names', async () => {
    const bad = await fetch(`${stub.origin}/take/no-such-token`);
    expect(bad.status).toBe(404);
    expect(await bad.text()).toMatch(/This link does not work/);
    expect((await fetch(`${stub.origin}/take/a/b/c`)).status).toBe(404);
    const inv = await invite(stub, stub.keys[0].live_key, { first_name: '<b>Zoë</b>' });
    expect((await fetch(inv.assessment_url, { method: 'DELETE' })).status).toBe(405);
    expect((await fetch(`${inv.assessment_url}/accept`)).status).toBe(405);
    const html = await (await fetch(inv.assessment_url)).text();
    expect(html).toContain('Welcome, &lt;b&gt;Zoë&lt;/b&gt;');
    // Before acceptance, an assessment link goes back to the start page.
    const early = await fetch(`${inv.assessment_url}/assessments/6`, { redirect: 'manual' });
    expect(early.status).toBe(303);
  });
});
