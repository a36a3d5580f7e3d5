/**
 * `jobfit invitations update`: the run functions with a Context on memory streams, against
 * the real stub on a loopback port (moved from test/commands/run.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import * as invitationsList from '../../../src/commands/invitations/list.js';
import * as invitationsUpdate from '../../../src/commands/invitations/update.js';
import { parseOptions } from '../../../src/commands/kit/parse.js';
import { PeopleListOptions } from '../../../src/commands/shared/people-list.js';
import { stubForTests } from '../stub-env.js';

const ctxFor = stubForTests(() => {});

describe('reads', () => {
  it('invitations update changes only the given fields', async () => {
    const f = ctxFor({ globals: { output: 'json' } });
    await invitationsList.default.run(parseOptions(PeopleListOptions, {}), f.ctx);
    const open = JSON.parse(f.stdout()).data.find((i: { accepted_at: unknown }) => i.accepted_at === null);
    const u = ctxFor({ globals: { output: 'json' } });
    const opts = parseOptions(invitationsUpdate.UpdateOptions, { id: String(open.id), customId: 'REQ-UPDATED', refText: 'Store 12' }, ['id']);
    await invitationsUpdate.default.run(opts, u.ctx);
    const updated = JSON.parse(u.stdout());
    expect(updated).toMatchObject({ id: open.id, custom_id: 'REQ-UPDATED', ref_text: 'Store 12', email: open.email });
    expect(u.stderr()).toContain(`Updated invitation ${open.id} (custom_id, ref_text).`);
    await f.ctx.close();
    await u.ctx.close();
  });

  it('invitations update with no field flag is a usage error before any request', async () => {
    const f = ctxFor();
    await expect(invitationsUpdate.default.run({ id: 1 } as invitationsUpdate.UpdateOptions, f.ctx)).rejects.toBeInstanceOf(UsageError);
    expect(f.ctx.connection).toBeUndefined();
  });

});

describe('option schemas', () => {
  it('update: a bad email and an unknown assessment name', () => {
    expect(() => parseOptions(invitationsUpdate.UpdateOptions, { id: '1', email: 'nope' }, ['id'])).toThrow('--email: not a valid email address.');
    expect(() => parseOptions(invitationsUpdate.UpdateOptions, { id: '1', assessments: 'personality,juggling' }, ['id'])).toThrow(/"juggling" is not an assessment/);
    const ok = parseOptions(invitationsUpdate.UpdateOptions, { id: '7', assessments: 'Personality, interests', sendViaSms: false }, ['id']);
    expect(invitationsUpdate.updateBody({ ...ok, template: undefined, congratsTemplate: undefined })).toEqual({ assessments_to_assign: [{ test_id: 6 }, { test_id: 8 }], send_via_sms: false });
  });

  it('update: the id is checked', () => {
    expect(() => parseOptions(invitationsUpdate.UpdateOptions, { id: '12x' }, ['id'])).toThrow('ID: ID must be a positive integer.');
  });

});
