/**
 * Webhook events.
 * Part of the API v2 contract (src/api/schemas.ts, which re-exports every
 * module of this folder in the order the contract is written).
 */
import * as z from 'zod';

// ---------------------------------------------------------------- webhook events

export const EVENT_TYPES = [
  'invitation.accepted',
  'test_taker.created',
  'test_taker.assessment_completed',
  'career_navigation_profile.created',
] as const;
export const EventType = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventType>;

export const Event = z
  .object({
    id: z.string(),
    type: z.string(),
    object: z.literal('event'),
    created_at: z.string().meta({ description: 'ISO 8601 with milliseconds' }),
    api_version: z.string(),
    data: z.object({ object: z.record(z.string(), z.unknown()) }),
  })
  .meta({ id: 'Event' });
export type Event = z.infer<typeof Event>;
