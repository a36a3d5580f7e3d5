/**
 * `jobfit invite`: one participant from flags (prompting on a terminal), or
 * many from a CSV (`--csv FILE|-`, src/bulk). The single-invite flags are the
 * defaults of every CSV row.
 */
import { heapForSize } from '../../core/heap.js';
import type { CreateInvitationParsed } from '../../api/index.js';
import { ROUTES } from '../../api/routes.js';
import * as z from 'zod';
import { ExitCode, SilentError, UsageError } from '../../core/errors.js';
import { isLoopbackHost } from '../../core/loopback.js';
import { safeJson, safeLine, safeText } from '../../format/sanitize.js';
import { printObject } from '../../format/output.js';
import { checkOutFile, checkOutputOptions } from '../kit/output-checks.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { collect, flag } from '../kit/flags.js';
import { flagOf } from '../kit/parse.js';
import { guardSingle, isRealSend, singleSummary, withConflictNamed } from '../../bulk/single-guard.js';

const text = (f: string, description: string) => flag(z.string().optional(), { flag: f, description });
const bulk = (f: string, description: string) => flag(z.boolean().optional(), { flag: f, description });

const BULK_ONLY = ['sheet', 'headerRow', 'nameOrder', 'out', 'resume', 'retryFailed', 'errors', 'skipInvalid', 'concurrency', 'map'] as const;
const SINGLE_ONLY = ['firstName', 'lastName', 'email', 'phone', 'customId', 'personId', 'refText'] as const;

const InviteOptions = z
  .object({
    firstName: text('--first-name <name>', 'participant first name'),
    lastName: text('--last-name <name>', 'participant last name'),
    email: text('--email <email>', 'participant email'),
    createdBy: text('--created-by <email>', 'inviter: a user of the account (default: profile invite default)'),
    team: text('--team <id|name>', "team id or name (default: the inviter's default team)"),
    assessments: text('--assessments <list>', "names or test ids, e.g. personality,interests or 6,8 (default: the inviter's)"),
    template: text('--template <id|name>', "invitation email template id or name (default: the inviter's)"),
    sendVia: text('--send-via <channels>', 'email, sms, email,sms or none (default: email)'),
    phone: text('--phone <number>', 'participant phone (needed for sms; normalised to E.164)'),
    phoneCountry: text('--phone-country <code>', 'country of phone numbers written without +country code, e.g. GB (default US; a Country column wins)'),
    customId: text('--custom-id <id>', 'your grouping id (max 50 characters)'),
    personId: text('--person-id <id>', 'your participant id'),
    refText: text('--ref-text <text>', 'reference text for some templates (max 60 characters)'),
    csv: text('--csv <file|->', 'bulk: invite every row of a CSV file or an .xlsx workbook (- for standard input)'),
    file: text('--file <file|->', 'bulk: the same as --csv (a CSV or an .xlsx workbook, told apart by content)'),
    sheet: text('--sheet <name|n>', "bulk: the workbook's sheet to read, by name or number (default: the first visible sheet)"),
    headerRow: flag(
      z
        .string()
        .regex(/^\d+$/, 'must be a line number')
        .transform(Number)
        .refine((n) => n >= 1, 'must be a line number from 1')
        .optional(),
      { flag: '--header-row <n>', description: 'bulk: the line (sheet row) of the header (default: the first row with an email and a name column)' },
    ),
    nameOrder: flag(z.enum(['first-last', 'last-first']).optional(), {
      flag: '--name-order <order>',
      description: 'bulk: how a one-cell name without a comma is split: first-last (default) or last-first',
    }),
    out: text('--out <file>', 'bulk: results file, CSV or .xlsx by its name (default: FILE.results.csv, or .results.xlsx for a workbook, beside the input)'),
    dryRun: bulk('--dry-run', 'validate (every row, or the one invitation against the account) and show what would be sent; send nothing'),
    resume: bulk('--resume', 'bulk: continue an interrupted run (from the journal beside --out)'),
    retryFailed: bulk('--retry-failed', 'bulk: send again only the rows of the last run that failed or were not sent (from its journal)'),
    errors: text('--errors <file>', 'bulk: write every invalid row (cells, line, reasons) to this CSV'),
    skipInvalid: bulk('--skip-invalid', 'bulk: send the valid rows even when some are invalid'),
    concurrency: flag(
      z
        .string()
        .regex(/^\d+$/, 'must be a whole number')
        .transform(Number)
        .refine((n) => n >= 1 && n <= 64, 'must be from 1 to 64')
        .optional(),
      { flag: '--concurrency <n>', description: 'bulk: requests in flight at once (1-64, default 8)' },
    ),
    map: flag(z.array(z.string()).optional(), {
      flag: '--map <Header=field>',
      description: 'bulk: map a CSV column to a field (repeatable), e.g. --map "Cand Mail=email"',
      parse: collect,
    }),
    yes: bulk('-y, --yes', 'do not ask before sending live invitations (needed without a terminal when the key is live)'),
  })
  .superRefine((o, zctx) => {
    // --file is the general name of --csv (a CSV or an .xlsx workbook).
    if (o.csv !== undefined && o.file !== undefined) return zctx.addIssue({ code: 'custom', message: '--csv and --file are the same option; give one.' });
    const flags = (keys: readonly string[]) => keys.map((k) => flagOf(k)).join(', ');
    if (o.csv !== undefined || o.file !== undefined) {
      const stray = SINGLE_ONLY.filter((k) => o[k] !== undefined);
      if (stray.length) {
        zctx.addIssue({
          code: 'custom',
          message: `${flags(stray)} describe one participant and cannot go with --csv.`,
          params: { hint: 'put them in the file, or drop --csv' },
        });
      }
      return;
    }
    const stray = BULK_ONLY.filter((k) => o[k] !== undefined && o[k] !== false);
    if (stray.length) zctx.addIssue({ code: 'custom', message: `${flags(stray)} ${stray.length === 1 ? 'only applies' : 'only apply'} with --csv FILE (or --file FILE).` });
  });
