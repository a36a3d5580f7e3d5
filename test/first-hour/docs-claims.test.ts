/**
 * Issue 44, item 5: what README.md, docs/ and the help say to a new user holds.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('documentation', () => {
  it('README says why npm install -g . warns about prepare; docs/library.md says Node 22.12; docs/sync.md\'s weekly query needs no %G/%V', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = (p: string) => readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8');
    expect(doc('README.md')).toMatch(/may warn that the package runs an install script\s+\(`prepare`\)/);
    expect(doc('docs/library.md')).not.toContain('20.19');
    expect(doc('docs/library.md')).toContain('Node 22.12');
    const sync = doc('docs/sync.md');
    const weekly = /Completions per ISO 8601 week[\s\S]*?```sql\n([\s\S]*?)```/.exec(sync)![1];
    expect(weekly).not.toMatch(/%G|%V/);
    // The same week as strftime('%G-W%V') (SQLite 3.46+) for every day of 2020-2027.
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(':memory:');
    db.exec('CREATE TABLE assigned_assessments (test_taker_id INTEGER, completed_at TEXT)');
    const ins = db.prepare('INSERT INTO assigned_assessments VALUES (?, ?)');
    for (let t = Date.UTC(2020, 0, 1); t < Date.UTC(2028, 0, 1); t += 86_400_000) ins.run(1, new Date(t + 3_600_000).toISOString());
    const ours = db.prepare(weekly).all() as Array<{ week: string; completions: number }>;
    const iso = db.prepare("SELECT strftime('%G-W%V', completed_at) AS week, COUNT(*) AS completions FROM assigned_assessments GROUP BY week ORDER BY week DESC").all() as Array<{ week: string; completions: number }>;
    expect(ours.map((r) => [r.week, r.completions])).toEqual(iso.map((r) => [r.week, r.completions]));
  });

  it('help output names -o html', async () => {
    const r = await runCli(['help', 'output']);
    expect(r.stdout).toMatch(/-o html\s+a self-contained page/);
  });
});
