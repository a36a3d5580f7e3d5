/**
 * `jobfit invite` for one participant: from flags (in-process against the
 * stub), the missing flags named without a terminal, and the prompts driven
 * through a pseudo-terminal (choices loaded from the account).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStub } from '../../../src/stub/index.js';
import { startStub } from '../../helpers/stub.js';
import { runCli } from '../../helpers/cli.js';
import { keys, spawnJobfitPty } from '../../helpers/pty.js';
import { DANA as INVITER } from '../../helpers/seeded.js';

let stub: RunningStub;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-invite-'));
  stub = (await startStub({ dataDir: join(dir, 'stub') })).server!;
  env = { JOBFIT_BASE_URL: stub.url, JOBFIT_API_KEY: stub.keys[0].live_key };
});
afterAll(async () => {
  await stub.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('from flags', () => {
  it('creates the invitation and prints it (json when piped)', async () => {
    const r = await runCli(
      ['invite', '--first-name', 'Ana', '--last-name', 'Diaz', '--email', 'ana.single@example.com', '--created-by', INVITER, '--team', 'Retail Stores', '--assessments', 'personality,interests', '--send-via', 'email,sms', '--phone', '415 555 0102', '--custom-id', 'REQ-9', '--ref-text', 'Store 12'],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    const inv = JSON.parse(r.stdout);
    expect(inv).toMatchObject({ object: 'invitation', email: 'ana.single@example.com', phone: '+14155550102', send_via_sms: true, custom_id: 'REQ-9', ref_text: 'Store 12' });
    expect(inv.team.display_name).toBe('Retail Stores');
    expect(inv.invitation_assessments.map((a: { id: number }) => a.id)).toEqual([6, 8]);
    expect(inv.assessment_url).toMatch(/^http/);
  });

  it('a duplicate email gets the service\'s own message (exit 1)', async () => {
    const args = ['invite', '--first-name', 'Dup', '--last-name', 'Licate', '--email', 'dup.single@example.com', '--created-by', INVITER];
    expect((await runCli(args, { env })).code).toBe(0);
    const again = await runCli(args, { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already has an invitation with email dup\.single@example\.com/);
  });

  it('without a terminal, names every missing flag (exit 2)', async () => {
    const r = await runCli(['invite', '--first-name', 'Ana'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Missing --last-name, --email, --created-by (no terminal to ask on).');
  });

  it('a bad value names its flag', async () => {
    const r = await runCli(['invite', '--first-name', 'A', '--last-name', 'B', '--email', 'nope', '--created-by', INVITER], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--email: Invalid email address.');
    const r2 = await runCli(['invite', '--first-name', 'A', '--last-name', 'B', '--email', 'a.b@example.com', '--created-by', INVITER, '--assessments', 'prescreen,personality'], { env });
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain('Choose either Prescreen or other assessments, but not both.');
    const r3 = await runCli(['invite', '--first-name', 'A', '--last-name', 'B', '--email', 'a.b@example.com', '--created-by', INVITER, '--send-via', 'sms'], { env });
    expect(r3.code).toBe(2);
    expect(r3.stderr).toContain('--phone: Phone is required if sending via text message (SMS).');
  });

  it('bulk-only flags without --csv, and single flags with --csv, are usage errors', async () => {
    expect((await runCli(['invite', '--dry-run', '--email', 'x@example.com'], { env })).code).toBe(2);
    const r = await runCli(['invite', '--csv', 'x.csv', '--email', 'x@example.com'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--email describe one participant and cannot go with --csv');
  });
});

describe('prompts on a terminal', () => {
  it('asks for what is missing, with teams, assessments and templates from the account', async () => {
    const p = spawnJobfitPty(['invite', '--first-name', 'Pia'], {
      env: { ...env, JOBFIT_CONFIG_DIR: join(dir, 'cfg-pty'), NO_COLOR: '1' },
    });
    try {
      await p.expect('Last name');
      p.line('Terminal');
      await p.expect('Email');
      p.line('pia.pty@example.com');
      await p.expect('Invited by');
      p.send(keys.enter); // first user: Dana
      await p.expect('Team');
      await p.expect('Retail Stores');
      p.send(keys.down);
      p.send(keys.enter);
      await p.expect('Assessments');
      await p.expect('Career Interests');
      p.send(keys.enter); // Dana's defaults are pre-checked
      await p.expect('Invitation email template');
      await p.expect('Standard invitation');
      p.send(keys.enter);
      // A live key on a server this process cannot prove is our stub: shown and asked first (issue 44).
      await p.expect('Send this live invitation now?');
      p.line('y');
      const end = await p.wait(20_000);
      expect(end.code, end.output).toBe(0);
      expect(end.output).toContain('pia.pty@example.com');
      expect(end.output).toMatch(/ASSESSMENT URL\s+http/);
    } finally {
      p.kill();
    }
  }, 40_000);

  it('refuses Prescreen with other assessments at the prompt itself, keeping what was typed', async () => {
    const p = spawnJobfitPty(['invite', '--first-name', 'Pre', '--last-name', 'Screen', '--email', 'pre.screen.pty@example.com', '--created-by', INVITER, '--team', 'Retail Stores'], {
      env: { ...env, JOBFIT_CONFIG_DIR: join(dir, 'cfg-pty-prescreen'), NO_COLOR: '1' },
    });
    try {
      await p.expect('Prescreen');
      // Dana's defaults are checked; Prescreen (the first choice) is added to them.
      p.send(keys.space);
      p.send(keys.enter);
      await p.expect('Choose either Prescreen or other assessments, but not both.');
      // The same prompt, still open: take Prescreen off again and go on.
      p.send(keys.space);
      p.send(keys.enter);
      await p.expect('Invitation email template');
      p.send(keys.enter);
      await p.expect('Send this live invitation now?');
      p.line('y');
      const end = await p.wait(20_000);
      expect(end.code, end.output).toBe(0);
      expect(end.output).toContain('pre.screen.pty@example.com');
    } finally {
      p.kill();
    }
  }, 40_000);
});
