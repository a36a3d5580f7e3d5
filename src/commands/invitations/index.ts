/**
 * invitations list | get ID | update ID: GET /invitations,
 * GET /invitations/:id and PUT /invitations/:id.
 */
import type { Command } from 'commander';
import * as z from 'zod';
import type { UpdateInvitationBody } from '../../api/requests.js';
import type { CommandDeps } from '../../cli/commands.js';
import type { Context } from '../kit/context.js';
import { UsageError } from '../../core/errors.js';
import { type ColumnSpec, printObject } from '../../format/output.js';
import { parseAssessments } from '../shared/assessments.js';
import { noteParticipantLinks } from '../shared/participant-links.js';
import { examples } from '../shared/help.js';
import { idOfName, nameOrId } from '../shared/names.js';
import { IdOptions, intId, parseOptions } from '../shared/options.js';
import { addListFilters, fullName, ListOptions, runPeopleList } from '../shared/people-list.js';


export const LIST_COLUMNS: ColumnSpec[] = [
  { key: 'id', header: 'ID', align: 'right' },
  { key: 'name', header: 'NAME', format: fullName },
  { key: 'email', header: 'EMAIL' },
  { key: 'team', header: 'TEAM' },
  { key: 'custom_id', header: 'CUSTOM ID' },
  { key: 'created_at', header: 'CREATED' },
  { key: 'accepted_at', header: 'ACCEPTED' },
  { key: 'test_taker_id', header: 'TEST TAKER', align: 'right' },
];

export const OBJECT_ROWS: ColumnSpec[] = [
  { key: 'id', header: 'ID' },
  { key: 'name', header: 'NAME', format: fullName },
  { key: 'email', header: 'EMAIL' },
  { key: 'phone', header: 'PHONE' },
  { key: 'team', header: 'TEAM' },
  { key: 'custom_id', header: 'CUSTOM ID' },
  { key: 'person_id', header: 'PERSON ID' },
  { key: 'invited_by_user.email', header: 'INVITED BY' },
  { key: 'invitation_assessments', header: 'ASSESSMENTS' },
  { key: 'send_via_email', header: 'SEND VIA EMAIL' },
  { key: 'send_via_sms', header: 'SEND VIA SMS' },
  { key: 'invitation_email_template', header: 'EMAIL TEMPLATE' },
  { key: 'ref_text', header: 'REF TEXT' },
  { key: 'send_congrats_notification', header: 'SEND CONGRATS' },
  { key: 'congrats_email_template', header: 'CONGRATS TEMPLATE' },
  { key: 'created_at', header: 'CREATED' },
  { key: 'accepted_at', header: 'ACCEPTED' },
  { key: 'test_taker_id', header: 'TEST TAKER' },
  { key: 'assessment_url', header: 'ASSESSMENT URL' },
  { key: 'scorecard_url', header: 'SCORECARD URL' },
  { key: 'career_navigation_url', header: 'CAREER NAVIGATION URL' },
  { key: 'mode', header: 'MODE' },
];

// ---------------------------------------------------------------- list

export async function runList(opts: ListOptions, ctx: Context): Promise<void> {
  await runPeopleList(ctx, opts, 'invitations', LIST_COLUMNS, 'invitations');
}

// ---------------------------------------------------------------- get


export async function runGet(opts: IdOptions, ctx: Context): Promise<void> {
  const client = await ctx.client();
  const invitation = await client.getInvitation(opts.id, ctx.io.signal);
  await printObject(ctx, invitation, { columns: OBJECT_ROWS });
  await noteParticipantLinks(ctx, [invitation]);
}

// ---------------------------------------------------------------- update

const text = (what: string) => z.string().trim().min(1, `${what} must not be empty`);

export const UpdateOptions = z.object({
  id: intId('ID'),
  firstName: text('the first name').optional(),
  lastName: text('the last name').optional(),
  email: z.string().trim().pipe(z.email('not a valid email address')).optional(),
  phone: z.string().trim().optional(),
  customId: z.string().max(50, 'at most 50 characters').optional(),
  personId: z.string().optional(),
  refText: z.string().max(60, 'at most 60 characters').optional(),
  sendViaEmail: z.boolean().optional(),
  sendViaSms: z.boolean().optional(),
  template: nameOrId('--template').optional(),
  congratsTemplate: nameOrId('--congrats-template').optional(),
  sendCongrats: z.boolean().optional(),
  assessments: z
    .string()
    .transform((s, zctx) => {
      const r = parseAssessments(s);
      if ('error' in r) {
        zctx.addIssue({ code: 'custom', message: r.error });
        return z.NEVER;
      }
      return r.ids;
    })
    .optional(),
});
export type UpdateOptions = z.output<typeof UpdateOptions>;

