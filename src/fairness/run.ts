/**
 * `report --fairness`: what the report command calls. It reads the
 * self-identification file before the first request, joins the export as it
 * arrives (invitations, scorecards, and the test taker for completion), and
 * writes the result in the report's format. Nothing of the file goes into a
 * request, a cache or a file other than the report's own aggregate output.
 */
import type { JobfitClient } from '../client/client.js';
import type { Session } from '../core/session.js';
import { type ListWriter, createListWriter, jsonText } from '../format/output.js';
import { FairnessJoin } from './join.js';
import type { FairnessOutcome } from './outcome.js';
import type { PrivacyRules } from './privacy.js';
import { FAIRNESS_CSV_COLUMNS, type FairnessReport, buildFairnessReport, fairnessCsvRows } from './report.js';
import { type JoinKey, readSelfId } from './selfid.js';

/** What `report --fairness` asks for (src/commands/report/fairness-options.ts reads it from the command line). */
export interface FairnessSettings {
  file: string;
  by: string[];
  join?: JoinKey;
  outcome: FairnessOutcome;
  rules: PrivacyRules;
  completion: boolean;
}

export interface PageMeta {
  source: string;
  account?: string;
  mode?: string;
}

type Assigned = { assigned_assessments?: Array<{ completed_at?: string | null }> };
type TakerReader = Pick<JobfitClient, 'getTestTaker' | 'getInvitation'>;

/**
 * The test taker's assigned assessments when a list item carries them (a
 * newer server: the reference's list items have none, and the stub gives
 * none), each with its `completed_at` (a time or null); anything else says
 * nothing and the test taker is read.
 */
function assignedOf(item: object): Array<{ completed_at: string | null }> | undefined {
  const a = (item as Assigned).assigned_assessments;
  if (!Array.isArray(a) || a.length === 0) return undefined;
  const told = a.every((x: unknown) => typeof x === 'object' && x !== null && 'completed_at' in x && (typeof x.completed_at === 'string' || x.completed_at === null));
  return told ? (a as Array<{ completed_at: string | null }>) : undefined;
}

export class FairnessRun {
  /**
   * Test takers whose assigned assessments the run already has, by id, until
   * their scorecard is asked for (or they are filtered out): read by the
   * --status filter, or carried by a newer server's invitation list item.
   */
  private readonly known = new Map<number, Assigned>();

  private constructor(
    readonly settings: FairnessSettings,
    readonly join: FairnessJoin,
  ) {}

  /** Reads the file (exit 2 for a file that cannot be used); says on stderr how it was joined. */
  static async open(s: FairnessSettings, ctx: Session): Promise<FairnessRun> {
    // The reader's note quotes the first skipped line; a line of this file is not repeated anywhere.
    const note = (t: string) => ctx.info(t.replace(/ \(line \d+: [\s\S]*\)\.?$/, '.'));
    const selfId = await readSelfId(s.file, { by: s.by, join: s.join, note });
    ctx.info(`Fairness: ${selfId.answers.size} people in the file, joined on ${selfId.join}; nothing of it is sent.`);
    return new FairnessRun(s, new FairnessJoin(selfId));
  }

  addInvitation(inv: { id: number | string; email?: string | null; person_id?: string | null; custom_id?: string | null }, taker: number | null): void {
    this.join.addInvitation(inv, taker);
    // The reference gives a list item no assessments; a newer server may: then its test taker is not read again.
    const assigned = this.settings.completion && taker !== null ? assignedOf(inv) : undefined;
    if (assigned && taker !== null) this.known.set(taker, { assigned_assessments: assigned });
  }

  addScorecard(id: number, card: { five_star_score?: number | null; job_fit_percentage?: number | null }): void {
    this.join.addScorecard(id, card);
  }

  /**
   * The client for the report's --status filter, which reads test takers of
   * its own: each one read is kept for its completion, so the same run does
   * not ask for it twice (fetch takes it; forget drops one filtered out).
   */
  sharingTestTakers(client: JobfitClient): TakerReader {
    if (!this.settings.completion) return client;
    return {
      getTestTaker: async (id, signal) => {
        const taker = await client.getTestTaker(id, signal);
        const n = Number(id);
        if (Number.isSafeInteger(n)) this.known.set(n, { assigned_assessments: (taker as Assigned).assigned_assessments });
        return taker;
      },
      getInvitation: (id, signal) => client.getInvitation(id, signal),
    };
  }

  /** A test taker the --status filter read and left out: its scorecard is not asked for. */
  forget(testTakerId: number | null): void {
    if (testTakerId !== null) this.known.delete(testTakerId);
  }

  /**
   * The scorecard, and (for completion) the test taker beside it, both in the
   * report's slot of the pool (they go out together): only for a person with
   * a row whose completion is not known yet, and not when the run has it
   * already (--status, or a newer server's list item).
   */
  async fetch(client: JobfitClient, id: number, sp: string, signal?: AbortSignal) {
    const read = this.known.get(id);
    if (read) {
      this.known.delete(id);
      this.join.addTestTaker(id, read);
    }
    if (read || !this.settings.completion || !this.join.needsCompletion(id)) return client.getScorecard(id, sp, signal);
    const [card, taker] = await Promise.all([client.getScorecard(id, sp, signal), client.getTestTaker(id, signal)]);
    this.join.addTestTaker(id, taker as Assigned);
    return card;
  }

  report(scoreProfile: string, teamId: number | undefined, now: Date): FairnessReport {
    const s = this.settings;
    return buildFairnessReport({ join: this.join, outcome: s.outcome, rules: s.rules, completion: s.completion }, { scoreProfile, teamId, now });
  }

  /** The report on `out`'s stdout; the list writer of csv, xlsx and ndjson (the caller ends it). */
  async write(out: Session, format: string, r: FairnessReport, page: PageMeta): Promise<ListWriter | undefined> {
    if (format === 'json') out.io.stdout.write(`${jsonText(r, 2)}\n`);
    else if (format === 'table') {
      const { renderFairnessText } = await import('./text.js');
      out.io.stdout.write(renderFairnessText(out, r));
    } else if (format === 'html') {
      const { renderFairnessHtml } = await import('./html.js');
      out.io.stdout.write(renderFairnessHtml(r, page));
    } else {
      const cols = [...FAIRNESS_CSV_COLUMNS];
      const writer = await createListWriter(out, { columns: cols.map((key) => ({ key })), csvColumns: cols, knownFields: cols, noun: 'groups', flatItems: true });
      for (const row of fairnessCsvRows(r)) if (!writer.write(row)) await writer.drained();
      return writer;
    }
    return undefined;
  }
}
