/**
 * A candidate's CSV cell with terminal controls is reported escaped, never
 * obeyed: `invite --csv --dry-run` names the invalid rows by their email.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { forbiddenIn, PLANTED } from './hostile-text.js';
import { DANA } from '../helpers/seeded.js';

const dir = mkdtempSync(join(tmpdir(), 'jobfit-csv-text-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hostile CSV cells', () => {
  it('invite --csv --dry-run reports them with the controls escaped', async () => {
    const csv = join(dir, 'people.csv');
    writeFileSync(csv, `first_name,last_name,email\nAna,Diaz,ana${PLANTED.title}${PLANTED.bidi}@example.com\n`);
    const r = await runCli(['invite', '--csv', csv, '--dry-run', '--created-by', DANA], { configDir: join(dir, 'config') });
    const all = r.stdout + r.stderr;
    expect(all).toContain('ana\\x1b]0;pwned title\\x07\\u202eevil.exe@example.com');
    expect(forbiddenIn(all)).toEqual([]);
  });
});
