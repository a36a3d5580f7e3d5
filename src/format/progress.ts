/**
 * Progress of a long run on stderr: done/total, rate, errors, ETA. A bar only
 * when stderr is a terminal and --quiet is off; otherwise the reporter counts
 * silently, and the one-line summary at the end works everywhere.
 */
import { requirePackage } from '../core/packages.js';
import type cliProgress from 'cli-progress';
import type { Session } from '../core/session.js';
import { colorsFor } from './color.js';
import { NUM } from './number.js';

export interface ProgressOptions {
  /** Items expected; may be set later with setTotal (unknown at first for --all). */
  total?: number;
  /** Words before the bar ("Inviting"). */
  label?: string;
  /** Plural noun for the summary ("invitations"). */
  noun?: string;
  /** Milliseconds clock, injectable for tests (default: the context's clock, io.now). */
  clock?: () => number;
}

export interface Progress {
  /** Counts finished items (default 1); `error: true` counts them as failed, `invalid: true` as invalid (not sent, not failed). */
  tick(opts?: { error?: boolean; invalid?: boolean; n?: number }): void;
  setTotal(total: number): void;
  /** Removes nothing: stops redrawing and leaves the last state on screen. Idempotent. */
  stop(): void;
  /** Stops redrawing and erases the bar's line, so what is printed next starts on a clean line. Idempotent. */
  clear(): void;
  /** "1,000 invitations: 997 done, 3 failed, in 2.1s (476/s)" */
  summary(): string;
  /** stop(), then the summary on stderr (unless --quiet). */
  finish(): void;
  readonly done: number;
  readonly errors: number;
  /** A bar is being drawn. */
  readonly active: boolean;
}

// cli-progress costs ~20 ms to load, and most runs (piped, --quiet, one item) draw no bar.
const loadBars = (): typeof cliProgress => requirePackage('cli-progress') as typeof cliProgress;

export function formatDuration(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(Math.round(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** The bars being drawn, per stderr stream: clearProgress erases them before a report is printed. */
const drawn = new WeakMap<object, Set<Progress>>();

/**
 * Erases every bar drawn on this context's stderr (and stops it): call before
 * printing a report on a terminal, so no frame lands in or after the report.
 */
export function clearProgress(ctx: Pick<Session, 'io'>): void {
  for (const p of [...(drawn.get(ctx.io.stderr) ?? [])]) p.clear();
}

/** What a progress line counts. */
export interface ProgressCounts {
  done: number;
  errors: number;
  invalid: number;
  total?: number;
}

/** The fields of the bar's line: every number grouped the same way ("1,592/3,130", not "1592/3,130"). */
export function progressPayload(n: ProgressCounts, rate: number, c: ReturnType<typeof colorsFor>): { count: string; of: string; rate: string; errors: string } {
  return {
    count: NUM.format(n.done),
    of: NUM.format(n.total ?? 0),
    rate: NUM.format(Math.round(rate)),
    errors: `${n.errors ? c.red(`${NUM.format(n.errors)} failed`) : '0 failed'}${n.invalid ? `, ${NUM.format(n.invalid)} invalid` : ''}`,
  };
}

/** "1,000 invitations: 997 done, 3 failed, in 2.1s (476/s)"; "of N" when the total differs from what was done. */
export function summaryLine(n: ProgressCounts, noun: string, elapsedMs: number, rate: number): string {
  const of = n.total !== undefined && n.total !== n.done ? ` of ${NUM.format(n.total)}` : '';
  const ok = n.done - n.errors - n.invalid;
  const skipped = n.invalid ? `, ${NUM.format(n.invalid)} invalid` : '';
  return `${NUM.format(n.done)}${of} ${noun}: ${NUM.format(ok)} done, ${NUM.format(n.errors)} failed${skipped}, in ${formatDuration(elapsedMs)} (${NUM.format(Math.round(rate))}/s)`;
}

/** The bar cli-progress draws on stderr: label, bar, count, rate, errors, ETA. */
function createBar(ctx: Pick<Session, 'io'>, label: string | undefined): cliProgress.SingleBar {
  const bars = loadBars();
  return new bars.SingleBar(
    {
      stream: ctx.io.stderr as unknown as NodeJS.WritableStream,
      format: `${label ? `${label} ` : ''}{bar} {count}/{of} | {rate}/s | {errors} | ETA {eta_formatted}`,
      barsize: Math.max(10, Math.min(30, ctx.io.columns - 60)),
      barCompleteChar: '█',
      barIncompleteChar: '░',
      hideCursor: true,
      fps: 10,
      etaBuffer: 50,
      clearOnComplete: false,
      linewrap: false,
    },
    bars.Presets.shades_classic,
  );
}

export function createProgress(ctx: Pick<Session, 'io' | 'globals'>, opts: ProgressOptions = {}): Progress {
  // The context's clock (not performance.now(): its first call loads perf_hooks, ~3 ms of start-up).
  const clock = opts.clock ?? (() => ctx.io.now().getTime());
  const started = clock();
  const n: ProgressCounts = { done: 0, errors: 0, invalid: 0, total: opts.total };
  let stopped = false;
  const showBar = ctx.io.stderrIsTTY && !ctx.globals.quiet;
  const c = colorsFor(ctx.io.colorStderr);

  const rate = () => {
    const secs = (clock() - started) / 1000;
    return secs > 0 ? n.done / secs : 0;
  };
  const payload = () => progressPayload(n, rate(), c);

  const bar = showBar ? createBar(ctx, opts.label) : undefined;
  // The first frame waits for the real total: a full bar at 0/0 says nothing true.
  let drawing = false;
  const draw = () => {
    if (!bar || stopped) return;
    if (!drawing) {
      if (n.total === undefined) return;
      drawing = true;
      bar.start(n.total, n.done, payload());
      return;
    }
    bar.update(n.done, payload());
  };
  draw();

  const self: Progress = {
    tick(o = {}) {
      const k = o.n ?? 1;
      n.done += k;
      if (o.error) n.errors += k;
      else if (o.invalid) n.invalid += k;
      draw();
    },
    setTotal(t) {
      n.total = t;
      if (drawing) bar?.setTotal(t);
      draw();
    },
    stop() {
      if (stopped) return;
      if (bar && drawing) bar.update(n.done, payload());
      stopped = true;
      drawn.get(ctx.io.stderr)?.delete(self);
      if (bar && drawing) bar.stop();
    },
    clear() {
      if (stopped) return;
      // cli-progress erases the line on stop() when clearOnComplete is set; it reads the option then.
      if (bar) (bar as unknown as { options: { clearOnComplete: boolean } }).options.clearOnComplete = true;
      self.stop();
    },
    summary() {
      return summaryLine(n, opts.noun ?? 'items', clock() - started, rate());
    },
    finish() {
      self.stop();
      if (!ctx.globals.quiet) ctx.io.stderr.write(`${self.summary()}\n`);
    },
    get done() {
      return n.done;
    },
    get errors() {
      return n.errors;
    },
    get active() {
      return Boolean(bar) && !stopped;
    },
  };
  if (bar) {
    const set = drawn.get(ctx.io.stderr) ?? new Set<Progress>();
    set.add(self);
    drawn.set(ctx.io.stderr, set);
  }
  return self;
}
