/**
 * The stub against the letter of the API reference, over real HTTP: the rules
 * where the stub used to differ, and reference rules no other stub test pins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../src/api/messages.js';
import { DANA, MARCO, type TestStub, TOMAS, freshEmail, startTestStub } from './helpers.js';

let stub: TestStub;
beforeAll(async () => {
  stub = await startTestStub();
});
afterAll(async () => {
  await stub?.stop();
});

const invite = (body: Record<string, unknown>, key?: string) => stub.call('POST', '/invitations', { body, key });
const base = () => ({ first_name: 'Rea', last_name: 'Ference', email: freshEmail('ref'), created_by_user_email: DANA });

describe('authentication', () => {
  it('any key the service does not know is invalid: 404 API key is required', async () => {
    for (const key of [`sk_live_${'a'.repeat(32)}`, `sk_test_${'0'.repeat(32)}`, 'sk_live_doesnotexist', 'garbage']) {
      const r = await stub.call('GET', '/accounts', { key });
      expect(r.status, key).toBe(404);
      expect(r.body, key).toEqual({ error: MSG.apiKeyRequired });
    }
  });

  it('a known key whose account is gone: 404 Account not found for API key', async () => {
    const orphan = `sk_live_${'f'.repeat(32)}`;
    stub.store.run("INSERT INTO api_keys (key, account_id, mode) VALUES (?, 999, 'live')", orphan);
    const r = await stub.call('GET', '/invitations', { key: orphan });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: MSG.accountNotFound });
  });
});
