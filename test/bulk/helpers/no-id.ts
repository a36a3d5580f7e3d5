/**
 * The bulk invite "201 without an id" setup (issue 31, findings 3 and 6),
 * shared by test/bulk/missing-id-and-shortened-resume.test.ts and
 * test/faults/string-ids-and-churn.test.ts: a file of participants, the fault
 * server's POST /invitations that makes the invitation but answers without
 * its id, a lookup by email that does not find it yet, and the results read
 * back.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { type FaultServer, INVITER, type Req, send } from '../../helpers/fault-server.js';

/** `DIR/people.csv` with `n` rows: First1,Last1,p1@r3.example and on (written again on each call). */
export function people(dir: string, n: number): string {
  const csv = join(dir, 'people.csv');
  const lines = ['First Name,Last Name,Email'];
  for (let i = 1; i <= n; i++) lines.push(`First${i},Last${i},p${i}@r3.example`);
  writeFileSync(csv, `${lines.join('\n')}\n`);
  return csv;
}

/** The results CSV, one object per row by header. */
export const results = (path: string) => parse(readFileSync(path, 'utf8'), { columns: true }) as Array<Record<string, string>>;

/** A live run of CSV into OUT as INVITER, one row at a time, without asking. */
export const inviteArgs = (csv: string, out: string) => ['invite', '--csv', csv, '--out', out, '--created-by', INVITER, '--yes', '--concurrency', '1'];

export interface WithoutIdOptions {
  /** Which invitations are answered without their id (by the request and its body); every one when absent. */
  which?: (req: Req, body: Record<string, string>) => boolean;
  /** The answer carries the rest of the invitation (its names, a null link); only the email otherwise. */
  whole?: boolean;
}

/** POST /invitations makes the invitation, but the 201 answers without its id. */
export function answerWithoutId(s: FaultServer, o: WithoutIdOptions = {}): void {
  s.faults.push((req, res) => {
    if (req.method !== 'POST' || req.path !== '/invitations') return false;
    const b = JSON.parse(req.body) as Record<string, string>;
    if (o.which && !o.which(req, b)) return false;
    // Made, but answered without its id.
    const inv = s.create({ email: b.email, first: b.first_name, last: b.last_name });
    const rest = o.whole ? { first_name: inv.first_name, last_name: inv.last_name, email: inv.email, assessment_url: null } : { email: b.email };
    return send(res, 201, { mode: 'live', object: 'invitation', ...rest });
  });
}

/**
 * Every invitation answered without its id, and a lookup by email that finds
 * nothing until reveal(): the rows stay "unknown" until then.
 */
export function unseenWithoutId(s: FaultServer): { reveal(): void } {
  let hide = true;
  s.faults.push((req, res) => {
    if (req.method === 'GET' && req.path === '/invitations' && req.query.has('email') && hide) return send(res, 200, { mode: 'live', object: 'list', total_count: 0, has_more: false, data: [] });
    return false;
  });
  answerWithoutId(s);
  return {
    reveal: () => {
      hide = false;
    },
  };
}