/** The PUT body: only the fields given, under the API's names. */
export function updateBody(o: Omit<UpdateOptions, 'template' | 'congratsTemplate'> & { template?: number; congratsTemplate?: number }): UpdateInvitationBody {
  const b: UpdateInvitationBody = {};
  if (o.firstName !== undefined) b.first_name = o.firstName;
  if (o.lastName !== undefined) b.last_name = o.lastName;
  if (o.email !== undefined) b.email = o.email;
  if (o.phone !== undefined) b.phone = o.phone;
  if (o.customId !== undefined) b.custom_id = o.customId;
  if (o.personId !== undefined) b.person_id = o.personId;
  if (o.refText !== undefined) b.ref_text = o.refText;
  if (o.sendViaEmail !== undefined) b.send_via_email = o.sendViaEmail;
  if (o.sendViaSms !== undefined) b.send_via_sms = o.sendViaSms;
  if (o.template !== undefined) b.email_template_id = o.template;
  if (o.congratsTemplate !== undefined) b.congrats_email_template_id = o.congratsTemplate;
  if (o.sendCongrats !== undefined) b.send_congrats_notification = o.sendCongrats;
  if (o.assessments !== undefined) b.assessments_to_assign = o.assessments.map((test_id) => ({ test_id }));
  return b;
}

export async function runUpdate(opts: UpdateOptions, ctx: Context): Promise<void> {
  if (Object.keys(updateBody({ ...opts, template: opts.template === undefined ? undefined : 0, congratsTemplate: opts.congratsTemplate === undefined ? undefined : 0 })).length === 0) {
    throw new UsageError('Nothing to update: give at least one field flag.', 'see `jobfit invitations update --help` for the flags');
  }
  const client = await ctx.client();
  // Names, as `invite` takes them, or ids.
  const body = updateBody({
    ...opts,
    template: await idOfName(client, 'template', opts.template),
    congratsTemplate: await idOfName(client, 'congrats-template', opts.congratsTemplate),
  });
  const invitation = await client.updateInvitation(opts.id, body, ctx.io.signal);
  ctx.info(`Updated invitation ${opts.id} (${Object.keys(body).join(', ')}).`);
  await printObject(ctx, invitation, { columns: OBJECT_ROWS });
  await noteParticipantLinks(ctx, [invitation]);
}

// ---------------------------------------------------------------- wiring

export function register(program: Command, deps: CommandDeps): void {
  const inv = program
    .command('invitations')
    .description('List, show and update invitations')
    .addHelpText('after', examples('jobfit invitations list --email @example.com', 'jobfit invitations get 1042', 'jobfit invitations update 1042 --custom-id REQ-7'));

  addListFilters(
    inv
      .command('list')
      .alias('ls')
      .description('List invitations, newest first (GET /invitations)'),
  )
    .addHelpText(
      'after',
      examples(
        'jobfit invitations list',
        'jobfit invitations list --team 3 --custom-id REQ-7',
        'jobfit invitations list --all -o csv > invitations.csv',
        'jobfit invitations list --all -o xlsx --out invitations.xlsx',
        'jobfit invitations list --email @acme.com -o json | jq ".data[].id"',
      ),
    )
    .action(async (o: Record<string, unknown>, cmd: Command) => {
      const ctx = deps.context(cmd);
      await runList(parseOptions(ListOptions, o), ctx);
    });

  inv
    .command('get')
    .alias('show')
    .argument('<id>', 'invitation id')
    .description('Show one invitation (GET /invitations/:id)')
    .addHelpText('after', examples('jobfit invitations get 1042', 'jobfit invitations get 1042 -o json | jq -r .assessment_url'))
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const ctx = deps.context(cmd);
      await runGet(parseOptions(IdOptions, { id }, ['id']), ctx);
    });

  inv
    .command('update')
    .argument('<id>', 'invitation id')
    .description('Change fields of an invitation (PUT /invitations/:id); only the fields given change')
    .option('--first-name <name>', 'first name')
    .option('--last-name <name>', 'last name')
    .option('--email <email>', 'participant email')
    .option('--phone <number>', 'phone (E.164, or national with a US default)')
    .option('--custom-id <text>', 'your grouping id (max 50)')
    .option('--person-id <text>', "your participant's id")
    .option('--ref-text <text>', 'reference text for some templates (max 60)')
    .option('--send-via-email', 'send the invitation by email')
    .option('--no-send-via-email', 'do not send it by email')
    .option('--send-via-sms', 'also send it by text message (needs a phone)')
    .option('--no-send-via-sms', 'do not send it by text message')
    .option('--template <id|name>', 'invitation email template: its id or its name (see `jobfit templates`)')
    .option('--congrats-template <id|name>', 'congratulations email template: its id or its name')
    .option('--send-congrats', 'send the congratulations notification')
    .option('--no-send-congrats', 'do not send the congratulations notification')
    .option('--assessments <list>', 'assessments to assign: prescreen, personality, thinking, interests or test ids (refused once accepted)')
    .addHelpText(
      'after',
      examples(
        'jobfit invitations update 1042 --custom-id REQ-7 --ref-text "Store 12"',
        'jobfit invitations update 1042 --phone +14155550100 --send-via-sms',
        'jobfit invitations update 1042 --assessments personality,interests',
        'jobfit invitations update 1042 --template "Standard invitation"',
      ),
    )
    .action(async (id: string, o: Record<string, unknown>, cmd: Command) => {
      const ctx = deps.context(cmd);
      await runUpdate(parseOptions(UpdateOptions, { ...o, id }, ['id']), ctx);
    });
}
