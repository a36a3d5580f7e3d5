/**
 * The validation rules of one row (src/bulk/validate.ts) as named steps: the
 * phone made E.164 by a country, the channels, a cell resolved against the
 * account, the assessments (a list or the v1 yes/no columns), the schema's
 * complaints with their hints, and the service's own rules.
 */
import { describe, expect, it } from 'vitest';
import { MSG, TEST_ID, type User } from '../../src/api/index.js';
import type { Resolved } from '../../src/bulk/account.js';
import type { Field } from '../../src/bulk/columns.js';
import { readPhone } from '../../src/bulk/cells.js';
import type { RowError } from '../../src/bulk/row-check.js';
import { readAssessments, readChannels, resolvedCell, schemaErrors, serviceRules } from '../../src/bulk/row-rules.js';

/** A row's cells by field name (what RowValidator's cell() gives the rules). */
const cells = (row: Partial<Record<Field, string>>) => (f: Field) => row[f] ?? '';

describe('readPhone', () => {
  it('a local number with a country is made E.164', () => {
    expect(readPhone('020 7946 0958', 'GB')).toEqual({ raw: '020 7946 0958', value: '+442079460958', count: 1, errors: [] });
  });
  it('a country written as a name is read', () => {
    expect(readPhone('020 7946 0958', 'United Kingdom').value).toBe('+442079460958');
  });
  it('a number with +country code is kept as written whatever the country', () => {
    expect(readPhone('+1 415 555 0100', 'GB')).toMatchObject({ value: '+1 415 555 0100', errors: [] });
  });
  it('without a country the number is passed on as written (the schema decides)', () => {
    expect(readPhone('415 555 0100', '')).toMatchObject({ value: '415 555 0100', errors: [] });
  });
  it('a country no number can be read for is the phone_country column\'s error', () => {
    expect(readPhone('020 7946 0958', 'Atlantis').errors).toEqual([{ field: 'phone_country', reason: expect.stringContaining('"Atlantis" is not a country') }]);
  });
  it('a number that is not one of the country is the phone\'s error', () => {
    expect(readPhone('12', 'GB').errors).toEqual([{ field: 'phone', reason: 'Invalid phone number for GB' }]);
  });
  it('several numbers in the cell: the first readable, and how many there were', () => {
    expect(readPhone('unknown; +44 20 7946 0958', '')).toMatchObject({ raw: '+44 20 7946 0958', count: 2 });
  });
  it('an empty cell is no phone and no error', () => {
    expect(readPhone('', 'GB')).toEqual({ raw: '', value: '', count: 0, errors: [] });
  });
});

describe('readChannels', () => {
  it('the defaults when the row says nothing', () => {
    expect(readChannels(cells({}), { send_via_email: true, send_via_sms: false })).toEqual({ email: true, sms: false, errors: [] });
    expect(readChannels(cells({}), {})).toEqual({ email: undefined, sms: undefined, errors: [] });
  });
  it('a send_via cell wins over the defaults', () => {
    expect(readChannels(cells({ send_via: 'sms' }), { send_via_email: true })).toEqual({ email: false, sms: true, errors: [] });
  });
  it('the yes/no columns win over send_via', () => {
    expect(readChannels(cells({ send_via: 'both', send_via_sms: 'no' }), {})).toEqual({ email: true, sms: false, errors: [] });
  });
  it('cells not understood are errors of their columns', () => {
    const r = readChannels(cells({ send_via: 'pigeon', send_via_email: 'maybe' }), {});
    expect(r.errors).toEqual([
      { field: 'send_via', reason: '"pigeon" is not email, sms, email+sms or none' },
      { field: 'send_via_email', reason: '"maybe" is not yes or no' },
    ]);
  });
});

const teams = (raw: string): Resolved<number> => (raw === 'Sales' ? { ok: true, value: 7 } : { ok: false, reason: `Team not found: ${raw}` });

describe('resolvedCell', () => {
  it('an empty cell is the default', () => {
    const errors: RowError[] = [];
    expect(resolvedCell('team', '', teams, 3, errors)).toBe(3);
    expect(errors).toEqual([]);
  });
  it('a cell that resolves is its value', () => {
    expect(resolvedCell('team', 'Sales', teams, 3, [])).toBe(7);
  });
  it('a cell that does not resolve is an error of its field, and the default stays', () => {
    const errors: RowError[] = [];
    expect(resolvedCell('team', 'Nope', teams, 3, errors)).toBe(3);
    expect(errors).toEqual([{ field: 'team', reason: 'Team not found: Nope' }]);
  });
});

const tests = (raw: string): Resolved<number[]> => (raw === 'thinking' ? { ok: true, value: [TEST_ID.thinking] } : { ok: false, reason: `Unknown assessment: ${raw}` });

