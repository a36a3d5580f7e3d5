/**
 * The service's error messages, written once. The stub answers with them; the
 * CSV validator reports them; the client recognises them (e.g. "exists").
 * Messages the reference gives are verbatim; the others are decisions written
 * in docs/stub.md.
 */
export const MSG = {
  // authentication (404)
  apiKeyRequired: 'API key is required',
  accountNotFound: 'Account not found for API key',

  // POST /invitations (reference)
  userNotFound: (email: string) => `User not found with email: ${email}`,
  noDefaultTeam: (email: string) => `User with email ${email} does not have a default team`,
  noDefaultAssessments: (email: string) => `User with email ${email} does not have default assessments to assign`,
  noDefaultTemplate: (email: string) => `User with email ${email} does not have a default invitation email template`,
  teamNotFound: 'team_id not found',
  duplicateInvitationSameTeam: (email: string) => `Team already has an invitation with email ${email}`,
  duplicateTestTakerSameTeam: (email: string) => `Team already has a test taker with email ${email}`,
  duplicateOtherTeam: (email: string) => `Another team in this account already has an invitation with email ${email}`,
  smsNeedsPhone: 'Phone is required if sending via text message (SMS)',
  prescreenCombined: 'Choose either Prescreen or other assessments, but not both.',

  // decided (docs/stub.md)
  templateNotFound: 'email_template_id not found',
  congratsTemplateNotFound: 'congrats_email_template_id not found',
  unknownAssessment: (testId: number) => `assessments_to_assign: Unknown assessment test_id ${testId}`,
  invitationNotFound: 'Invitation not found',
  testTakerNotFound: 'Test taker not found',
  assessmentsLocked: 'assessments_to_assign: Assessments cannot be changed after the invitation has been accepted',
  spRequired: 'sp is required',
  spInvalid: (sp: string) => `Invalid sp: ${sp}`,
  jobFitNotReady: 'Job fit report is available only after the Personality and Career Interests assessments are complete',
  invalidJson: 'Request body must be valid JSON',
  bodyNotObject: 'Request body must be a JSON object',
  notFound: 'Not found',
  methodNotAllowed: 'Method Not Allowed',
  bodyTooLarge: 'Request body is too large (at most 1 MiB)',
  /** 507 (full disk) or 503 (read-only): the stub could not store the request. */
  notStored: (cause: string) => `Nothing was stored: ${cause}`,
} as const;

/** Recognises the 400 messages that mean "this email is already invited" (bulk invite: status exists). */
export function isDuplicateMessage(message: string): boolean {
  return (
    message.startsWith('Team already has an invitation with email ') ||
    message.startsWith('Team already has a test taker with email ') ||
    message.startsWith('Another team in this account already has an invitation with email ')
  );
}
