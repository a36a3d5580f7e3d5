import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/api/messages.js';
import { classifyRowError, decideRowRetry, MAX_ROW_WAIT_MS, Pace, ROW_ATTEMPTS, type RowFailure, type RowRetryDecision } from '../../src/bulk/row-retry.js';
import {
  AuthenticationError,
  BadRequestError,
  ClientRequestError,
  NetworkError,
  ProtocolError,
  RateLimitError,
  ServerError,
  ServiceGoneError,
  UnknownOutcomeError,
} from '../../src/client/errors.js';
import { AuthError, CancelError, JobfitError } from '../../src/core/errors.js';

const rnd = (v: number) => () => v;
const req = { method: 'POST', path: '/invitations' };
const url = 'http://127.0.0.1:1/v2/invitations';

describe('classifyRowError', () => {
  const table: Array<[string, unknown, RowFailure['kind'], string?]> = [
    ['the breaker opened', new ServiceGoneError('http://x/v2', { cause: 'HTTP 502', seconds: 15, failures: 4 }), 'stop'],
    ['a 400', new BadRequestError({ ...req, status: 400, apiMessage: 'email: Invalid email' }), 'refused', 'email: Invalid email'],
    ['a refused key', new AuthenticationError({ ...req, status: 404, apiMessage: 'API key is required' }), 'stop'],
    ['no key at all', new AuthError('No API key is configured.'), 'stop'],
    ['Ctrl-C', new CancelError('Interrupted.'), 'stop'],
    ['a 429', new RateLimitError({ ...req, status: 429 }, 3), 'rate-limited'],
    ['a lost POST', new UnknownOutcomeError('POST /invitations was lost', { url, code: 'ECONNRESET', requestSent: true }), 'unknown-outcome', 'POST /invitations was lost'],
    ['a 500', new ServerError({ ...req, status: 500 }), 'transient'],
    ['no connection', new NetworkError('Could not reach it (connection refused).', { url, code: 'ECONNREFUSED' }), 'transient'],
    ['a broken 502 body', new ProtocolError('The service answered POST /invitations with a body that is not valid gzip.', { status: 502 }), 'transient'],
    ['a 405', new ClientRequestError({ ...req, status: 405, apiMessage: 'Method Not Allowed' }), 'other', 'Method Not Allowed'],
    ['a 2xx that is not JSON', new ProtocolError('The service answered POST /invitations with an HTML page.', { status: 200 }), 'other'],
    ['anything else', new JobfitError('odd'), 'other', 'odd'],
    ['not even an Error', 'a string', 'other', 'a string'],
  ];
  for (const [what, err, kind, text] of table) {
    it(`${what} → ${kind}`, () => {
      const f = classifyRowError(err);
      expect(f.kind).toBe(kind);
      if (text !== undefined) expect(f.text).toBe(text);
    });
  }

  it('keeps the Retry-After of a 429', () => {
    expect(classifyRowError(new RateLimitError({ ...req, status: 429 }, 3))).toMatchObject({ kind: 'rate-limited', retryAfterSeconds: 3 });
  });
});

describe('decideRowRetry', () => {
  const dup = MSG.duplicateInvitationSameTeam('ann@example.com');
  const table: Array<[string, RowFailure, number, RowRetryDecision]> = [
    ['stops the run', { kind: 'stop', text: 'gone' }, 0, { action: 'stop' }],
    ['a refusal fails the row with the service’s words', { kind: 'refused', text: 'email: Invalid email' }, 0, { action: 'fail', error: 'email: Invalid email' }],
    ['a duplicate is looked up', { kind: 'refused', text: dup }, 0, { action: 'look-up-duplicate', message: dup }],
    ['anything else fails the row', { kind: 'other', text: 'odd' }, 0, { action: 'fail', error: 'odd' }],
    ['a 429 waits its Retry-After and slows down', { kind: 'rate-limited', retryAfterSeconds: 3, text: 'x' }, 0, { action: 'wait', delayMs: 3000, slowDown: true, lookUpFirst: false, last: false }],
    ['a 429 without Retry-After waits 1 s', { kind: 'rate-limited', text: 'x' }, 2, { action: 'wait', delayMs: 1000, slowDown: true, lookUpFirst: false, last: false }],
    ['a long Retry-After is capped', { kind: 'rate-limited', retryAfterSeconds: 3600, text: 'x' }, 0, { action: 'wait', delayMs: MAX_ROW_WAIT_MS, slowDown: true, lookUpFirst: false, last: false }],
    ['a lost POST is looked up, then backs off', { kind: 'unknown-outcome', text: 'x' }, 0, { action: 'wait', delayMs: 200, slowDown: false, lookUpFirst: true, last: false }],
    ['a transient failure backs off exponentially', { kind: 'transient', text: 'x' }, 3, { action: 'wait', delayMs: 1600, slowDown: false, lookUpFirst: false, last: false }],
    ['the last attempt still waits, then gives up', { kind: 'transient', text: 'x' }, ROW_ATTEMPTS - 1, { action: 'wait', delayMs: 200 * 2 ** (ROW_ATTEMPTS - 1), slowDown: false, lookUpFirst: false, last: true }],
    ['a lost POST on the last attempt is still looked up', { kind: 'unknown-outcome', text: 'x' }, ROW_ATTEMPTS - 1, { action: 'wait', delayMs: 200 * 2 ** (ROW_ATTEMPTS - 1), slowDown: false, lookUpFirst: true, last: true }],
  ];
  for (const [what, f, attempt, want] of table) {
    it(what, () => {
      expect(decideRowRetry(f, attempt, rnd(0))).toEqual(want);
    });
  }

  it('jitters a 429 by up to 250 ms', () => {
    expect(decideRowRetry({ kind: 'rate-limited', retryAfterSeconds: 0, text: 'x' }, 0, rnd(1))).toMatchObject({ delayMs: 250 });
    expect(decideRowRetry({ kind: 'rate-limited', retryAfterSeconds: 2, text: 'x' }, 0, rnd(0.5))).toMatchObject({ delayMs: 2125 });
  });

  it('gives a row ROW_ATTEMPTS sends at most', () => {
    const f: RowFailure = { kind: 'transient', text: 'x' };
    const lasts = Array.from({ length: ROW_ATTEMPTS }, (_, a) => (decideRowRetry(f, a, rnd(0)) as { last: boolean }).last);
    expect(lasts).toEqual([...Array(ROW_ATTEMPTS - 1).fill(false), true]);
  });
});

describe('Pace', () => {
  it('halves on slowDown (never below 1) and creeps back one slot per `limit` successes, up to the max', () => {
    const p = new Pace(8);
    p.slowDown();
    expect(p.limit).toBe(4);
    for (let i = 0; i < 3; i++) p.ok();
    expect(p.limit).toBe(4);
    p.ok();
    expect(p.limit).toBe(5);
    for (let i = 0; i < 4; i++) p.slowDown();
    expect(p.limit).toBe(1);
    for (let i = 0; i < 1000; i++) p.ok();
    expect(p.limit).toBe(8);
  });
});
