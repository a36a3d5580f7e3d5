/** What checking one invite row gives: the body to send, or the row's errors. */
import type { CreateInvitationParsed } from '../api/index.js';

export interface RowError {
  field: string;
  reason: string;
}

export type RowCheck =
  | { ok: true; body: CreateInvitationParsed; email: string; teamId?: number; channels: { email: boolean; sms: boolean } }
  | { ok: false; email?: string; errors: RowError[] };
