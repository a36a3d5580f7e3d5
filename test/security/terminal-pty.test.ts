/**
 * Nothing from the network drives the terminal. A fake service plants OSC 0,
 * OSC 8, OSC 52, ESC[2J, \r, \b, an 8-bit CSI and U+202E in names, emails,
 * team names and error messages; each command runs in a real terminal (a
 * pseudo-terminal) with NO_COLOR=1. What the terminal receives holds none of
 * those controls, and the planted text is there, visibly escaped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys, type PtySession, spawnJobfitPty } from '../helpers/pty.js';
import { forbiddenIn, type HostileService, PLANTED, startHostileService } from './hostile-text.js';

let service: HostileService;
let configDir: string;

beforeAll(async () => {
  service = await startHostileService();
  configDir = mkdtempSync(join(tmpdir(), 'jobfit-pty-sec-'));
});
afterAll(async () => {
  await service?.close();
  if (configDir) rmSync(configDir, { recursive: true, force: true });
});

function env(): Record<string, string> {
  return { JOBFIT_CONFIG_DIR: configDir, JOBFIT_BASE_URL: service.url, JOBFIT_API_KEY: 'sk_test_hostilehostile0000beef', NO_COLOR: '1' };
}

async function inTerminal(args: string[]): Promise<{ code: number; raw: string }> {
  const term: PtySession = spawnJobfitPty(args, { env: env(), cols: 400 });
  try {
    const { code } = await term.wait(30_000);
    return { code, raw: term.raw() };
  } finally {
    term.kill();
  }
}

describe('hostile text from the service, in a real terminal', () => {
  const cases: Array<{ args: string[]; code: number; visible: string[] }> = [
    { args: ['teams'], code: 0, visible: ['Team\\x1b[2J\\x1b]52;c;cm0gLXJmIH4=\\x07\\x9b2J'] },
    { args: ['invitations', 'list'], code: 0, visible: ['Ana\\x1b]0;pwned title\\x07\\x0dOVERWRITTEN', 'REQ\\x0dOVERWRITTEN', 'ana\\x1b]8;;https://evil.example/'] },
    { args: ['test-takers', 'list'], code: 0, visible: ['Ana\\x1b]0;pwned title', 'P\\u202eevil.exe'] },
    { args: ['accounts'], code: 0, visible: ['Team\\x1b[2J'] },
    { args: ['whoami'], code: 0, visible: ['Team\\x1b[2J\\x1b]52;c;'] },
    { args: ['health'], code: 0, visible: ['ok\\x1b]0;pwned title\\x07\\x1b[2J', 'v2\\u202eevil.exe'] },
    { args: ['invitations', 'get', '999'], code: 1, visible: ['Error: Bad request\\x1b]0;pwned title\\x07'] },
  ];
  for (const c of cases) {
    it(`jobfit ${c.args.join(' ')}`, async () => {
      const { code, raw } = await inTerminal(c.args);
      expect(code, raw).toBe(c.code);
      expect(forbiddenIn(raw), JSON.stringify(raw)).toEqual([]);
      for (const v of c.visible) expect(raw, JSON.stringify(raw)).toContain(v);
    }, 40_000);
  }
});

describe('a forged event at webhook listen, in a real terminal', () => {
  it('shows the event line with the planted text escaped, and refuses an id that is not an id', async () => {
    const term = spawnJobfitPty(['webhook', 'listen', '--no-stub'], { env: { JOBFIT_CONFIG_DIR: configDir, NO_COLOR: '1' }, cols: 200 });
    try {
      const head = await term.expect(/Listening for webhook events on (\S+)/, 20_000);
      const url = /Listening for webhook events on (\S+)/.exec(head)![1];
      await term.expect('Press Ctrl-C');
      const forged = (id: string) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            id,
            type: 'invitation.accepted',
            object: 'event',
            created_at: '2026-01-02T03:04:05.000Z',
            api_version: '2.3.0',
            data: { object: { object: `invitation${PLANTED.title}${PLANTED.clear}`, id: `42${PLANTED.bidi}${PLANTED.carriage}${PLANTED.link}` } },
          }),
        });
      expect((await forged('evt_forged1')).status).toBe(200);
      expect((await forged(`evt_${PLANTED.clipboard}`)).status).toBe(400);
      await term.expect('evt_forged1');
      await term.expect(/not of the usual shape/);
      term.send(keys.ctrlC);
      const { code } = await term.wait(20_000);
      expect(code).toBe(0);
      const raw = term.raw();
      expect(forbiddenIn(raw), JSON.stringify(raw)).toEqual([]);
      expect(raw).toContain('invitation\\x1b]0;pwned title\\x07\\x1b[2J 42\\u202eevil.exe\\x0dOVERWRITTEN');
      expect(raw).not.toContain('cm0gLXJmIH4');
    } finally {
      term.kill();
    }
  }, 60_000);
});
