/**
 * The client against our own embedded stub: through ctx.client() with no
 * configuration, and under the stub's fault injection (429, 5xx, writes
 * dropped after commit) where no invitation may be created twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientForConnection } from '../../src/client/index.js';
import { createContext, EMBEDDED_NOTICE } from '../../src/cli/create-context.js';
import { memoryIO } from '../helpers/io.js';
import { DANA } from '../helpers/seeded.js';
import { startStub } from '../helpers/stub.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-stubclient-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('client and the embedded stub', () => {
  it('ctx.client() with no configuration starts the real stub, in live mode, and close() stops it', async () => {
    const m = memoryIO({ env: { JOBFIT_CONFIG_DIR: dir } });
    const ctx = createContext(m.io, { color: false, quiet: false, verbose: false });
    try {
      const client = await ctx.client();
      const teams = await client.listTeams();
      expect(teams.mode).toBe('live');
      expect(teams.data.length).toBeGreaterThan(0);
      expect(ctx.connection).toMatchObject({ source: 'embedded-stub', mode: 'live', embedded: true });
      expect(ctx.connection?.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2$/);
      expect(m.stderr()).toBe(`${EMBEDDED_NOTICE}\n`);
    } finally {
      await ctx.close();
    }
  });

  it('under 429, 5xx and dropped writes, every invitation is created exactly once', async () => {
    const stub = await startStub({ dataDir: join(dir, 'stub'), faults: '429=0.15,5xx=0.15,drop=0.2,seed=11,retry-after=0.01' });
    const trace: string[] = [];
    const client = clientForConnection({
      baseUrl: stub.url,
      apiKey: stub.liveKey,
      trace: (l) => trace.push(l),
      sleep: async () => {},
      retry: { maxRetries: 8 },
    });
    try {
      const emails = Array.from({ length: 25 }, (_, i) => `fault.${i}@example.com`);
      let recovered = 0;
      for (const email of emails) {
        const r = await client.createInvitationDetailed({
          first_name: 'F',
          last_name: `N${email}`,
          email,
          created_by_user_email: DANA,
        });
        expect(r.invitation.email).toBe(email);
        if (r.recovered) recovered++;
      }
      // The faults really happened, and were resolved by looking the email up.
      expect(recovered).toBeGreaterThan(0);
      expect(trace.some((l) => l.startsWith('← 429'))).toBe(true);
      for (const email of emails) {
        const list = await client.listInvitations({ email });
        expect(list.data.filter((i) => i.email === email)).toHaveLength(1);
      }
      for (const line of trace) expect(line).not.toContain(stub.keys[0].live_key);
    } finally {
      await client.close();
      await stub.stop();
    }
  });
});