type InviteOptions = z.output<typeof InviteOptions>;

/**
 * The profile's invite defaults (conf), as strings the resolvers take: local
 * config, known before connecting. Throws what client() would for a config
 * it refuses.
 */
async function profileDefaults(ctx: Context): Promise<{ createdBy?: string; team?: string; assessments?: string; template?: string; sendVia?: string }> {
  const name = await ctx.profileName();
  if (!name) return {};
  try {
    const store = await ctx.config();
    const d = store.getProfile(name)?.invite_defaults;
    if (!d) return {};
    return {
      createdBy: d.created_by,
      team: d.team_id === undefined ? undefined : String(d.team_id),
      assessments: d.assessments?.length ? d.assessments.join(',') : undefined,
      template: d.email_template_id === undefined ? undefined : String(d.email_template_id),
      sendVia: d.send_via,
    };
  } catch {
    return {};
  }
}

/**
 * When the results' assessment links point at a local stub that is not
 * serving them (the embedded stub's point at the last `stub serve`'s
 * address, else :4010), the sentence that says so; undefined otherwise.
 * A real service's links are never probed.
 */
async function deadLinks(origin: string | undefined, embedded: boolean): Promise<string | undefined> {
  if (!origin || !URL.canParse(origin)) return undefined;
  const fix = 'start one with `jobfit stub serve` (it keeps its address) and open them while it runs';
  if (!embedded && !isLoopbackHost(new URL(origin).hostname)) return undefined;
  try {
    await fetch(`${origin}/v2${ROUTES.healthcheck.path}`, { signal: AbortSignal.timeout(1500) });
    return undefined;
  } catch {
    return `The assessment links in the results point at ${origin}, where no stub is serving now: nobody can open them until it is; ${fix}.`;
  }
}

async function run(opts: InviteOptions, ctx: Context): Promise<void> {
  if (ctx.globals.output === 'xlsx') {
    throw new UsageError('invite prints a summary, not a list: -o xlsx does not apply.', 'for the results as a workbook: --out results.xlsx');
  }
  const o = { ...opts, csv: opts.csv ?? opts.file };
  return o.csv === undefined ? runSingle(o, ctx) : runBulk(o, ctx);
}

async function runSingle(o: InviteOptions, ctx: Context): Promise<void> {
  const [{ loadAccountData }, { buildSingleBody }] = await Promise.all([import('../../bulk/account.js'), import('../../bulk/single.js')]);
  // -o is checked before the invitation is sent: a refusal afterwards would leave it sent, unprinted.
  checkOutputOptions(ctx, {});
  const client = await ctx.client();
  const pd = await profileDefaults(ctx);
  const opts = {
    ...o,
    createdBy: o.createdBy ?? pd.createdBy,
    team: o.team ?? pd.team,
    assessments: o.assessments ?? pd.assessments,
    template: o.template ?? pd.template,
    sendVia: o.sendVia ?? pd.sendVia,
  };
  const account = await loadAccountData(client);
  const body = await buildSingleBody(opts, account, ctx, () => ctx.prompter());
  if (await singleGate(o, ctx, body, account)) return;
  const { invitation, recovered } = await client.createInvitationDetailed(body).catch(async (err: unknown) => {
    throw await withConflictNamed(err, client, body.email, ctx.io.signal);
  });
  if (recovered) ctx.info('The connection was lost after sending; the invitation was found by its email (not sent twice).');
  await printObject(ctx, invitation, {
    columns: [
      { key: 'id', header: 'ID' },
      { key: 'email', header: 'EMAIL' },
      { key: 'team.display_name', header: 'TEAM' },
      { key: 'assessment_url', header: 'ASSESSMENT URL' },
    ],
  });
  const { noteParticipantLinks } = await import('../shared/participant-links.js');
  await noteParticipantLinks(ctx, [invitation]);
}

