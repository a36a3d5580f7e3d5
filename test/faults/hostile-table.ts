/**
 * Issue 43, item 1: each hostile behaviour of round four × each command it
 * can reach, with the test that runs it. One table: docs/faults.md's "hostile
 * matrix" is this table (test/faults/hostile-doc.test.ts), and the cells
 * marked `HM` are the cases test/faults/hostile-matrix.test.ts runs.
 */

export const BEHAVIOURS = ['stale', 'other', 'disk', 'lock', 'id201', 'fold'] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

export const BEHAVIOUR_NAMES: Record<Behaviour, string> = {
  stale: 'stale answer on a reused connection',
  other: "another person's object",
  disk: 'full disk under `--out`',
  lock: 'held SQLite write lock',
  id201: 'a 201 with a wrong id',
  fold: 'folding email filter',
};

/** A cell: `HM` (a case of hostile-matrix.test.ts), another test file, or `—` with why it cannot reach the command. */
export type Cell = string;

export interface Row {
  name: string;
  cells: Record<Behaviour, Cell>;
}

const HM = 'HM';
const NO_DB = '— (no database)';
const NO_POST = '— (creates nothing)';
const ONE_PAGE = '— (one request)';
const NO_FILTER = '— (no email filter)';
const NO_ITEM = '— (reads no item)';
const SYNC_ROUND = 'sync-hostile (the same `syncOnce`)';

export const HOSTILE_MATRIX: Row[] = [
  { name: 'invitations list --all', cells: { stale: HM, other: NO_ITEM, disk: 'out-full-disk', lock: NO_DB, id201: NO_POST, fold: 'accent-folding-search' } },
  { name: 'test-takers list --all', cells: { stale: HM, other: NO_ITEM, disk: 'out-full-disk', lock: NO_DB, id201: NO_POST, fold: 'accent-folding-search' } },
  { name: 'one-page lists --out', cells: { stale: ONE_PAGE, other: NO_ITEM, disk: 'out-full-disk', lock: NO_DB, id201: NO_POST, fold: NO_FILTER } },
  { name: 'scorecard --all', cells: { stale: 'mismatched-answers', other: 'mismatched-answers', disk: 'out-full-disk', lock: NO_DB, id201: NO_POST, fold: HM } },
  { name: 'scorecard IDS', cells: { stale: HM, other: HM, disk: 'out-full-disk', lock: NO_DB, id201: NO_POST, fold: NO_FILTER } },
  { name: 'job-fit --all', cells: { stale: 'mismatched-answers', other: HM, disk: 'out-full-disk', lock: NO_DB, id201: NO_POST, fold: HM } },
  { name: 'job-fit IDS', cells: { stale: HM, other: HM, disk: 'out-full-disk', lock: NO_DB, id201: NO_POST, fold: NO_FILTER } },
  { name: 'report (html/json/csv/xlsx)', cells: { stale: HM, other: 'mismatched-answers', disk: 'out-full-disk', lock: NO_DB, id201: NO_POST, fold: 'accent-folding-search' } },
  { name: 'sync', cells: { stale: 'sync-hostile', other: 'sync-hostile', disk: 'writers-full-disk', lock: 'sync-hostile', id201: NO_POST, fold: 'sync-hostile' } },
  { name: 'bulk invite', cells: { stale: HM, other: 'confirm-batch (read-backs only of unconfirmed ids)', disk: 'writers-full-disk', lock: NO_DB, id201: 'wrong-created-id, confirm-batch', fold: 'confirm-batch' } },
  { name: 'webhook listen --sync', cells: { stale: SYNC_ROUND, other: SYNC_ROUND, disk: 'writers-full-disk', lock: 'listen-busy', id201: NO_POST, fold: SYNC_ROUND } },
];

/** The cells hostile-matrix.test.ts runs: `command|behaviour`. */
export const hmCases = (): string[] => HOSTILE_MATRIX.flatMap((r) => BEHAVIOURS.filter((b) => r.cells[b] === HM).map((b) => `${r.name}|${b}`));

/** The table as docs/faults.md has it. */
export function hostileMarkdown(): string[] {
  const head = `| Command | ${BEHAVIOURS.map((b) => BEHAVIOUR_NAMES[b]).join(' | ')} |`;
  const rule = `|---|${BEHAVIOURS.map(() => '---').join('|')}|`;
  return [head, rule, ...HOSTILE_MATRIX.map((r) => `| \`${r.name}\` | ${BEHAVIOURS.map((b) => r.cells[b]).join(' | ')} |`)];
}
