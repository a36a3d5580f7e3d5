/**
 * `jobfit invite` for one participant: flags, then the profile's invite
 * defaults; on a terminal, prompts for what is still missing with choices
 * loaded from the account; without one, a usage error naming the missing flags.
 * The row goes through the same validator as a CSV row (validate.ts).
 */
import { assessmentRule, type CreateInvitationParsed } from '../api/index.js';
import { UsageError } from '../core/errors.js';
import { noPromptReason } from '../core/prompter.js';
import type { Prompter, Session } from '../core/session.js';
import type { AccountData } from './account.js';
import { FIELDS, type Field, mapHeader } from './columns.js';
import { parseSendVia } from './cells.js';
import { RowValidator } from './validate.js';

interface SingleOptions {
  firstName?: string;
  lastName?: string;
  email?: string;
  createdBy?: string;
  team?: string;
  assessments?: string;
  template?: string;
  sendVia?: string;
  phone?: string;
  phoneCountry?: string;
  customId?: string;
  personId?: string;
  refText?: string;
}

const FLAG_OF: Partial<Record<string, string>> = {
  first_name: '--first-name',
  last_name: '--last-name',
  email: '--email',
  created_by_user_email: '--created-by',
  team: '--team',
  assessments: '--assessments',
  email_template: '--template',
  send_via: '--send-via',
  send_via_email: '--send-via',
  send_via_sms: '--send-via',
  phone: '--phone',
  custom_id: '--custom-id',
  person_id: '--person-id',
  ref_text: '--ref-text',
};

/** Fills gaps by asking; only called when io.canPrompt. Mutates and returns `o`. */
async function promptMissing(o: SingleOptions, a: AccountData, p: Prompter): Promise<SingleOptions> {
  const nonEmpty = (v: string) => (v.trim() ? true : 'required');
  o.firstName ||= await p.input('First name', { validate: nonEmpty });
  o.lastName ||= await p.input('Last name', { validate: nonEmpty });
  o.email ||= await p.input('Email', { validate: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? true : 'an email address, e.g. ana@example.com') });
  if (!o.createdBy) {
    const users = [...a.users.values()];
    if (users.length === 0) throw new UsageError('The account has no users to invite on behalf of.');
    o.createdBy = await p.select(
      'Invited by',
      users.map((u) => ({ name: `${u.first_name} ${u.last_name} <${u.email}>`, value: u.email })),
    );
  }
  const inviter = a.users.get(o.createdBy.trim().toLowerCase());
  if (!o.team && a.teamsById.size > 0) {
    const def = inviter?.default_team?.id;
    const teams = [...a.teamsById.values()];
    o.team = String(await pickOne(p, 'Team', teams, def));
  }
  if (!o.assessments) {
    const defaults = new Set(inviter?.default_assessments.map((x) => x.id) ?? []);
    const ids = [...a.assessmentNames.entries()];
    const chosen = await p.checkbox(
      'Assessments (Prescreen goes alone)',
      ids.map(([id, name]) => ({ name: `${name} (${id})`, value: id, checked: defaults.has(id) })),
      // The service's rule, at once: not after more prompts, losing what was typed.
      { required: true, validate: (picked) => assessmentRule(picked) ?? true },
    );
    o.assessments = chosen.join(',');
  }
  const via = o.sendVia ? parseSendVia(o.sendVia) : undefined;
  if ((via?.email ?? true) && !o.template && a.templatesById.size > 0) {
    const def = inviter?.default_invitation_email_template?.id;
    const tpls = templatesOfTeam(a, teamIdOf(a, o.team ?? (inviter?.default_team ? String(inviter.default_team.id) : undefined)));
    if (tpls.length > 0) o.template = String(await pickOne(p, 'Invitation email template', tpls, tpls.some((t) => t.id === def) ? def : undefined));
  }
  return o;
}

/** The team an option names (an id, or a name only one team has). */
function teamIdOf(a: AccountData, team: string | undefined): number | undefined {
  if (team === undefined) return undefined;
  if (/^\d+$/.test(team.trim())) return Number(team);
  const named = a.teamsByName.get(team.trim().toLowerCase());
  return named?.length === 1 ? named[0].id : undefined;
}

/**
 * The invitation templates a team may use (those assigned to it; a template
 * listed with no teams, by a server that does not say, is offered to all).
 * Another team's template would be refused or, worse, sent in its wording.
 */
export function templatesOfTeam(a: AccountData, teamId: number | undefined): AccountData['templatesById'] extends Map<number, infer T> ? T[] : never {
  const all = [...a.templatesById.values()];
  if (teamId === undefined) return all;
  return all.filter((t) => !Array.isArray(t.teams) || t.teams.length === 0 || t.teams.some((x) => x.id === teamId));
}

/** Asks for one of the account's named things (teams, templates) by name and id, the inviter's default marked and preselected. */
function pickOne(p: Prompter, label: string, items: Array<{ id: number; display_name: string }>, def: number | undefined): Promise<number> {
  return p.select(
    label,
    items.map((t) => ({ name: `${t.display_name} (${t.id})${t.id === def ? ' — default' : ''}`, value: t.id })),
    def === undefined ? undefined : { default: def },
  );
}

/**
 * Builds the body of POST /invitations from the options (prompting on a
 * terminal). Throws UsageError naming the flags when something is missing or wrong.
 */
export async function buildSingleBody(
  o: SingleOptions,
  account: AccountData,
  ctx: Pick<Session, 'io'>,
  prompter: () => Promise<Prompter>,
): Promise<CreateInvitationParsed> {
  const required: Array<[keyof SingleOptions, string]> = [
    ['firstName', '--first-name'],
    ['lastName', '--last-name'],
    ['email', '--email'],
    ['createdBy', '--created-by'],
  ];
  const missing = required.filter(([k]) => !o[k]?.trim()).map(([, f]) => f);
  if (missing.length) {
    if (!ctx.io.canPrompt) {
      throw new UsageError(`Missing ${missing.join(', ')} (${noPromptReason(ctx.io)}).`, 'give them as flags, or run it in a terminal to be asked');
    }
  }
  if (ctx.io.canPrompt) await promptMissing(o, account, await prompter());

  const header = [...FIELDS] as string[];
  const cells = header.map(() => '');
  const set = (f: Field, v: string | undefined) => {
    if (v !== undefined) cells[header.indexOf(f)] = v;
  };
  set('first_name', o.firstName);
  set('last_name', o.lastName);
  set('email', o.email);
  set('created_by_user_email', o.createdBy);
  set('team', o.team);
  set('assessments', o.assessments);
  set('email_template', o.template);
  set('send_via', o.sendVia);
  set('phone', o.phone);
  set('phone_country', o.phoneCountry);
  set('custom_id', o.customId);
  set('person_id', o.personId);
  set('ref_text', o.refText);
  const mapping = mapHeader(header, new Map(), { haveInviter: true });
  const r = new RowValidator(mapping, account, {}).check(cells);
  if (!r.ok) {
    const first = r.errors[0];
    const flag = FLAG_OF[first.field] ?? first.field;
    const more = r.errors.length > 1 ? ` (and ${r.errors.slice(1).map((e) => `${FLAG_OF[e.field] ?? e.field}: ${e.reason}`).join('; ')})` : '';
    throw new UsageError(`${flag}: ${first.reason}${more}.`.replace(/\.\.$/, '.'));
  }
  return r.body;
}
