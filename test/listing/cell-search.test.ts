/**
 * The rules of the partition search (src/listing/cell-search.ts), one by one:
 * cells and their members, the completeness rule under churn, the side
 * choice (the cost model), the order of the characters asked for, and the
 * sentences of a search that cannot finish.
 */
import { describe, expect, it } from 'vitest';
import { JobfitError } from '../../src/core/errors.js';
import {
  type SearchCell,
  CharStats,
  cellDone,
  charCounts,
  checkComplete,
  child,
  chooseSide,
  FALLBACK_DOMAIN,
  gaveUpError,
  join,
  matches,
  minimumRequests,
  nextChar,
  openCell,
  patternOf,
  requestBudget,
  type Seen,
  seenItem,
  seenOrder,
  sharedExtension,
  sharedJump,
  smallChildren,
  splitCost,
  splitEmail,
} from '../../src/listing/cell-search.js';

const item = (email: string, at = 0): Seen => seenItem(at, email);
const root: SearchCell = { s: '', p: '' };

describe('cells and their members', () => {
  it('an email splits at its last @; seenItem lower-cases it', () => {
    expect(splitEmail('a@b@c.org')).toEqual({ local: 'a@b', domain: 'c.org' });
    expect(splitEmail('nobody')).toEqual({ local: 'nobody', domain: '' });
    const seen = seenItem(5, 'Ann.Lee@Example.ORG');
    expect({ at: seen.at, email: seen.email, local: seen.local, domain: seen.domain }).toEqual({ at: 5, email: 'ann.lee@example.org', local: 'ann.lee', domain: 'example.org' });
    // The characters away from the last @, on each side, as the search refines a cell.
    const odd = seenItem(5, 'a@b@Cd');
    expect([odd.near('local', 0), odd.near('local', 2), odd.near('local', 3), odd.near('domain', 0), odd.near('domain', 1), odd.near('domain', 2)]).toEqual(['b', 'a', '', 'c', 'd', '']);
    const none = seenItem(5, 'nobody');
    expect([none.near('local', 0), none.near('domain', 0), none.local, none.domain]).toEqual(['y', '', 'nobody', '']);
    expect(seenItem(5, null).email).toBe('');
  });

  it('a cell s@p holds the emails whose local part ends in s and whose domain starts with p', () => {
    const c: SearchCell = { s: 'n', p: 'ex' };
    expect(patternOf(c)).toBe('n@ex');
    expect(matches(item('ann@example.org'), c)).toBe(true);
    expect(matches(item('anna@example.org'), c)).toBe(false);
    expect(matches(item('ann@other.org'), c)).toBe(false);
  });

  it('children narrow one side; nextChar is the character that picks the child', () => {
    const c: SearchCell = { s: 'n', p: 'ex' };
    expect(child(c, 'domain', 'a')).toEqual({ s: 'n', p: 'exa' });
    expect(child(c, 'local', 'an')).toEqual({ s: 'ann', p: 'ex' });
    const it1 = item('ann@example.org');
    expect(nextChar(it1, c, 'domain')).toBe('a');
    expect(nextChar(it1, c, 'local')).toBe('n');
    // An item that ends at the cell on a side has no next character there.
    expect(nextChar(item('n@ex'), c, 'local')).toBe('');
    expect(nextChar(item('n@ex'), c, 'domain')).toBe('');
    expect(charCounts([it1, item('bn@exo.org'), item('n@ex')], c, 'local')).toEqual(
      new Map([
        ['n', 1],
        ['b', 1],
        ['', 1],
      ]),
    );
  });

  it('openCell takes the members of the pool that lie in it', () => {
    const pool = [item('a@x.org'), item('b@y.org'), item('ca@x.net')];
    const cell = openCell({ s: 'a', p: 'x' }, 10, Number.POSITIVE_INFINITY, pool);
    expect(cell.pattern).toBe('a@x');
    expect(cell.members.map((m) => m.email)).toEqual(['a@x.org', 'ca@x.net']);
    expect(cell.counted).toBe(2);
  });
});

