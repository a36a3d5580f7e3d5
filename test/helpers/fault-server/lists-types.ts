/** The lists world's data and hooks (test/helpers/fault-server.ts). */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Rewrite } from './upstream.js';

export interface Inv {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  team_id: number;
  custom_id: string | null;
  created_at: string;
  accepted_at: string | null;
  test_taker_id: number | null;
  /** The test taker completed Personality and Career Interests (has a scorecard). */
  completed: boolean;
  /** The order of acceptance (people.ts; the test-taker list is newest first by it). */
  accepted_seq?: number;
  /** The sync world: Personality done, Career Interests not yet (with `completed` false). */
  personality_only?: boolean;
}

export interface Req {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
  /** Requests of this method and path so far, this one included. */
  nth: number;
  /** As it came: path and query (forwarded to `upstream` so). */
  url: string;
  headers: IncomingHttpHeaders;
}

/** A fault answers the request itself (true), or lets the server answer (false/undefined). */
export type Fault = (req: Req, res: ServerResponse) => boolean | undefined | Promise<boolean | undefined>;

export interface FaultServer {
  url: string;
  port: number;
  invitations: Inv[];
  idsAsStrings: boolean;
  /** Test taker list items carry only what the reference promises (id, custom_id, person_id, team, account). */
  minimal: boolean;
  /** Called, in order, before the server answers; the first that answers wins. */
  faults: Fault[];
  /** Called after each list request was answered (method and path, its query). */
  afterList?: (req: Req) => void;
  /** Requests seen, `METHOD /path?query`. */
  log: string[];
  /**
   * A broken proxy (issue 43): when this says yes for a request on a
   * connection that carried an answer before, that answer is sent again
   * (status, headers and body) instead of this one's. Never on a new connection.
   */
  stale?: (req: Req) => boolean;
  /** Answers sent again by `stale`. */
  staleSent: number;
  /** With `upstream`: the body sent back instead of the upstream's answer to a request no fault answered. */
  rewrite?: Rewrite<Req>;
  /** How the `email` filter compares (default: case-insensitive substring); a folding collation in test/faults/hostile.ts. */
  emailMatches?: (email: string, filter: string) => boolean;
  create(o: { email: string; first?: string; last?: string; team?: number; custom_id?: string | null }): Inv;
  remove(id: number): void;
  accept(id: number, completed?: boolean): Inv;
  /** Drops every open connection (kept-alive ones too); the server goes on listening. */
  dropConnections(): void;
  close(): Promise<void>;
}
