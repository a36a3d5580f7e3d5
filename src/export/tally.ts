/**
 * Every item a bulk export works through is accounted exactly once: written,
 * or counted under a named reason (no results yet, report not available yet,
 * failed), or, when the run stopped early, not done. One summary line on
 * stderr gives the numbers; they add up to the ids given, or for `--all` to
 * what the list found and to the service's `total_count`. When they do not,
 * the run fails and says what is missing: an export never exits 0 short.
 */
import { JobfitError } from '../core/errors.js';
import { NUM } from '../format/number.js';

export class ExportTally {
  written = 0;
  failed = 0;
  readonly reasons = new Map<string, number>();

  /** `noun`: the items ("test takers"); `writtenAs`: what "written" means for this run. */
  constructor(
    readonly noun: string,
    readonly writtenAs = 'written',
  ) {}

  write(): void {
    this.written++;
  }

  skip(reason: string): void {
    this.reasons.set(reason, (this.reasons.get(reason) ?? 0) + 1);
  }

  fail(): void {
    this.failed++;
  }

  /** Items given an outcome so far. */
  get accounted(): number {
    let n = this.written + this.failed;
    for (const k of this.reasons.values()) n += k;
    return n;
  }

  /**
   * "5,065 written, 5,065 without results yet, 0 failed". `writeFailed`: a
   * write to the output failed, so the rows were handed to it but not all
   * reached it: never called "written" then.
   */
  parts(writeFailed = false): string {
    const as = writeFailed && this.writtenAs === 'written' ? 'handed to the output' : this.writtenAs;
    const out = [`${NUM.format(this.written)} ${as}`];
    for (const [reason, k] of this.reasons) out.push(`${NUM.format(k)} ${reason}`);
    out.push(`${NUM.format(this.failed)} failed`);
    return out.join(', ');
  }

  /**
   * The one summary line. `listed`: items the run had to work through;
   * `totalCount`: the service's total_count for --all; `elapsedMs`: for the pace;
   * `writeFailed`: a write to the output failed (a full disk behind `> FILE`),
   * said in the same sentence so that it never reads as a finished export.
   */
  line(o: { listed: number; totalCount?: number; created?: number; elapsedMs?: number; notDone?: number; writeFailed?: boolean }): string {
    const made = o.created ? `; ${NUM.format(o.created)} created during the run` : '';
    const of = o.totalCount !== undefined ? ` (total_count ${NUM.format(o.totalCount)}${made})` : '';
    const notDone = o.notDone ? `, ${NUM.format(o.notDone)} not done` : '';
    const pace =
      o.elapsedMs !== undefined
        ? `, in ${(o.elapsedMs / 1000).toFixed(1)}s${o.elapsedMs > 0 ? ` (${NUM.format(Math.round((this.accounted * 1000) / o.elapsedMs))}/s)` : ''}`
        : '';
    const cut = o.writeFailed ? '; a write to the output failed, so it is incomplete' : '';
    return `${NUM.format(o.listed)} ${this.noun}${of}: ${this.parts(o.writeFailed)}${notDone}${pace}${cut}.`;
  }

  /**
   * Throws (exit 1) naming what is missing when the outcomes do not add up to
   * `listed`, or `listed` to the service's total_count. `created`: items
   * among `listed` created after the service counted (not in its total_count).
   */
  check(listed: number, totalCount?: number, created = 0): void {
    if (this.accounted !== listed) {
      const gap = listed - this.accounted;
      throw new JobfitError(
        gap > 0
          ? `${NUM.format(gap)} of ${NUM.format(listed)} ${this.noun} were neither written nor counted; the export is incomplete.`
          : `${NUM.format(-gap)} ${this.noun} were counted twice (${NUM.format(this.accounted)} outcomes for ${NUM.format(listed)}); the export cannot be trusted.`,
        { hint: 'run it again; if it persists, report it with the output of -v' },
      );
    }
    if (totalCount !== undefined && listed - created !== totalCount) {
      const made = created ? ` (and ${NUM.format(created)} created during the run)` : '';
      throw new JobfitError(`The list found ${NUM.format(listed - created)} ${this.noun}${made} but the service reports ${NUM.format(totalCount)}; the export is incomplete.`, {
        hint: 'run it again; the list may have changed during the export',
      });
    }
  }
}
