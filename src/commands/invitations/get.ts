/** invitations get ID: GET /invitations/:id. */
import { fieldNames } from '../../api/field-names.js';
import { Invitation } from '../../api/schemas/invitations.js';
import { type ColumnSpec, printObject } from '../../format/output.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { checkOutputOptions } from '../kit/output-checks.js';
import { IdOptions } from '../kit/options.js';
import * as z from 'zod';
import { openWeb, webFlag } from '../shared/web.js';
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

const GetOptions = IdOptions.extend({ web: webFlag("the invitation's page: the scorecard once accepted, else the participant's assessment link") });
type GetOptions = z.output<typeof GetOptions>;

async function run(opts: GetOptions, ctx: Context): Promise<void> {
  checkOutputOptions(ctx, { fields: INVITATION_FIELDS });
  const client = await ctx.client();
  const invitation = await client.getInvitation(opts.id, ctx.io.signal);
  if (opts.web) {
    const accepted = typeof invitation.scorecard_url === 'string';
    const what = accepted ? `the scorecard of invitation ${invitation.id}` : `the assessment link of invitation ${invitation.id} (the participant's page)`;
    return openWeb(ctx, accepted ? invitation.scorecard_url : invitation.assessment_url, what, `Invitation ${invitation.id} has no page to open yet (no assessment_url or scorecard_url).`);
  }
  await printObject(ctx, invitation, INVITATION_FIELDS);
  await noteParticipantLinks(ctx, [invitation]);
}

export default defineCommand({
  name: 'get',
  aliases: ['show'],
  summary: 'Show one invitation (GET /invitations/:id)',
  args: [{ name: 'id', description: 'invitation id' }],
  options: GetOptions,
  examples: ['jobfit invitations get 100042', 'jobfit invitations get 100042 -o json | jq -r .assessment_url', 'jobfit invitations get 100042 --web'],
  run,
});
