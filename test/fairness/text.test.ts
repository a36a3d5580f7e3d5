/**
 * The fairness table (-o table) with a stranger's category names: escape
 * sequences are shown, never obeyed; a group under --min-group shows no
 * number at all, on any line of the output.
 */
import { describe, expect, it } from 'vitest';
import { Categories } from '../../src/fairness/categories.js';
import { FairnessJoin } from '../../src/fairness/join.js';
import { parsePass } from '../../src/fairness/outcome.js';
import { buildFairnessReport } from '../../src/fairness/report.js';
import type { SelfId } from '../../src/fairness/selfid.js';
import { renderFairnessText } from '../../src/fairness/text.js';
import { memoryIO } from '../helpers/io.js';

const EVIL = '\u001b]8;;https://evil.example\u0007Women\u001b]8;;\u0007';

function report(minGroup: number) {
  const cats = new Categories();
  const answers = new Map<string, Int32Array>();
  // 40 men, 30 "women" (a hostile label), 3 of a third group.
  const groups = [...Array(40).fill('Men'), ...Array(30).fill(EVIL), 'Other', 'Other', 'Other'];
  groups.forEach((g, i) => answers.set(`p${i}@x.org`, Int32Array.from([cats.indexOf(g)])));
  const selfId: SelfId = { join: 'email', columns: ['Sex'], answers, categories: [cats], sha256: '0'.repeat(64), rows: groups.length, rowsWithoutKey: 0, duplicateRows: 0 };
  const j = new FairnessJoin(selfId);
  groups.forEach((_, i) => {
    j.addInvitation({ id: i, email: `P${i}@X.org` }, i);
    // Men: 30 of 40 at 4 stars or more; women: 12 of 30; the three others all at 5.
    const stars = i < 40 ? (i < 30 ? 5 : 2) : i < 70 ? (i < 52 ? 4 : 1) : 5;
    j.addScorecard(i, { five_star_score: stars, job_fit_percentage: stars * 20 });
  });
  return buildFairnessReport({ join: j, outcome: parsePass('stars>=4'), rules: { minGroup, excludeUnder: 0 }, completion: false }, { scoreProfile: 'sales-rep', teamId: undefined, now: new Date() });
}

describe('renderFairnessText', () => {
  it('shows escape sequences as text; the 3-person group has no number; 12/30 vs 30/40 is flagged at 0.533', () => {
    const r = report(5);
    const m = memoryIO({ columns: 200 });
    const text = renderFairnessText({ io: m.io } as never, r);
    expect(text).not.toContain('\u001b');
    const line = text.split('\n').find((l) => l.startsWith('Other'))!;
    expect(line).toContain('fewer than 5');
    expect(line.replace('fewer than 5', '')).not.toMatch(/\d/);
    expect(text).toMatch(/0\.533\s+BELOW 0\.8/);
    expect(text).toContain('not counted');
    const other = r.sections[0].groups.find((g) => g.label === 'Other')!;
    expect(other).toMatchObject({ size: 'fewer than 5', invited: null, scored: null, selected: null, selection_rate: null, impact_ratio: null });
    // Men were the highest: the hidden group, with a 100% rate, was not allowed to become the reference.
    expect(r.sections[0].highest_selection_rate).toBe('Men');
  });
});
