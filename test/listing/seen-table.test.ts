import { describe, expect, it } from 'vitest';
import { MemberList, SeenTable } from '../../src/listing/seen-table.js';
import { EmailArena } from '../../src/listing/email-arena.js';
import { charCounts, checkComplete, openCell, seenItem, sharedExtension } from '../../src/listing/cell-search.js';

describe('SeenTable: everyone a search has seen, flat', () => {
  it('adds an id once; a second time gives -1; reads back created_at, the lower-cased email and where it splits', () => {
    const t = new SeenTable();
    expect(t.add(7, 1000, 'Ann.Lee@Example.ORG')).toBe(0);
    expect(t.add(7, 2000, 'other@x.org')).toBe(-1);
    expect(t.add(8, Number.NaN, null)).toBe(1);
    expect(t.add(9, 5, 'a@b@Cd')).toBe(2);
    expect(t.size).toBe(3);
    const ann = t.view(0);
    expect([ann.at, ann.email, ann.local, ann.domain]).toEqual([1000, 'ann.lee@example.org', 'ann.lee', 'example.org']);
    expect([ann.near('local', 0), ann.near('local', 6), ann.near('local', 7), ann.near('domain', 0), ann.near('domain', 99)]).toEqual(['e', 'a', '', 'e', '']);
    expect(t.view(1).email).toBe('');
    expect(Number.isNaN(t.view(1).at)).toBe(true);
    // Split at the last @, as seenItem does.
    const odd = t.view(2);
    const ref = seenItem(5, 'a@b@Cd');
    expect([odd.local, odd.domain, odd.near('local', 0), odd.near('domain', 1)]).toEqual([ref.local, ref.domain, ref.near('local', 0), ref.near('domain', 1)]);
    expect([...t.values()].map((s) => s.email)).toEqual(['ann.lee@example.org', '', 'a@b@cd']);
  });

  it('keeps every id of 100,000 apart (consecutive, sparse, large and negative ids), through its rehashes', () => {
    const t = new SeenTable();
    const ids: number[] = [];
    for (let i = 0; i < 50_000; i++) ids.push(i + 1, 2 ** 40 + i * 4096, -(i + 1) * 7);
    for (const id of ids) expect(t.add(id, 0, 'x@y')).toBeGreaterThanOrEqual(0);
    expect(t.size).toBe(ids.length);
    for (const id of ids) if (t.add(id, 0, 'x@y') !== -1) throw new Error(`id ${id} added twice`);
    for (const id of ids) if (!t.has(id)) throw new Error(`id ${id} lost`);
    expect(t.has(0)).toBe(false);
    expect(t.has(2 ** 40 + 1)).toBe(false);
  });

  it('reserve keeps what was added, and every row and id added past the room it made reads back', () => {
    const t = new SeenTable();
    t.add(7, 70, 'First@Example.org');
    t.reserve(1000);
    t.reserve(10);
    for (let i = 0; i < 3000; i++) t.add(100 + i, i, `p${i}@x${i % 7}.example`);
    expect(t.size).toBe(3001);
    expect([t.view(0).email, t.view(0).at, t.view(0).domain]).toEqual(['first@example.org', 70, 'example.org']);
    expect([t.view(3000).email, t.view(3000).at, t.view(3000).local]).toEqual(['p2999@x3.example', 2999, 'p2999']);
    for (let i = 0; i < 3000; i++) if (!t.has(100 + i) || t.add(100 + i, 0, '') !== -1) throw new Error(`id ${100 + i} lost`);
    expect(t.has(7)).toBe(true);
    expect(t.has(99)).toBe(false);
  });

  it('refuses an id that is not a finite number', () => {
    expect(() => new SeenTable().add(Number.NaN, 0, 'a@b')).toThrow(/not an id/);
  });
});

