/**
 * What bulk invite takes and gives: its options, the client methods and
 * seams it uses, and the summary of a run.
 */
import type { CreateInvitationBody } from '../api/index.js';
import type { CreatedCheck } from '../client/client.js';
import type { Session } from '../core/session.js';
import type { BulkApi } from './account.js';
import type { MappingReport } from './report.js';

export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 64;

export interface BulkRunOptions {
  /** Path of the CSV or .xlsx workbook, or "-" for standard input. */
  csv: string;
  /** The workbook's sheet to read (name or 1-based number); the first visible one by default. */
  sheet?: string;
  out?: string;
  dryRun?: boolean;
  resume?: boolean;
  /** Send again the rows of the last run that failed or were not sent (its journal). */
  retryFailed?: boolean;
  /** Write every invalid row (cells, line, reasons) to this CSV. */
  errors?: string;
  /** Without a terminal, the progress line's period (default PROGRESS_LINE_MS). */
  progressEveryMs?: number;
  skipInvalid?: boolean;
  yes?: boolean;
  concurrency?: number;
  /** Rows the validation pass may keep for the sending pass (default KEEP_ROWS; 0: always read the file again). */
  keepRows?: number;
  maps?: string[];
  /** `--header-row N`: the line (sheet row) of the header; by default the first row that maps an email and a name. */
  headerRow?: number;
  /** `--name-order`: how a one-cell name without a comma is split (default first-last). */
  nameOrder?: 'first-last' | 'last-first';
  createdBy?: string;
  team?: string;
  assessments?: string;
  template?: string;
  sendVia?: string;
  /** Country of phone numbers written without +country code (rows without a Country cell). */
  phoneCountry?: string;
}

export interface BulkTarget {
  baseUrl: string;
  mode?: 'live' | 'test';
  /** Our own stub, proven (config/served-stubs.ts, isOurStub): nothing reaches a real person. Any other server is the real service. */
  local: boolean;
  /** The CLI's embedded stub, answered in this process: it has no address to name. */
  embedded?: boolean;
}

/** The client methods bulk invite uses, beside BulkApi's reads. */
export interface BulkSender extends BulkApi {
  createInvitationDetailed(body: CreateInvitationBody, signal?: AbortSignal, confirmed?: CreatedCheck): Promise<{ invitation: { id: number; assessment_url: string | null }; recovered: boolean }>;
}

export interface ProgressLike {
  tick(opts?: { error?: boolean; invalid?: boolean; n?: number }): void;
  setTotal(total: number): void;
  stop(): void;
}

export interface BulkDeps {
  ctx: Pick<Session, 'io' | 'globals' | 'info' | 'warn'>;
  api: BulkSender;
  target: BulkTarget;
  /** Asks a yes/no question on the terminal (only called when io.canPrompt). */
  confirm?: (message: string) => Promise<boolean>;
  progress?: (total: number) => ProgressLike;
  /** Profile invite defaults (flags win over them). */
  profileDefaults?: { createdBy?: string; team?: string; assessments?: string; template?: string; sendVia?: string };
}

export interface InvalidRow {
  row: number;
  line: number;
  email?: string;
  errors: Array<{ field: string; reason: string }>;
}

export interface BulkSummary {
  rows: number;
  valid: number;
  invalid: number;
  created: number;
  exists: number;
  failed: number;
  /** Rows the run stopped before sending (and, among them, `unknown`: sent with no answer). */
  notSent: number;
  unknown: number;
  /** Rows this run sent (not those recorded by an earlier one): the rate is of these. */
  sent: number;
  resumed: number;
  seconds: number;
  results?: string;
  journal?: string;
  interrupted: boolean;
  dryRun: boolean;
  invalidRows: InvalidRow[];
  /** How the header and the values were read (shown by the dry run). */
  mapping: MappingReport;
  /** Where --errors wrote the invalid rows. */
  errorsFile?: string;
  /** The origin of the assessment links the run got (the first one seen). */
  linkOrigin?: string;
}
