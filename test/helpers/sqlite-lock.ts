/**
 * Another process holding a write transaction (`BEGIN IMMEDIATE`) on a SQLite
 * file, as the sqlite3 shell does, until release() (issue 43's "held SQLite
 * write lock"; test/webhook/listen-busy.test.ts, test/faults/sync-hostile.test.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';

export async function holdWriteLock(db: string): Promise<{ child: ChildProcess; release(): Promise<void> }> {
  const script = `const { DatabaseSync } = require('node:sqlite'); const d = new DatabaseSync(process.argv[1]); d.exec('BEGIN IMMEDIATE');
    process.stdout.write('held\\n'); process.stdin.resume(); process.stdin.on('end', () => { d.exec('ROLLBACK'); d.close(); process.exit(0); });`;
  const child = spawn(process.execPath, ['-e', script, db], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((res, rej) => {
    child.stdout!.once('data', () => res());
    child.once('exit', (c) => rej(new Error(`the lock holder exited ${c}`)));
  });
  return {
    child,
    release: () =>
      new Promise((res) => {
        if (child.exitCode !== null) return res();
        child.once('exit', () => res());
        child.stdin!.end();
      }),
  };
}