describe('readAssessments', () => {
  it('a list cell wins, and the v1 columns are not read', () => {
    const errors: RowError[] = [];
    expect(readAssessments(cells({ assessments: 'thinking', assign_personality: 'maybe' }), tests, [1], errors)).toEqual([TEST_ID.thinking]);
    expect(errors).toEqual([]);
  });
  it('the v1 assign* columns, in their order', () => {
    expect(readAssessments(cells({ assign_interests: 'yes', assign_personality: 'x', assign_thinking: 'no' }), tests, undefined, [])).toEqual([TEST_ID.personality, TEST_ID.interests]);
  });
  it('v1 columns that all say no are an error', () => {
    const errors: RowError[] = [];
    readAssessments(cells({ assign_personality: 'no' }), tests, undefined, errors);
    expect(errors).toEqual([{ field: 'assessments', reason: 'At least one assessment is required' }]);
  });
  it('nothing in the row: the defaults', () => {
    expect(readAssessments(cells({}), tests, [TEST_ID.personality], [])).toEqual([TEST_ID.personality]);
  });
  it('a v1 cell not understood is its column\'s error', () => {
    const errors: RowError[] = [];
    readAssessments(cells({ assign_thinking: 'perhaps' }), tests, undefined, errors);
    expect(errors).toEqual([{ field: 'assign_thinking', reason: '"perhaps" is not yes or no' }]);
  });
});

describe('schemaErrors', () => {
  it('a field is named as a person writes it, not as the API does', () => {
    expect(schemaErrors([{ path: ['created_by_user_email'], message: 'Required' }], '', [])[0].field).not.toBe('');
  });
  it('a long number shown in scientific notation says how to keep it', () => {
    const [e] = schemaErrors([{ path: ['phone'], message: 'Invalid phone number' }], '4.47911E+11', []);
    expect(e).toEqual({ field: 'phone', reason: expect.stringContaining('is how a spreadsheet shows a long number') });
  });
  it('a number without +country code says it was read as a US number', () => {
    const [e] = schemaErrors([{ path: ['phone'], message: 'Invalid phone number' }], '07946 0958', []);
    expect(e.reason).toContain('without a +country code it is read as a US number');
  });
  it('a phone already refused is not refused twice', () => {
    expect(schemaErrors([{ path: ['phone'], message: 'Invalid phone number' }], '12', [{ field: 'phone', reason: 'Invalid phone number for GB' }])).toEqual([]);
  });
});

/** A user as the rules read one: their defaults. */
function user(email: string, defaults: { team?: number; tests?: number[]; template?: boolean }): User {
  return {
    email,
    default_team: defaults.team === undefined ? null : { id: defaults.team },
    default_assessments: (defaults.tests ?? []).map((id) => ({ id })),
    default_invitation_email_template: defaults.template ? { id: 1 } : null,
  } as unknown as User;
}
const body = (extra: Record<string, unknown> = {}) => ({ first_name: 'A', last_name: 'B', email: 'a@example.com', created_by_user_email: 'Boss@Example.com', ...extra }) as never;

describe('serviceRules', () => {
  const full = { users: new Map([['boss@example.com', user('boss@example.com', { team: 4, tests: [TEST_ID.personality], template: true })]]) };
  const bare = { users: new Map([['boss@example.com', user('boss@example.com', {})]]) };

  it('an inviter with every default: the team is theirs, email is the channel', () => {
    expect(serviceRules(body(), full)).toEqual({ errors: [], teamId: 4, channels: { email: true, sms: false } });
  });
  it('an unknown inviter is the one error (nothing else is checked)', () => {
    expect(serviceRules(body(), { users: new Map() }).errors).toEqual([{ field: 'created_by_user_email', reason: MSG.userNotFound('Boss@Example.com') }]);
  });
  it('an inviter without defaults: team, assessments and template each say so, in the service\'s order', () => {
    expect(serviceRules(body(), bare).errors.map((e) => e.field)).toEqual(['team', 'assessments', 'email_template']);
  });
  it('no template is needed when nothing goes by email', () => {
    const r = serviceRules(body({ team_id: 2, assessments_to_assign: [{ test_id: TEST_ID.thinking }], send_via_email: false }), bare);
    expect(r).toEqual({ errors: [], teamId: 2, channels: { email: false, sms: false } });
  });
  it('prescreen with another assessment, and SMS without a phone', () => {
    const r = serviceRules(body({ assessments_to_assign: [{ test_id: TEST_ID.prescreen }, { test_id: TEST_ID.thinking }], send_via_sms: true }), full);
    expect(r.errors).toEqual([
      { field: 'assessments', reason: MSG.prescreenCombined },
      { field: 'phone', reason: MSG.smsNeedsPhone },
    ]);
  });
});
