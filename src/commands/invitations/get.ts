/** invitations get ID: GET /invitations/:id. */
import { fieldNames } from '../../api/fields.js';
import { Invitation } from '../../api/schemas/invitations.js';
import { type ColumnSpec, printObject } from '../../format/output.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { checkOutputOptions } from '../kit/output-checks.js';
import { IdOptions } from '../kit/options.js';
import { fullName } from '../shared/people-list.js';
import { noteParticipantLinks } from '../shared/participant-links.js';

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

/** What --fields may name in an invitation (get, update). */
export const INVITATION_FIELDS = { columns: OBJECT_ROWS, fieldNames: fieldNames(Invitation) };

export async function run(opts: IdOptions, ctx: Context): Promise<void> {
  checkOutputOptions(ctx, { fields: INVITATION_FIELDS });
  const client = await ctx.client();
  const invitation = await client.getInvitation(opts.id, ctx.io.signal);
  await printObject(ctx, invitation, INVITATION_FIELDS);
  await noteParticipantLinks(ctx, [invitation]);
}

export default defineCommand({
  name: 'get',
  aliases: ['show'],
  summary: 'Show one invitation (GET /invitations/:id)',
  args: [{ name: 'id', description: 'invitation id' }],
  options: IdOptions,
  examples: ['jobfit invitations get 100042', 'jobfit invitations get 100042 -o json | jq -r .assessment_url'],
  run,
});
