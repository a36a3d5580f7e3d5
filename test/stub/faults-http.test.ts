import { afterAll, describe, expect, it } from 'vitest';
import { DANA, type TestStub, freshEmail, startTestStub } from './helpers.js';

describe('fault injection over HTTP', () => {
  let stub: TestStub;
  afterAll(async () => {
    await stub?.stop();
  });

  it('429 with Retry-After before handling; healthcheck never faulted', async () => {
    stub = await startTestStub({ faults: '429=1,retry-after=2,seed=1' });
    const r = await stub.call('GET', '/teams');
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('2');
    const before = stub.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM invitations')!.n;
    const p = await stub.call('POST', '/invitations', { body: { first_name: 'F', last_name: 'F', email: freshEmail(), created_by_user_email: DANA } });
    expect(p.status).toBe(429);
    expect(stub.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM invitations')!.n).toBe(before);
    expect((await stub.call('GET', '/healthcheck', { key: null })).status).toBe(200);
    await stub.stop();
  });

  it('drop: the write is stored, the connection closes without an answer', async () => {
    stub = await startTestStub({ faults: 'drop=1,seed=1' });
    const email = freshEmail('dropped');
    await expect(stub.call('POST', '/invitations', { body: { first_name: 'D', last_name: 'D', email, created_by_user_email: DANA } })).rejects.toThrow();
    expect(stub.store.get('SELECT id FROM invitations WHERE email = ?', email)).toBeDefined();
    // GETs are not dropped.
    expect((await stub.call('GET', '/teams')).status).toBe(200);
  });
});
