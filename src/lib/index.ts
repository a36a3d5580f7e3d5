/**
 * The library surface of the package: `import { createClient, listAll,
 * bulkInvite, startStub } from 'jobfit-cli'`. Everything exported here is
 * public and follows semver (docs/library.md); nothing else in the package is.
 * The CLI never loads this file (its bundle starts at src/cli/entry.ts).
 */
export { createClient, type ClientOptions } from './client.js';
export { iterate, listAll, type ListResource, type ListFilters, type ListOptions, type ResourceItem } from './list.js';
export {
  bulkInvite,
  BulkInviteStoppedError,
  InvalidRowsError,
  type BulkInviteOptions,
  type BulkInviteResult,
  type InviteCell,
  type InviteDefaults,
  type InviteRow,
  type InviteRowResult,
  type InviteStatus,
} from './invite.js';
export { startStub, type Stub, type StubAccount, type StubOptions } from './stub.js';

export type { JobfitClient } from '../client/client.js';
export { JobfitError, UsageError, AuthError, CancelError, ExitCode, type ExitCodeValue } from '../core/errors.js';
export {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ClientRequestError,
  NetworkError,
  NotFoundError,
  ProtocolError,
  RateLimitError,
  RedirectError,
  ServerError,
  ServiceGoneError,
  UnknownOutcomeError,
} from '../client/index.js';
export type {
  Account,
  Assessment,
  CareerNavigationProfile,
  CareerNavigationProfileListItem,
  EmailTemplate,
  Invitation,
  InvitationListItem,
  JobFitReport,
  Scorecard,
  ScoreProfile,
  TeamListItem,
  TestTaker,
  TestTakerListItem,
  User,
} from '../api/index.js';
