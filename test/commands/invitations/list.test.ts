/**
 * `jobfit invitations list`: the run functions with a Context on memory streams, against
 * the real stub on a loopback port (moved from test/commands/run.test.ts).
 */
import { describe, expect, it } from 'vitest';
import * as invitationsGet from '../../../src/commands/invitations/get.js';
import * as invitationsList from '../../../src/commands/invitations/list.js';
import { parseOptions } from '../../../src/commands/kit/parse.js';
import { PeopleListOptions } from '../../../src/commands/shared/people-list.js';
import { stubForTests } from '../stub-env.js';

const ctxFor = stubForTests(() => {});

describe('reads', () => {
  it('invitations list filters by email and gets one invitation', async () => {
    const f = ctxFor({ globals: { output: 'json' } });
    await invitationsList.default.run(parseOptions(PeopleListOptions, { email: '@gmail.com' }), f.ctx);
    const list = JSON.parse(f.stdout());
    expect(list.data.length).toBeGreaterThan(0);
    for (const it of list.data) expect(it.email).toMatch(/@gmail\.com$/i);
    const g = ctxFor({ globals: { output: 'json' } });
    await invitationsGet.default.run({ id: list.data[0].id }, g.ctx);
    expect(JSON.parse(g.stdout())).toMatchObject({ object: 'invitation', id: list.data[0].id });
    await f.ctx.close();
    await g.ctx.close();
  });

  it('a list cut at the cap says so on stderr', async () => {
    const f = ctxFor({ globals: { output: 'ndjson' } });
    await invitationsList.default.run(parseOptions(PeopleListOptions, {}), f.ctx);
    expect(f.stdout().trim().split('\n')).toHaveLength(50);
    expect(f.stderr()).toMatch(/Showing 50 of \d+ invitations/);
    await f.ctx.close();
  });

});

describe('option schemas', () => {
  it.each([
    // A name is a team too (issue 14 item 9); only an empty one is refused here.
    [{ team: '  ' }, '--team: --team needs a name or an id.'],
    [{ customId: 'x'.repeat(51) }, '--custom-id: the custom id filter must be at most 50 characters.'],
  ])('list %o → one sentence', (raw, message) => {
    expect(() => parseOptions(PeopleListOptions, raw)).toThrow(message);
  });

});