/**
 * Before one invitation is sent: a dry run shows it and stops (true); a live
 * one is shown and confirmed (src/bulk/single-guard.ts).
 */
async function singleGate(o: InviteOptions, ctx: Context, body: CreateInvitationParsed, account: Parameters<typeof singleSummary>[1]): Promise<boolean> {
  const { isOurStub } = await import('../../config/served-stubs.js');
  const conn = ctx.connection;
  const target = { baseUrl: conn?.baseUrl ?? '', mode: conn?.mode, local: await isOurStub(ctx.io.env, conn?.baseUrl ?? '', Boolean(conn?.embedded)), embedded: conn?.embedded };
  if (o.dryRun) {
    await printDryRun(ctx, body, singleSummary(body, account, target), isRealSend(target));
    return true;
  }
  await guardSingle(body, account, { ctx, target, confirm: async (message) => (await ctx.prompter()).confirm(message, { default: false }) }, o.yes);
  return false;
}

/** A single invite's dry run: the request body on stdout for -o json, else the summary; nothing is sent. */
async function printDryRun(ctx: Context, body: CreateInvitationParsed, summary: string[], live: boolean): Promise<void> {
  const fmt = ctx.globals.output;
  if (fmt === 'json' || fmt === 'ndjson') {
    const doc = { dry_run: true, valid: true, live, request: { method: ROUTES.createInvitation.method, path: ROUTES.createInvitation.path, body } };
    ctx.io.stdout.write(`${safeJson(JSON.stringify(doc, null, fmt === 'json' ? 2 : undefined))}\n`);
  } else {
    ctx.io.stdout.write(safeText(['Dry run: the invitation is valid; it would be sent as:', ...summary, ''].join('\n')));
  }
  ctx.info(`Nothing was sent${live ? ' (to send it for real: the same command without --dry-run)' : ''}.`);
}

async function runBulk(o: InviteOptions, ctx: Context): Promise<void> {
  const [{ prepareRun, runBulkInvite, formatMapping, formatReport, bulkSummaryLine, finishBulk }, { createProgress }, { isOurStub }] = await Promise.all([
    import('../../bulk/run.js'),
    import('../../format/progress.js'),
    import('../../config/served-stubs.js'),
  ]);
  // --errors is written only when rows are invalid, after the account is read:
  // its destination is checked now, before any connection, as every --errors is.
  if (o.errors !== undefined) checkOutFile(o.errors, '--errors');
  // A bulk run streams: its live data is small, but V8 lets the heap grow far
  // past it before collecting, which set the peak of a 100,000-row dry run.
  // Growing the heap for size rather than speed keeps the peak ~15 MB lower
  // (docs/performance.md, "Bulk invite"). Only for --dry-run, where memory is
  // the measure: while sending, the flag cost ~15% more CPU per row (measured:
  // 2.85 vs 2.4 s of CPU for 10,000 rows), and the sender is CPU-bound.
  if (o.dryRun) heapForSize();
  const bulkOpts = {
    csv: o.csv!,
    sheet: o.sheet,
    headerRow: o.headerRow,
    nameOrder: o.nameOrder,
    out: o.out,
    dryRun: o.dryRun,
    resume: o.resume,
    retryFailed: o.retryFailed,
    errors: o.errors,
    skipInvalid: o.skipInvalid,
    yes: o.yes,
    concurrency: o.concurrency,
    maps: o.map,
    createdBy: o.createdBy,
    team: o.team,
    assessments: o.assessments,
    template: o.template,
    sendVia: o.sendVia,
    phoneCountry: o.phoneCountry,
  };
  // Everything that needs no service is refused before the first ctx.client(),
  // which may start the embedded stub or read a key from the keyring; an
  // inviter too, when neither the file, --created-by nor the profile names one.
  // (A config client() refuses leaves it unknown here: client() says why.)
  const pd = await profileDefaults(ctx).catch(() => undefined);
  const prepared = await prepareRun(bulkOpts, ctx, { haveInviter: pd === undefined || Boolean(o.createdBy ?? pd.createdBy) });
  let summary: Awaited<ReturnType<typeof runBulkInvite>>;
  try {
    const client = await ctx.client();
    const conn = ctx.connection;
    summary = await runBulkInvite(bulkOpts, {
      ctx,
      api: client,
      target: { baseUrl: conn?.baseUrl ?? '', mode: conn?.mode, local: await isOurStub(ctx.io.env, conn?.baseUrl ?? '', Boolean(conn?.embedded)), embedded: conn?.embedded },
      confirm: async (message) => (await ctx.prompter()).confirm(message, { default: false }),
      progress: (total) => createProgress(ctx, { total, label: 'Inviting', noun: 'rows' }),
      profileDefaults: pd ?? (await profileDefaults(ctx)),
    }, prepared);
  } finally {
    prepared.release();
  }
  const conn = ctx.connection;
  const label = o.csv === '-' ? 'Standard input' : o.csv!;
  const fmt = ctx.globals.output;
  if (summary.dryRun) {
    if (fmt === 'json' || fmt === 'ndjson') {
      const { invalidRows, ...counts } = summary;
      const doc = { ...counts, invalid_rows: invalidRows };
      ctx.io.stdout.write(`${safeJson(JSON.stringify(doc, null, fmt === 'json' ? 2 : undefined))}\n`);
    } else {
      // Cells and names are a stranger's text: control characters shown, never obeyed.
      ctx.io.stdout.write(safeText(formatMapping(summary.mapping) + formatReport(summary, label)));
    }
    if (summary.invalid > 0) {
      throw new SilentError(ExitCode.PARTIAL);
    }
    return;
  }
  if (!ctx.globals.quiet || summary.interrupted) ctx.io.stderr.write(`${bulkSummaryLine(summary)}\nResults: ${safeLine(summary.results ?? '')}\n`);
  const dead = await deadLinks(summary.linkOrigin, Boolean(conn?.embedded));
  if (dead) ctx.warn(safeText(dead));
  if (fmt === 'json' || fmt === 'ndjson') {
    const { invalidRows: _omit, mapping: _mapping, ...counts } = summary;
    ctx.io.stdout.write(fmt === 'json' ? `${JSON.stringify(counts, null, 2)}\n` : `${JSON.stringify(counts)}\n`);
  }
  finishBulk(summary, bulkOpts, ctx);
}

