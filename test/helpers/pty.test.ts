import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { keys, spawnTsPty } from './pty.js';

const demo = fileURLToPath(new URL('./fixtures/prompt-demo.ts', import.meta.url));
const SECRET = 'sk_test_s3cretValue9z';

describe('pseudo-terminal prompts', () => {
  it('answers confirm, input, masked password and select as a person would', async () => {
    const s = spawnTsPty(demo);
    try {
      await s.expect('Continue?');
      s.line('y');
      await s.expect('Your name:');
      s.send(keys.enter);
      await s.expect('A name is required.');
      s.line('Ada');
      await s.expect('API key:');
      s.line(SECRET);
      await s.expect('Team:');
      s.send(keys.down);
      s.send(keys.enter);
      await s.expect(/RESULT .*\r?\n/);
      const r = await s.wait();
      expect(r.code).toBe(0);
      const json = JSON.parse(/RESULT (.*)/.exec(r.output)![1]);
      const sha = createHash('sha256').update(SECRET).digest('hex').slice(0, 12);
      expect(json).toEqual({ go: true, name: 'Ada', keyLength: SECRET.length, keySha: sha, team: 8 });
      // Masked: the password was received whole but never shown, only stars.
      expect(s.raw()).not.toContain(SECRET);
      expect(s.raw()).not.toContain('s3cret');
      expect(r.output).toContain('*'.repeat(SECRET.length));
    } finally {
      s.kill();
    }
  });

  it('Ctrl-C in a prompt cancels cleanly (exit 130, no stack trace)', async () => {
    const s = spawnTsPty(demo);
    try {
      await s.expect('Continue?');
      s.send('\r');
      await s.expect('Your name:');
      s.send('Ad');
      s.send(keys.ctrlC);
      const r = await s.wait();
      expect(r.code).toBe(130);
      expect(r.output).toContain('Error: Cancelled.');
      expect(r.output).not.toMatch(/at .*\.ts:\d+/);
    } finally {
      s.kill();
    }
  });

  it('without a terminal, asks nothing and names the flag (exit 2)', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', demo], { input: '', encoding: 'utf8', env: { ...process.env, CI: '' } });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('Error: Continue: no terminal to ask on; give it with --yes.\n');
    expect(r.stdout).toBe('');
  });
});

describe('spawnJobfitPty', () => {
  it('runs the CLI from source in a terminal', async () => {
    const { spawnJobfitPty } = await import('./pty.js');
    const s = spawnJobfitPty(['help', 'exit-codes']);
    try {
      await s.expect('130  interrupted');
      const r = await s.wait();
      expect(r.code).toBe(0);
    } finally {
      s.kill();
    }
  });
});
