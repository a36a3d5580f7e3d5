/**
 * One table of assessment names (api/catalog.ts): `--assessments` on the
 * commands and an assessments cell of a bulk CSV accept the same names. They
 * used to disagree (`invitations update 1 --assessments cognitive` was refused
 * while a CSV cell "cognitive" was accepted).
 */
import { describe, expect, it } from 'vitest';
import { ASSESSMENT_ALIASES, assessmentIdOf, assessmentKey } from '../../src/api/catalog.js';
import { type BulkApi, loadAccountData, resolveAssessments } from '../../src/bulk/account.js';
import { parseAssessments } from '../../src/commands/invitations/shared/assessments.js';

// The account's catalog as the reference gives it ("Assessment identifiers").
const api: BulkApi = {
  listInvitations: async () => ({ data: [] }),
  listUsers: async () => ({ data: [] }),
  listTeams: async () => ({ data: [] }),
  listEmailTemplates: async () => ({ data: [] }),
  listAssessments: async () => ({
    data: [
      { object: 'assessment' as const, id: 1, display_name: 'Prescreen', short_name: 'Prescreen' },
      { object: 'assessment' as const, id: 6, display_name: 'Personality Traits', short_name: 'Personality' },
      { object: 'assessment' as const, id: 7, display_name: 'Thinking Skills', short_name: 'Thinking' },
      { object: 'assessment' as const, id: 8, display_name: 'Career Interests', short_name: 'Interests' },
    ],
  }),
  getAccount: async () => ({ id: 1, display_name: 'Acme' }),
};

/** The ids a command's `--assessments` gives for a name, or undefined when refused. */
const byCommand = (name: string) => {
  const r = parseAssessments(name);
  return 'ids' in r ? r.ids : undefined;
};

describe('assessment names: one table for the commands and the bulk CSV', () => {
  it('every name of the table, written any way, gives the same test id on both sides', async () => {
    const account = await loadAccountData(api);
    const byCsv = (name: string) => {
      const r = resolveAssessments(account, name);
      return r.ok ? r.value : undefined;
    };
    const names = Object.keys(ASSESSMENT_ALIASES).flatMap((k) => [k, k.toUpperCase(), k.replace(/ /g, '-'), k.replace(/ /g, '_'), ` ${k} `]);
    expect(names.length).toBeGreaterThanOrEqual(12 * 5);
    for (const name of names) {
      const want = [ASSESSMENT_ALIASES[assessmentKey(name)]];
      expect(byCommand(name), `--assessments "${name}"`).toEqual(want);
      expect(byCsv(name), `CSV cell "${name}"`).toEqual(want);
    }
    // The example of the disagreement, and the catalog's own names.
    expect(byCommand('cognitive')).toEqual([7]);
    expect(byCsv('cognitive')).toEqual([7]);
    for (const name of ['Prescreen', 'Personality Traits', 'Thinking Skills', 'Career Interests', 'Personality', 'Thinking', 'Interests']) {
      expect(byCommand(name)).toEqual(byCsv(name));
      expect(byCommand(name)).toBeDefined();
    }
    // A list: both keep the order given and drop repeats.
    expect(byCommand('cognitive,traits,thinking')).toEqual([7, 6]);
    expect(byCsv('cognitive,traits,thinking')).toEqual([7, 6]);
  });

  it('names outside the table are refused on both sides, inherited object keys included', async () => {
    const account = await loadAccountData(api);
    for (const name of ['juggling', 'cognition', 'constructor', 'toString', '__proto__', 'personality-trait']) {
      expect(assessmentIdOf(name), name).toBeUndefined();
      expect(byCommand(name), `--assessments "${name}"`).toBeUndefined();
      expect(resolveAssessments(account, name).ok, `CSV cell "${name}"`).toBe(false);
    }
  });
});

