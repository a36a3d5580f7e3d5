/**
 * The live guard of a single invite, as bulk invite's (live-guard.ts): before
 * one real invitation goes out, what will be sent (person, team, assessments,
 * template, channels, mode, account, base URL) and a "Send? (y/N)" on a
 * terminal, or --yes. Our own stub (proven by its instance) and a test key
 * need no confirmation. A dry run shows the same summary and sends nothing.
 */
import { isDuplicateMessage } from '../api/index.js';
import { ApiError } from '../client/errors.js';
import { CancelError, ExitCode, JobfitError, UsageError } from '../core/errors.js';
import { safeText } from '../format/sanitize.js';
import { type AccountData, type BulkApi, findInvitationByEmail } from './account.js';
import type { BulkDeps } from './types.js';

/** The body of POST /invitations, as buildSingleBody makes it. */
interface SingleBody {
  first_name?: unknown;
  last_name?: unknown;
  email?: unknown;
  created_by_user_email?: unknown;
  team_id?: unknown;
  assessments_to_assign?: unknown;
  email_template_id?: unknown;
  send_via_email?: unknown;
  send_via_sms?: unknown;
  phone?: unknown;
  custom_id?: unknown;
}

const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/** The lines that say what one invitation will be, with the inviter's defaults filled in where the body leaves them to the service. */
export function singleSummary(body: Record<string, unknown>, account: AccountData, target: BulkDeps['target']): string[] {
  const b = body as SingleBody;
  const inviter = account.users.get(str(b.created_by_user_email).trim().toLowerCase());
  const teamId = typeof b.team_id === 'number' ? b.team_id : inviter?.default_team?.id;
  const team = teamId === undefined ? "the inviter's default team" : `${account.teamsById.get(teamId)?.display_name ?? inviter?.default_team?.display_name ?? 'team'} (${teamId})`;
  const given = Array.isArray(b.assessments_to_assign) ? (b.assessments_to_assign as Array<{ test_id: number }>).map((a) => a.test_id) : undefined;
  const ids = given ?? inviter?.default_assessments.map((a) => a.id) ?? [];
  const assessments = ids.map((id) => `${account.assessmentNames.get(id) ?? 'assessment'} (${id})`).join(', ') || "the inviter's defaults";
  const byEmail = b.send_via_email !== false;
  const bySms = b.send_via_sms === true;
  const channels = [byEmail ? 'email' : '', bySms ? `SMS to ${str(b.phone)}` : ''].filter(Boolean).join(' and ') || 'none (you deliver the link)';
  const tplId = typeof b.email_template_id === 'number' ? b.email_template_id : inviter?.default_invitation_email_template?.id;
  const template = !byEmail ? '(no email)' : tplId === undefined ? "the inviter's default" : `${account.templatesById.get(tplId)?.display_name ?? 'template'} (${tplId})`;
  const mode = target.local ? `${target.mode ?? 'live'}, ${target.embedded ? 'the embedded local stub' : 'the local stub'}` : (target.mode ?? 'live (mode not known)');
  const lines = [
    `  person:      ${str(b.first_name)} ${str(b.last_name)} <${str(b.email)}>${b.custom_id ? ` custom id ${str(b.custom_id)}` : ''}`,
    `  invited by:  ${str(b.created_by_user_email)}`,
    `  team:        ${team}`,
    `  assessments: ${assessments}`,
    `  template:    ${template}`,
    `  delivery:    ${channels}`,
    `  mode:        ${mode}`,
    `  account:     ${account.account.display_name} (${account.account.id})`,
    `  base URL:    ${target.baseUrl}`,
  ];
  return lines;
}

/** True when this target sends a real email or SMS: a live (or unknown) key on a server that is not our stub. */
export const isRealSend = (target: BulkDeps['target']): boolean => !target.local && target.mode !== 'test';

/**
 * Before a single live invite: the summary on stderr, then --yes, a
 * confirmation on a terminal, or (off one) exit 2 with nothing sent. "No"
 * ends the run with ExitCode.DECLINED. Our stub and a test key pass.
 */
export async function guardSingle(
  body: Record<string, unknown>,
  account: AccountData,
  deps: Pick<BulkDeps, 'ctx' | 'target' | 'confirm'>,
  yes: boolean | undefined,
): Promise<void> {
  const { ctx, target } = deps;
  if (!isRealSend(target)) return;
  ctx.io.stderr.write(`${safeText(['LIVE: about to invite 1 participant for real.', ...singleSummary(body, account, target)].join('\n'))}\n`);
  if (yes) return;
  if (!ctx.io.canPrompt || !deps.confirm) {
    throw new UsageError('A live invite without a terminal needs --yes (a real email or SMS will be sent); nothing was sent.', 'check it with --dry-run first, then add --yes');
  }
  const ok = await deps.confirm('Send this live invitation now?');
  if (!ok) throw new CancelError('Nothing was sent.', ExitCode.DECLINED);
}

/**
 * A single invite the service refused because the email is already invited
 * (on this team or another): the refusal with the invitation in the way
 * named, as bulk invite's results say it (`…: invitation 345 on team Retail
 * Stores (12), for Ana Diaz, created …`). Any other error comes back as it was.
 */
export async function withConflictNamed(err: unknown, api: Pick<BulkApi, 'listInvitations'>, email: string, signal?: AbortSignal): Promise<unknown> {
  if (!(err instanceof ApiError) || err.status !== 400 || !isDuplicateMessage(err.apiText)) return err;
  const found = await findInvitationByEmail(api, email, signal).catch(() => undefined);
  if (!found) return err;
  const team = found.team ? `team ${found.team.display_name} (${found.team.id})` : 'another team';
  const when = found.created_at ? `, created ${found.created_at}` : '';
  return new JobfitError(`${err.apiText}: invitation ${found.id} on ${team}, for ${found.first_name} ${found.last_name}${when}.`, {
    hint: `see it with \`jobfit invitations get ${found.id}\``,
    cause: err,
  });
}
