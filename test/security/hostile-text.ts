/**
 * Text a hostile service (or a candidate, through a CSV) plants in names,
 * emails, team names and error messages, and the checks that none of it
 * drove the terminal.
 */
import { send, startFaultServer } from '../helpers/fault-server.js';

/** Each piece drives a terminal in its own way when printed raw. */
export const PLANTED = {
  title: '\x1b]0;pwned title\x07', // OSC 0: window title
  link: '\x1b]8;;https://evil.example/\x1b\\click me\x1b]8;;\x1b\\', // OSC 8: hidden hyperlink
  clipboard: '\x1b]52;c;cm0gLXJmIH4=\x07', // OSC 52: write the clipboard
  clear: '\x1b[2J', // clear the screen
  carriage: '\rOVERWRITTEN', // back to the start of the line
  backspace: 'abc\b\b\b', // erase what came before
  bidi: '\u202eevil.exe', // right-to-left override
  c1: '\x9b2J', // an 8-bit CSI
} as const;

const ALL = Object.values(PLANTED).join('');

export const HOSTILE = {
  first: `Ana${PLANTED.title}${PLANTED.carriage}`,
  last: `Diaz${PLANTED.bidi}${PLANTED.backspace}`,
  email: `ana${PLANTED.link}@example.com`,
  team: `Team${PLANTED.clear}${PLANTED.clipboard}${PLANTED.c1}`,
  error: `Bad request${ALL}`,
} as const;

/**
 * What must never reach the terminal: any ESC (with NO_COLOR the CLI writes
 * none of its own), BEL, backspace, a carriage return other than the one the
 * terminal adds before each newline, C1 controls and bidi controls.
 */
export function forbiddenIn(raw: string): string[] {
  const found: string[] = [];
  if (raw.includes('\x1b')) found.push('ESC');
  if (raw.includes('\x07')) found.push('BEL');
  if (raw.includes('\b')) found.push('backspace');
  if (raw.replace(/\r\n/g, '\n').includes('\r')) found.push('lone CR');
  if (/[\x80-\x9f]/.test(raw)) found.push('C1');
  if (/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(raw)) found.push('bidi');
  return found;
}

export interface HostileService {
  url: string;
  close(): Promise<void>;
}

/** A fake service on loopback whose every name and message is hostile. */
export async function startHostileService(): Promise<HostileService> {
  const now = '2026-01-02T03:04:05.000Z';
  const team = { id: 1, display_name: HOSTILE.team };
  const account = { id: 1, display_name: HOSTILE.team };
  const list = (data: unknown[]) => ({ mode: 'test', object: 'list', total_count: data.length, has_more: false, data });
  const routes: Record<string, [number, unknown]> = {
    '/v2/healthcheck': [200, { status: `ok${PLANTED.title}${PLANTED.clear}`, version: `v2${PLANTED.bidi}`, timestamp: now }],
    '/v2/accounts': [200, { mode: 'test', object: 'account', id: 1, display_name: HOSTILE.team, webhooks_enabled: false, webhook_endpoint: `https://x.example/${PLANTED.link}` }],
    '/v2/teams': [200, list([{ object: 'team', id: 1, display_name: HOSTILE.team, users_count: 1, invitations_count: 1, test_takers_count: 1 }])],
    '/v2/invitations': [
      200,
      list([{ object: 'invitation_list_item', id: 7, first_name: HOSTILE.first, last_name: HOSTILE.last, email: HOSTILE.email, created_at: now, accepted_at: null, assessment_url: null, test_taker_id: null, custom_id: `REQ${PLANTED.carriage}`, person_id: null, team, account }]),
    ],
    '/v2/test-takers': [
      200,
      list([{ object: 'test_taker_list_item', id: 9, first_name: HOSTILE.first, last_name: HOSTILE.last, email: HOSTILE.email, team, custom_id: null, person_id: `P${PLANTED.bidi}`, invitation_id: 7, created_at: now }]),
    ],
    '/v2/invitations/999': [400, { error: HOSTILE.error }],
  };
  const server = await startFaultServer({ anyKey: true });
  server.faults.push((req, res) => {
    const [status, body] = routes[req.path] ?? [404, { error: `Not found${PLANTED.title}` }];
    return send(res, status, body);
  });
  return { url: `${server.url}/v2`, close: () => server.close() };
}