export default defineCommand({
  description:
    'Invite participants: one from flags (asks for what is missing on a terminal), or many from a CSV with --csv.\n' +
    'In bulk, every row is validated before anything is sent; a journal beside the results file makes --resume safe after a crash.',
  options: InviteOptions,
  examples: [
    'jobfit invite --first-name Ana --last-name Diaz --email ana@example.com --created-by dana.whitfield@northwind-talent.example',
    'jobfit invite --email ana.diaz@example.com --first-name Ana --last-name Diaz --created-by dana.whitfield@northwind-talent.example --team "Retail Stores" --assessments personality,interests',
    'jobfit invite --first-name Ana --last-name Diaz --email ana@example.com --created-by dana.whitfield@northwind-talent.example --dry-run',
    'jobfit invite --csv fixtures/csv/sample.csv --created-by dana.whitfield@northwind-talent.example --dry-run',
    'jobfit invite --file fixtures/csv/people.xlsx --sheet Candidates --created-by dana.whitfield@northwind-talent.example --dry-run',
    'jobfit invite --file fixtures/csv/people.xlsx --created-by dana.whitfield@northwind-talent.example --out results.xlsx',
    'jobfit invite --csv fixtures/csv/uk-candidates.csv --phone-country GB --send-via email,sms --created-by dana.whitfield@northwind-talent.example --dry-run',
    'jobfit invite --csv fixtures/csv/sample.csv --created-by dana.whitfield@northwind-talent.example --out results.csv',
    'jobfit invite --csv fixtures/csv/sample.csv --created-by dana.whitfield@northwind-talent.example --out results.csv --resume',
    'jobfit invite --csv fixtures/csv/sample.csv --created-by dana.whitfield@northwind-talent.example --out results.csv --retry-failed',
    'jobfit --live invite --csv fixtures/csv/sample.csv --created-by dana.whitfield@northwind-talent.example --yes --concurrency 16',
    '# CSV columns (forgiving names): First Name, Last Name, Email, Phone, Team, Assessments, Template, Send Via, Custom ID, Person ID, Ref Text, Created By',
    '# Results: the input columns + row, status (created|exists|invalid|failed|not_sent|unknown), invitation_id, assessment_url, error',
    '# Live (a live key, not the local stub): a summary, then "Send? (y/N)" on a terminal; --yes without one (exit 2 and nothing sent without it)',
    '# Exit: 0 all created or existing, 3 some invalid or failed, 2 unusable input or flags, 5 you answered no (nothing sent), 1 stopped (service gone, disk full: resumable), 130 interrupted (resumable; 143 SIGTERM, 129 SIGHUP)',
  ],
  run,
});
