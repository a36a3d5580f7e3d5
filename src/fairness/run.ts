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

export class FairnessRun {
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
  }

  addScorecard(id: number, card: { five_star_score?: number | null; job_fit_percentage?: number | null }): void {
    this.join.addScorecard(id, card);
  }

  /** The scorecard, and (for completion) the test taker beside it: only for a person with a row, whose completion counts. */
  async fetch(client: JobfitClient, id: number, sp: string, signal?: AbortSignal) {
    if (!this.settings.completion || !this.join.needsCompletion(id)) return client.getScorecard(id, sp, signal);
    const [card, taker] = await Promise.all([client.getScorecard(id, sp, signal), client.getTestTaker(id, signal)]);
    this.join.addTestTaker(id, taker as { assigned_assessments?: Array<{ completed_at?: string | null }> });
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
      for (const row of fairnessCsvRows(r)) writer.write(row);
      return writer;
    }
    return undefined;
  }
}