describe('the completeness rule of a cell (cellDone)', () => {
  it('done when the members that existed when it was counted reach its total', () => {
    const cell = openCell(root, 2, 1000, []);
    join(cell, item('a@x', 900));
    expect(cellDone(cell)).toBe(false);
    join(cell, item('b@x', 1000));
    expect(cellDone(cell)).toBe(true);
  });

  it('an item created after the count does not stand in for an old one never fetched (issue 31, 4)', () => {
    const cell = openCell(root, 2, 1000, []);
    join(cell, item('a@x', 900));
    join(cell, item('new@x', 1001));
    expect(cell.members).toHaveLength(2);
    expect(cell.counted).toBe(1);
    expect(cellDone(cell)).toBe(false);
  });

  it('items without a created_at, or a count that cannot be dated, count', () => {
    const undated = openCell(root, 1, 1000, []);
    join(undated, item('a@x', Number.NaN));
    expect(cellDone(undated)).toBe(true);
    const anyAge = openCell(root, 1, Number.POSITIVE_INFINITY, []);
    join(anyAge, item('a@x', 5e12));
    expect(cellDone(anyAge)).toBe(true);
  });
});

describe('the side to refine on (chooseSide, splitCost)', () => {
  it('one domain, local parts ending in ten digits: the local side (ten children that fit beat a domain to split level by level)', () => {
    const members = Array.from({ length: 300 }, (_, i) => item(`user${i}@gmail.com`));
    const cell = openCell(root, 1000, Number.POSITIVE_INFINITY, members);
    expect(chooseSide(cell, ['local', 'domain']).side).toBe('local');
  });

  it('many domains, local parts ending alike: the domain side', () => {
    const domains = 'abcdefghijklmnopqrstuvwxyz';
    const members = Array.from({ length: 260 }, (_, i) => item(`sam@${domains[i % 26]}${i}.org`));
    const cell = openCell(root, 2600, Number.POSITIVE_INFINITY, members);
    const chosen = chooseSide(cell, ['local', 'domain']);
    expect(chosen.side).toBe('domain');
    expect(chosen.n).toBe(260);
    expect(chosen.domainCounts.size).toBe(26);
  });

  it('only the side left when the other is exhausted', () => {
    const cell = openCell(root, 3000, Number.POSITIVE_INFINITY, [item('a1@x.org')]);
    expect(chooseSide(cell, ['domain']).side).toBe('domain');
  });

  it('items that end at the cell make a side dearer; children over the cap cost a level', () => {
    const even = new Map([
      ['a', 50],
      ['b', 50],
    ]);
    const withEnds = new Map([...even, ['', 20]]);
    expect(splitCost(withEnds, 120, 'local', 300)).toBeGreaterThan(splitCost(even, 100, 'local', 300));
    // Two children of 150 fit; two of 1,500 must split again.
    expect(splitCost(even, 100, 'domain', 300)).toBe(2);
    expect(splitCost(even, 100, 'domain', 3000)).toBeGreaterThan(2);
  });
});