describe('MemberList: a cell\'s members as rows of the table', () => {
  it('keeps rows in the order they joined, and reads them back as the same items', () => {
    const t = new SeenTable();
    for (let i = 0; i < 40; i++) t.add(i, i, `u${i}@d${i % 3}.org`);
    const list = new MemberList();
    for (let row = 39; row >= 0; row -= 2) list.push(t.view(row));
    expect(list.length).toBe(20);
    expect(list.first()?.email).toBe('u39@d0.org');
    expect(list.map((m) => m.at)).toEqual(Array.from({ length: 20 }, (_, k) => 39 - 2 * k));
  });

  it('takes other items as objects, keeping the order, and is read by the rules like an array', () => {
    const t = new SeenTable();
    t.add(1, 0, 'a@x.org');
    const list = new MemberList();
    list.push(t.view(0));
    list.push(seenItem(0, 'ca@x.net'));
    expect(list.map((m) => m.email)).toEqual(['a@x.org', 'ca@x.net']);
    expect(list.first()?.email).toBe('a@x.org');
    expect(new MemberList().first()).toBeUndefined();
  });

  it('a cell opened from table rows gives the same counts, shared run and completeness as one opened from objects', () => {
    const emails = ['ann@yahoo.com', 'bob@yahoo.co.uk', 'cy@yahoo.com', 'dee@gmail.com', 'ed@yahoo.com'];
    const t = new SeenTable();
    emails.forEach((e, i) => t.add(i + 1, i * 10, e));
    const rows = openCell({ s: '', p: 'y' }, 4, 25, t.values());
    const objs = openCell({ s: '', p: 'y' }, 4, 25, emails.map((e, i) => seenItem(i * 10, e)));
    expect(rows.members.length).toBe(4);
    expect(rows.counted).toBe(objs.counted);
    expect([...charCounts(rows.members, rows.cell, 'domain')]).toEqual([...charCounts(objs.members, objs.cell, 'domain')]);
    expect(sharedExtension(rows.members, rows.cell, 'domain')).toBe('ahoo.co');
    expect(sharedExtension(rows.members, rows.cell, 'domain')).toBe(sharedExtension(objs.members, objs.cell, 'domain'));
    expect(checkComplete({ seen: t.values(), newest0: 30, total: 4, unfinished: [], noun: 'items' })).toBe(1);
    expect(() => checkComplete({ seen: t.values(), newest0: 30, total: 5, unfinished: [], noun: 'items' })).toThrow(/1 of 5 items could not be reached/);
  });
});

describe('EmailArena: the emails as bytes', () => {
  it('reads back every email, its characters and its substrings as the strings would, wide ones included', () => {
    const emails = ['ann.lee@example.org', '', 'zoë@café.fr', 'δοκιμή@παράδειγμα.ελ', 'a@b@cd', 'x'.repeat(300) + '@y.org', '用户@例子.广告', 'ÿ@ÿ'];
    const a = new EmailArena();
    for (let round = 0; round < 3000; round++) for (const e of emails) a.push(e);
    const patterns = ['', '@', 'e@e', 'ë@c', 'ή@π', '@例', 'ÿ', 'x@y', 'org', 'nope', 'é', 'δ', '\u00e9@'];
    for (let i = 0; i < 3000 * emails.length; i += 997) {
      const e = emails[i % emails.length];
      expect(a.email(i)).toBe(e);
      expect(a.length(i)).toBe(e.length);
      for (const pos of [-1, 0, 1, 5, e.length - 1, e.length, 400]) expect(a.charAt(i, pos)).toBe(pos >= 0 ? (e[pos] ?? '') : '');
      for (const p of patterns) expect(a.contains(i, p)).toBe(e.includes(p));
    }
  });

  it('a table row answers contains() and near() from the bytes as a seenItem does from its string', () => {
    const t = new SeenTable();
    const emails = ['Ann@Yahoo.com', 'ÉLODIE@ÉCOLE.FR', 'İlker@örnek.com.tr', 'nobody'];
    emails.forEach((e, i) => t.add(i + 1, 0, e));
    emails.forEach((e, row) => {
      const ref = seenItem(0, e);
      const got = t.view(row);
      expect([got.email, got.local, got.domain]).toEqual([ref.email, ref.local, ref.domain]);
      for (const side of ['local', 'domain'] as const) for (let k = 0; k < 8; k++) expect(got.near(side, k)).toBe(ref.near(side, k));
      for (const p of ['@', 'n@y', 'e@é', 'r@ö', 'i̇lker', 'body', 'xyz']) expect(got.contains(p)).toBe(ref.contains(p));
    });
  });
});
