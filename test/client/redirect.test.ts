import { describe, expect, it } from 'vitest';
import { decideRedirect, MAX_REDIRECTS, type RedirectFacts, redirectError, redirectTrace } from '../../src/client/redirect.js';

const BASE = 'https://api.example.com';
const facts = (o: Partial<RedirectFacts>): RedirectFacts => ({
  method: 'GET',
  status: 302,
  location: '/v2/teams2',
  url: new URL(`${BASE}/v2/teams`),
  baseOrigin: BASE,
  redirects: 0,
  ...o,
});

describe('decideRedirect', () => {
  it('is no redirect without a 3xx and a Location (304 included)', () => {
    for (const o of [{ status: 200 }, { status: 404 }, { status: 304 }, { status: undefined }, { location: undefined }, { location: '' }]) {
      expect(decideRedirect(facts(o))).toBeUndefined();
    }
  });

  it('follows a read within the exact origin, relative or absolute, up to the limit', () => {
    const table: Array<[Partial<RedirectFacts>, string]> = [
      [{}, `${BASE}/v2/teams2`],
      [{ status: 301, location: `${BASE}/v2/moved?x=1` }, `${BASE}/v2/moved?x=1`],
      [{ status: 307, method: 'HEAD', location: 'teams3' }, `${BASE}/v2/teams3`],
      [{ status: 308, redirects: MAX_REDIRECTS - 1 }, `${BASE}/v2/teams2`],
    ];
    for (const [o, href] of table) {
      const d = decideRedirect(facts(o));
      expect(d).toMatchObject({ follow: true });
      expect(d?.follow && d.target.href).toBe(href);
    }
  });

  it('refuses another origin (host, port or scheme), a write, an unreadable location and one too many', () => {
    const table: Array<[Partial<RedirectFacts>, string]> = [
      [{ location: 'https://evil.example.net/v2/teams' }, 'another-origin'],
      [{ location: 'https://api.example.com:8443/v2/teams' }, 'another-origin'],
      [{ location: 'http://api.example.com/v2/teams' }, 'another-origin'],
      [{ method: 'POST', status: 307 }, 'write'],
      [{ method: 'PUT', status: 308 }, 'write'],
      // Another origin wins over a write: the key is not sent there either way.
      [{ method: 'POST', location: 'https://evil.example.net/' }, 'another-origin'],
      [{ location: 'http://[::1' }, 'not-a-url'],
      [{ redirects: MAX_REDIRECTS }, 'too-many'],
    ];
    for (const [o, reason] of table) expect(decideRedirect(facts(o)), JSON.stringify(o)).toMatchObject({ follow: false, reason });
  });
});

describe('the words for a redirect', () => {
  it('traces the host and port, and says why it was not followed', () => {
    expect(redirectTrace(decideRedirect(facts({}))!)).toBe('  following 302 to api.example.com /v2/teams2');
    expect(redirectTrace(decideRedirect(facts({ location: 'https://api.example.com:8443/x' }))!)).toBe('  302 to api.example.com:8443 (another origin): not followed');
    expect(redirectTrace(decideRedirect(facts({ location: 'http://[::1' }))!)).toBe('  302 to an unreadable location: not followed');
  });

  it('makes one sentence without a URL password or the key', () => {
    const f = facts({ location: 'https://user:pw@evil.example.net/steal?k=sk_live_SECRET' });
    const d = decideRedirect(f);
    if (!d || d.follow) throw new Error('expected a refusal');
    const err = redirectError(d, f, '/teams', (t) => t.replace('sk_live_SECRET', 'sk_live_…'));
    expect(err.message).toContain(', another origin (evil.example.net); not followed, so the key is not sent there.');
    expect(err.message).not.toContain('pw@');
    expect(err.message).not.toContain('SECRET');
    expect(err.status).toBe(302);
  });
});