describe('which characters to ask for', () => {
  it('seenOrder: the characters seen, most frequent first, without the ones that end there', () => {
    expect(
      seenOrder(
        new Map([
          ['a', 1],
          ['', 9],
          ['b', 3],
        ]),
      ),
    ).toEqual(['b', 'a']);
  });

  it('smallChildren: the other side\'s children that fit under the cap with room, largest first, at most six', () => {
    const counts = new Map([
      ['a', 10],
      ['b', 40],
      ['c', 20],
      ['', 5],
    ]);
    // 75 members stand for 600: b is 320 (too big), c 160 (over 120), a 80.
    expect(smallChildren(counts, 75, 600)).toEqual(['a']);
    expect(smallChildren(counts, 75, 150)).toEqual(['b', 'c', 'a']);
    const many = new Map([...'abcdefgh'].map((ch) => [ch, 1] as [string, number]));
    expect(smallChildren(many, 8, 8)).toHaveLength(6);
  });

  it('sharedExtension and sharedJump: the run every member shares next to the cell', () => {
    const members = [item('ann@yahoo.com'), item('bob@yahoo.co.uk')];
    expect(sharedExtension(members, { s: '', p: 'y' }, 'domain')).toBe('ahoo.co');
    expect(sharedExtension([item('ann.smith@x'), item('bo.smith@x')], { s: 'h', p: '' }, 'local')).toBe('.smit');
    const cell = openCell({ s: '', p: 'y' }, 400, Number.POSITIVE_INFINITY, members);
    expect(sharedJump(cell, 'domain', charCounts(cell.members, cell.cell, 'domain'))).toEqual({ s: '', p: 'yahoo.co' });
    // Two ways on: no jump.
    const split = openCell(root, 400, Number.POSITIVE_INFINITY, [item('a@x.org'), item('a@y.org')]);
    expect(sharedJump(split, 'domain', charCounts(split.members, root, 'domain'))).toBeUndefined();
  });

  it('CharStats.probeOrder: by position, then overall frequency, then the alphabet; never @ or what was asked', () => {
    const stats = new CharStats();
    const seen = new Map<number, Seen>();
    for (const e of ['a@zeta.org', 'b@zulu.org', 'c@yak.org']) {
      const it = item(e);
      seen.set(seen.size + 1, it);
      stats.add(it);
    }
    const order = stats.probeOrder(root, 'domain', new Set(['y']), seen);
    // First characters of the domains (z twice, y asked already), then the others by frequency.
    expect(order[0]).toBe('z');
    expect(order).not.toContain('y');
    expect(order).not.toContain('@');
    expect(new Set(order).size).toBe(order.length);
    for (const ch of FALLBACK_DOMAIN) if (ch !== 'y') expect(order).toContain(ch);
  });
});

describe('budgets and the final check', () => {
  it('minimumRequests and the request budget', () => {
    expect(minimumRequests(0)).toBe(1);
    expect(minimumRequests(150)).toBe(1);
    expect(minimumRequests(151)).toBe(2);
    expect(requestBudget(10_000)).toBe(8 * 67 + 128);
  });

  it('gaveUpError names the narrowest open group', () => {
    const wide = openCell(root, 500, Number.POSITIVE_INFINITY, []);
    const narrow = openCell({ s: 'ab', p: 'cd' }, 300, Number.POSITIVE_INFINITY, [item('ab@cd.org')]);
    const err = gaveUpError({ open: [wide, narrow], requests: 200, found: 90, total: 500, noun: 'invitations' });
    expect(err).toBeInstanceOf(JobfitError);
    expect(err.message).toBe(
      'Gave up on the complete list of invitations after 200 requests (90 of 500 found): the service\'s answers do not add up (it keeps reporting more than it returns). Not completed: 2 groups, the narrowest emails matching "ab@cd" (1 of 300 found).',
    );
  });

  it('checkComplete: the items that existed at the first answer add up, those created since are counted apart', () => {
    const seen = [item('a@x', 10), item('b@x', 20), item('new@x', 31)];
    expect(checkComplete({ seen, newest0: 30, total: 2, unfinished: [], noun: 'items' })).toBe(1);
  });

  it('checkComplete: too few names the groups it could not reach and the items without an email', () => {
    const seen = [item('a@x', 10), item('', 10)];
    expect(() => checkComplete({ seen, newest0: 30, total: 4, unfinished: [{ pattern: 'a@x', missing: 2 }], noun: 'test takers' })).toThrow(
      'The complete list is not complete: 2 of 4 test takers could not be reached through the email filter. Unreachable: 2 matching email "a@x". 1 items have no email.',
    );
  });

  it('checkComplete: too many says the list changed', () => {
    const seen = [item('a@x', 10), item('b@x', 10)];
    expect(() => checkComplete({ seen, newest0: 30, total: 1, unfinished: [], noun: 'invitations' })).toThrow(
      'found 2 distinct invitations but the service reports 1; the list probably changed during the export.',
    );
  });
});
