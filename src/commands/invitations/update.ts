/** invitations update ID: PUT /invitations/:id; only the fields given change. */
import * as z from 'zod';
import type { UpdateInvitationBody } from '../../api/requests.js';
import { UsageError } from '../../core/errors.js';
import { printObject } from '../../format/output.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { checkOutputOptions } from '../kit/output-checks.js';
import { flag } from '../kit/flags.js';
import { intId } from '../kit/options.js';
import { parseAssessments } from './shared/assessments.js';
import { idOfName, nameOrId } from '../shared/name-or-id.js';
import { noteParticipantLinks } from '../shared/participant-links.js';
import { INVITATION_FIELDS } from './get.js';

const text = (what: string) => z.string().trim().min(1, `${what} must not be empty`);

export const UpdateOptions = z.object({
  id: intId('ID'),
  firstName: flag(text('the first name').optional(), { flag: '--first-name <name>', description: 'first name' }),
  lastName: flag(text('the last name').optional(), { flag: '--last-name <name>', description: 'last name' }),
  email: flag(z.string().trim().pipe(z.email('not a valid email address')).optional(), { flag: '--email <email>', description: 'participant email' }),
  phone: flag(z.string().trim().optional(), { flag: '--phone <number>', description: 'phone (E.164, or national with a US default)' }),
  customId: flag(z.string().max(50, 'at most 50 characters').optional(), { flag: '--custom-id <text>', description: 'your grouping id (max 50)' }),
  personId: flag(z.string().optional(), { flag: '--person-id <text>', description: "your participant's id" }),
  refText: flag(z.string().max(60, 'at most 60 characters').optional(), { flag: '--ref-text <text>', description: 'reference text for some templates (max 60)' }),
  sendViaEmail: flag(z.boolean().optional(), { flag: '--send-via-email', description: 'send the invitation by email', negate: 'do not send it by email' }),
  sendViaSms: flag(z.boolean().optional(), { flag: '--send-via-sms', description: 'also send it by text message (needs a phone)', negate: 'do not send it by text message' }),
  template: flag(nameOrId('--template').optional(), { flag: '--template <id|name>', description: 'invitation email template: its id or its name (see `jobfit templates`)' }),
  congratsTemplate: flag(nameOrId('--congrats-template').optional(), { flag: '--congrats-template <id|name>', description: 'congratulations email template: its id or its name' }),
  sendCongrats: flag(z.boolean().optional(), { flag: '--send-congrats', description: 'send the congratulations notification', negate: 'do not send the congratulations notification' }),
  assessments: flag(z
    .string()
    .transform((s, zctx) => {
      const r = parseAssessments(s);
      if ('error' in r) {
        zctx.addIssue({ code: 'custom', message: r.error });
        return z.NEVER;
      }
      return r.ids;
    })
    .optional(), { flag: '--assessments <list>', description: 'assessments to assign: prescreen, personality, thinking, interests or test ids (refused once accepted)' }),
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

async function run(opts: UpdateOptions, ctx: Context): Promise<void> {
  if (Object.keys(updateBody({ ...opts, template: opts.template === undefined ? undefined : 0, congratsTemplate: opts.congratsTemplate === undefined ? undefined : 0 })).length === 0) {
    throw new UsageError('Nothing to update: give at least one field flag.', 'see `jobfit invitations update --help` for the flags');
  }
  checkOutputOptions(ctx, { fields: INVITATION_FIELDS });
  const client = await ctx.client();
  // Names, as `invite` takes them, or ids.
  const body = updateBody({
    ...opts,
    template: await idOfName(client, 'template', opts.template),
    congratsTemplate: await idOfName(client, 'congrats-template', opts.congratsTemplate),
  });
  const invitation = await client.updateInvitation(opts.id, body, ctx.io.signal);
  ctx.info(`Updated invitation ${opts.id} (${Object.keys(body).join(', ')}).`);
  await printObject(ctx, invitation, INVITATION_FIELDS);
  await noteParticipantLinks(ctx, [invitation]);
}

export default defineCommand({
  name: 'update',
  summary: 'Change fields of an invitation (PUT /invitations/:id); only the fields given change',
  args: [{ name: 'id', description: 'invitation id' }],
  options: UpdateOptions,
  examples: [
    'jobfit invitations update 100001 --custom-id REQ-7 --ref-text "Store 12"',
    'jobfit invitations update 100001 --phone +14155550100 --send-via-sms',
    'jobfit invitations update 100001 --assessments personality,interests',
    'jobfit invitations update 100001 --template "Standard invitation"',
  ],
  run,
});
