import { describe, expect, it } from 'vitest';
import { CancelError, UsageError } from '../../src/core/errors.js';
import { createPrompter } from '../../src/core/prompter.js';
import { runCli } from './cli.js';
import { memoryIO } from './io.js';

describe('createPrompter without a terminal', () => {
  const { io } = memoryIO({ tty: false });
  const p = createPrompter(io);
  it.each([
    ['input', () => p.input('Inviter email:', { flag: '--created-by' }), 'Inviter email: no terminal to ask on; give it with --created-by.'],
    ['password', () => p.password('Live key:', { flag: 'JOBFIT_API_KEY' }), 'Live key: no terminal to ask on; give it with JOBFIT_API_KEY.'],
    ['confirm', () => p.confirm('Send 300 real emails?', { flag: '--yes' }), 'Send 300 real emails: no terminal to ask on; give it with --yes.'],
    ['select', () => p.select('Team', [{ name: 'A', value: 1 }], { flag: '--team' }), 'Team: no terminal to ask on; give it with --team.'],
    ['checkbox', () => p.checkbox('Assessments', [{ name: 'A', value: 1 }]), 'Assessments: no terminal to ask on.'],
  ])('%s throws a usage error naming the flag', async (_name, call, message) => {
    const err = await call().catch((e) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toBe(message);
  });

  it('CI or JOBFIT_NO_PROMPT also forbid prompting on a terminal', async () => {
    for (const env of [{ CI: 'true' }, { JOBFIT_NO_PROMPT: '1' }]) {
      const m = memoryIO({ tty: true, env });
      expect(m.io.canPrompt).toBe(false);
      await expect(createPrompter(m.io).confirm('Go?')).rejects.toBeInstanceOf(UsageError);
    }
  });

  it('an aborted run cancels a prompt', async () => {
    const ac = new AbortController();
    ac.abort();
    const m = memoryIO({ tty: true, signal: ac.signal });
    await expect(createPrompter(m.io).input('Name:')).rejects.toBeInstanceOf(CancelError);
  });
});

describe('memoryIO', () => {
  it('follows the real TTY and colour rules', () => {
    expect(memoryIO({ tty: true }).io.colorStdout).toBe(true);
    expect(memoryIO({ tty: true, env: { NO_COLOR: '' } }).io.colorStdout).toBe(false);
    expect(memoryIO({ tty: false }).io.colorStdout).toBe(false);
    expect(memoryIO({ tty: true, columns: 42 }).io.columns).toBe(42);
    expect(memoryIO({ tty: true }).io.canPrompt).toBe(true);
  });
});

describe('runCli', () => {
  it('runs the CLI in-process with captured streams', async () => {
    const r = await runCli(['help', 'exit-codes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('4    authentication');
    expect(r.stderr).toBe('');
  });
  it('reports a usage error with exit 2', async () => {
    const r = await runCli(['--output', 'xml', 'stub']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('xml');
  });
});
