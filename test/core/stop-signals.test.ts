/**
 * The signals that stop a run as Ctrl-C does (core/errors.ts STOP_SIGNALS), on
 * every platform: Windows raises SIGINT for Ctrl-C, SIGHUP when the console
 * window closes and SIGBREAK for Ctrl-Break; SIGBREAK is taken as SIGTERM
 * (exit 143), SIGHUP as the terminal closing (129). A real SIGBREAK cannot be
 * sent on Linux (nor to node.exe under Wine: node has no way to send Ctrl-Break),
 * so the child emits the signal event node would emit, and the process I/O's
 * signal must be aborted with the right reason and exit.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function stopBy(signal: string): { aborted: boolean; signal?: string; exit?: number; message?: string } {
  const io = join(ROOT, 'src/core/io.ts');
  const code = `
    const { createProcessIO } = await import(${JSON.stringify(io)});
    const io = createProcessIO();
    process.emit(${JSON.stringify(signal)}, ${JSON.stringify(signal)});
    const r = io.signal.reason;
    process.stdout.write(JSON.stringify({ aborted: io.signal.aborted, signal: r?.signal, exit: r?.exitCode, message: r?.message }));`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as ReturnType<typeof stopBy>;
}

describe('stop signals', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
    ['SIGBREAK', 143],
  ])('%s stops the run as Ctrl-C does, exit %i', (signal, exit) => {
    expect(stopBy(signal)).toMatchObject({ aborted: true, signal, exit });
  });
});
