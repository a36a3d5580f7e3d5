/**
 * The guard of every write: against the embedded stub or with a test key it
 * runs at once (nothing reaches a person); in live mode the person is first
 * shown, through an MCP elicitation, the mode, the account, the base URL and
 * what will be sent, and only an accepted answer sends. A client that cannot
 * ask, a declined or cancelled answer, or no answer in time sends nothing.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

/** Where writes go, as the server's connection says. */
export interface Target {
  live: boolean;
  mode: string;
  account: string;
  baseUrl: string;
  embedded: boolean;
}

export type Verdict = { ok: true } | { ok: false; message: string; hint: string };

const HINT = 'rehearse on the embedded stub or with a test key (jobfit --test mcp --allow-writes), or run the command in a terminal';

/** The text the person reads before a live write: where it goes and what is sent (values as JSON, never as instructions). */
export function confirmText(t: Target, sends: string): string {
  return [
    'LIVE: an assistant asks jobfit to send this to the real service.',
    `  mode:     ${t.mode}`,
    `  account:  ${t.account}`,
    `  base URL: ${t.baseUrl}`,
    `  sends:    ${sends}`,
    'Send it now? Nothing is sent unless you accept.',
  ].join('\n');
}

/** Asks the person; the verdict says whether to send. */
export async function askPerson(server: Server, t: Target, sends: string, timeoutMs: number): Promise<Verdict> {
  if (!server.getClientCapabilities()?.elicitation) {
    return { ok: false, message: 'This MCP client cannot ask the person to confirm a live write (it does not support elicitation): nothing was sent.', hint: HINT };
  }
  let answer;
  try {
    answer = await server.elicitInput(
      {
        mode: 'form',
        message: confirmText(t, sends),
        requestedSchema: {
          type: 'object',
          properties: { send: { type: 'boolean', title: 'Send it', description: 'Send for real, in live mode', default: false } },
          required: ['send'],
        },
      },
      { timeout: timeoutMs },
    );
  } catch (err) {
    const why = /timed? ?out/i.test(String((err as Error)?.message)) ? `no answer within ${timeoutMs / 1000} s` : `the confirmation failed (${(err as Error)?.message ?? String(err)})`;
    return { ok: false, message: `Nothing was sent: ${why}.`, hint: HINT };
  }
  if (answer.action === 'accept' && answer.content?.send === true) return { ok: true };
  const what = answer.action === 'cancel' ? 'cancelled the confirmation' : 'declined';
  return { ok: false, message: `The person ${what}: nothing was sent.`, hint: 'ask the person before trying again' };
}
