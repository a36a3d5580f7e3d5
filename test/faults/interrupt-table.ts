/**
 * The interrupt matrix of issue 43, item 4, as one table: the commands,
 * transports and signals that test/faults/interrupt-matrix.test.ts runs, and
 * the markdown table docs/faults.md shows (test/faults/interrupt-doc.test.ts
 * checks that the page's table is this one, so neither can drift).
 */
import { DANA as INVITER } from '../helpers/seeded.js';

export const SIGNALS = [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const;

export const TRANSPORTS = ['embedded', 'served'] as const;
export type Transport = (typeof TRANSPORTS)[number];

/**
 * How a run is watched and judged: an export to `--out` (F), a sync into its
 * database (F), a bulk invite of the CSV C into the results file R.
 */
export type Kind = 'export' | 'sync' | 'invite';

export interface MatrixRow {
  /** The case's name in the test. */
  name: string;
  kind: Kind;
  /** The command line, with F, C and R standing for the run's files. */
  args: string[];
  /** For an export: the command the rerun hint names. */
  rerun?: string;
  /** What is left once it stopped (docs/faults.md's last column). */
  afterwards: string;
}

const EXPORT_AFTER = 'absent, no temporary file';
const SYNC_AFTER = 'the database, with the people committed so far';

export const MATRIX: readonly MatrixRow[] = [
  { name: 'invitations list --all', kind: 'export', args: ['invitations', 'list', '--all', '-o', 'csv', '--out', 'F'], rerun: 'jobfit invitations list --all', afterwards: EXPORT_AFTER },
  { name: 'test-takers list --all', kind: 'export', args: ['test-takers', 'list', '--all', '-o', 'csv', '--out', 'F'], rerun: 'jobfit test-takers list --all', afterwards: EXPORT_AFTER },
  { name: 'scorecard --all', kind: 'export', args: ['scorecard', '--all', '--sp', 'sales-rep', '-o', 'csv', '--out', 'F'], rerun: 'jobfit scorecard', afterwards: EXPORT_AFTER },
  { name: 'job-fit --all', kind: 'export', args: ['job-fit', '--all', '-o', 'csv', '--out', 'F'], rerun: 'jobfit job-fit', afterwards: EXPORT_AFTER },
  { name: 'report', kind: 'export', args: ['report', '--sp', 'sales-rep', '-o', 'json', '--out', 'F'], rerun: 'jobfit report', afterwards: EXPORT_AFTER },
  { name: 'sync', kind: 'sync', args: ['sync', '--db', 'F', '--sp', 'sales-rep'], afterwards: SYNC_AFTER },
  { name: 'sync --watch', kind: 'sync', args: ['sync', '--db', 'F', '--sp', 'sales-rep', '--watch', '1h'], afterwards: SYNC_AFTER },
  {
    name: 'invite --csv',
    kind: 'invite',
    args: ['invite', '--csv', 'C', '--out', 'R', '--created-by', INVITER, '--concurrency', '1', '--yes'],
    afterwards: 'R: every row, those sent `created`, the rest `not_sent`; the journal beside it',
  },
];

/** Every cell: command × transport × signal. */
export function cells(): Array<{ row: MatrixRow; transport: Transport; signal: NodeJS.Signals; code: number }> {
  return MATRIX.flatMap((row) => TRANSPORTS.flatMap((transport) => SIGNALS.map(([signal, code]) => ({ row, transport, signal, code }))));
}

/** The markdown table docs/faults.md shows under "The interrupt matrix". */
export function matrixMarkdown(): string[] {
  const head = ['| Command | Transport | ' + SIGNALS.map(([s]) => s).join(' | ') + ' | `--out` afterwards |', '|' + '---|'.repeat(3 + SIGNALS.length)];
  const rows = MATRIX.map(
    (r) => `| \`${r.args.join(' ')}\` | ${TRANSPORTS.join(' / ')} | ${SIGNALS.map(([, c]) => TRANSPORTS.map(() => c).join(' / ')).join(' | ')} | ${r.afterwards} |`,
  );
  return [...head, ...rows];
}
