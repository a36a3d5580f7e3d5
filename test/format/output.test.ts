import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { GlobalOptions } from '../../src/core/session.js';
import { UsageError } from '../../src/core/errors.js';
import { type ColumnSpec, capNotice, createListWriter, printList, printObject, resolveFormat } from '../../src/format/output.js';
import { csvRows, type FormatRows, jsonRows, lineBatch, ndjsonRows, tableRows } from '../../src/format/list-rows.js';
import { type MemoryIOOptions, memoryIO } from '../helpers/io.js';
import { envelope, invitation, listItem } from './fixtures.js';

const ANSI = /\x1b\[/;
const NOW = new Date('2024-05-03T10:00:00Z');

function setup(globals: Partial<GlobalOptions> = {}, io: MemoryIOOptions = {}) {
  const m = memoryIO({ now: () => NOW, ...io });
  const ctx = { io: m.io, globals: { color: true, quiet: false, verbose: false, ...globals } };
  return { ...m, ctx };
}

const columns: ColumnSpec[] = [
  { key: 'id', header: 'ID' },
  { key: 'email', header: 'EMAIL' },
  { key: 'team.display_name', header: 'TEAM' },
  { key: 'created_at', header: 'CREATED' },
];

describe('resolveFormat', () => {
  it('defaults to table on a terminal and json in a pipe', () => {
    expect(resolveFormat(setup({}, { tty: true }).ctx)).toBe('table');
    expect(resolveFormat(setup({}, { tty: false }).ctx)).toBe('json');
  });
  it('lets -o win, and refuses a format the command cannot print', () => {
    expect(resolveFormat(setup({ output: 'csv' }, { tty: true }).ctx)).toBe('csv');
    expect(() => resolveFormat(setup({ output: 'csv' }).ctx, ['table', 'json'])).toThrow(UsageError);
  });
});

describe('printObject', () => {
  it('json is the object as received, stable', async () => {
    const s = setup({ output: 'json' });
    await printObject(s.ctx, invitation);
    expect(JSON.parse(s.stdout())).toEqual(invitation);
    expect(s.stdout()).toBe(`${JSON.stringify(invitation, null, 2)}\n`);
  });
  it('ndjson is one compact line', async () => {
    const s = setup({ output: 'ndjson' });
    await printObject(s.ctx, invitation);
    expect(s.stdout().split('\n')).toHaveLength(2);
    expect(JSON.parse(s.stdout())).toEqual(invitation);
  });
  it('--fields projects nested names in the given order', async () => {
    const s = setup({ output: 'json', fields: ['email', 'team.display_name', 'invitation_assessments.short_name'] });
    await printObject(s.ctx, invitation);
    const got = JSON.parse(s.stdout());
    expect(got).toEqual({ email: 'ada@example.com', team: { display_name: 'Sales' }, invitation_assessments: [{ short_name: 'Personality' }, { short_name: 'Interests' }] });
    expect(Object.keys(got)).toEqual(['email', 'team', 'invitation_assessments']);
  });
  it('--fields rejects unknown names and lists the valid ones', async () => {
    const s = setup({ output: 'json', fields: ['email', 'nope', 'team.colour'] });
    const err = await printObject(s.ctx, invitation).catch((e) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toBe('Unknown fields for --fields: "nope", "team.colour".');
    expect(err.hint).toContain('team.display_name');
    expect(err.hint).toContain('email');
    expect(s.stdout()).toBe('');
  });
  it('--fields accepts a name under a parent that is null in the data', async () => {
    const s = setup({ output: 'json', fields: ['invited_by_user.email'] });
    await printObject(s.ctx, invitation);
    expect(JSON.parse(s.stdout())).toEqual({ invited_by_user: null });
  });
  it('table shows every field by dotted name, without colour when piped', async () => {
    const s = setup({ output: 'table' });
    await printObject(s.ctx, invitation);
    expect(s.stdout()).toMatch(/^team\.display_name\s+Sales$/m);
    expect(s.stdout()).toMatch(/^created_at\s+2024-05-01T10:00:00Z$/m);
    expect(s.stdout()).not.toMatch(ANSI);
  });
  it('table on a terminal: short dates, colour, chosen rows', async () => {
    const s = setup({}, { tty: true });
    await printObject(s.ctx, invitation, { columns: [{ key: 'email', header: 'Email' }, { key: 'created_at', header: 'Created' }] });
    expect(s.stdout()).toContain('2d ago');
    expect(s.stdout()).toMatch(ANSI);
    expect(s.stdout()).not.toContain('Sales');
  });
  it('no colour on a terminal with NO_COLOR', async () => {
    const s = setup({}, { tty: true, env: { NO_COLOR: '1' } });
    await printObject(s.ctx, invitation);
    expect(s.stdout()).not.toMatch(ANSI);
  });
});

describe('printList', () => {
  it('json is the envelope as received; ndjson one item per line', async () => {
    const env = envelope(3);
    const j = setup({ output: 'json' });
    await printList(j.ctx, env, { columns });
    expect(JSON.parse(j.stdout())).toEqual(env);
    const n = setup({ output: 'ndjson' });
    await printList(n.ctx, env, { columns });
    const lines = n.stdout().trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual(env.data);
  });
  it('json of assembled items is an array; --fields keeps the envelope and cuts items', async () => {
    const a = setup({ output: 'json' });
    await printList(a.ctx, [listItem(1)], { columns });
    expect(JSON.parse(a.stdout())).toEqual([listItem(1)]);
    const f = setup({ output: 'json', fields: ['id', 'team.id'] });
    await printList(f.ctx, envelope(2), { columns });
    const got = JSON.parse(f.stdout());
    expect(got.total_count).toBe(2);
    expect(got.data).toEqual([{ id: 1, team: { id: 7 } }, { id: 2, team: { id: 7 } }]);
  });
  it('table: chosen columns, fit to the terminal width with …', async () => {
    const long = envelope(2);
    long.data[0].email = `${'x'.repeat(120)}@example.com`;
    const s = setup({}, { tty: true, columns: 60, env: { NO_COLOR: '1' } });
    await printList(s.ctx, long, { columns });
    const lines = s.stdout().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+EMAIL\s+TEAM\s+CREATED$/);
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(60);
    expect(lines[1]).toContain('…');
    expect(lines[1]).toContain('2d ago');
  });
  it('table piped: full values, ISO dates, no colour', async () => {
    const long = envelope(1);
    long.data[0].email = `${'x'.repeat(120)}@example.com`;
    const s = setup({ output: 'table' }, { columns: 60 });
    await printList(s.ctx, long, { columns });
    expect(s.stdout()).toContain(long.data[0].email);
    expect(s.stdout()).toContain('2024-05-01T10:00:00Z');
    expect(s.stdout()).not.toMatch(ANSI);
  });
  it('table with --fields uses those columns', async () => {
    const s = setup({ output: 'table', fields: ['email', 'team.id'] });
    await printList(s.ctx, envelope(1), { columns });
    expect(s.stdout().split('\n')[0]).toMatch(/^EMAIL\s+TEAM\.ID$/);
  });
  it('an empty table says so on stderr', async () => {
    const s = setup({ output: 'table' });
    await printList(s.ctx, envelope(0), { columns, noun: 'invitations' });
    expect(s.stdout()).toBe('');
    expect(s.stderr()).toBe('No invitations found.\n');
  });
  it('a capped list says so on stderr, not stdout', async () => {
    const s = setup({ output: 'ndjson', quiet: true });
    await printList(s.ctx, envelope(50, 3214), { columns, noun: 'invitations' });
    expect(s.stdout().trimEnd().split('\n')).toHaveLength(50);
    expect(s.stderr()).toBe(
      'Showing 50 of 3,214 invitations (the service returns at most 50 per request). Use --all for the complete list, or narrow with --team/--custom-id/--email.\n',
    );
  });
});

describe('capNotice', () => {
  it('is a function of count, total and noun', () => {
    expect(capNotice({ count: 150, total: 151, noun: 'test takers', narrowFlags: ['--team'] })).toBe(
      'Showing 150 of 151 test takers (the service returns at most 150 per request). Use --all for the complete list, or narrow with --team.',
    );
    expect(capNotice({ count: 50, noun: 'profiles', narrowFlags: [] })).toBe(
      'Showing 50 profiles (the service returns at most 50 per request). Use --all for the complete list.',
    );
  });
});

describe('CSV', () => {
  it('flattens nested fields with dotted names, null as empty, and reads back', async () => {
    const s = setup({ output: 'csv' });
    await printObject(s.ctx, invitation);
    const [row] = parse(s.stdout(), { columns: true }) as Record<string, string>[];
    expect(row['team.id']).toBe('7');
    expect(row['team.display_name']).toBe('Sales');
    expect(row.invited_by_user).toBe('');
    expect(row.accepted_at).toBe('');
    expect(row.send_via_email).toBe('true');
    expect(row['invitation_assessments.short_name']).toBe('Personality;Interests');
    expect(row['invitation_assessments.id']).toBe('6;8');
  });
  it('neutralises formula cells (OWASP) but leaves numbers alone', async () => {
    const s = setup({ output: 'csv' });
    const items = [
      { id: 1, a: '=1+1', b: '+14155550100', c: '-x', d: '@SUM(A1)', e: '\tx', f: '\rx', n: -5, g: 'plain', h: '+1-2', i: '+1234' },
    ];
    await printList(s.ctx, items, { columns: [] });
    const [row] = parse(s.stdout(), { columns: true }) as Record<string, string>[];
    // An E.164 phone is spaced, not quoted (csv.ts); any other text starting with '+' is quoted.
    expect(row).toEqual({ id: '1', a: "'=1+1", b: '+1 415 555 0100', c: "'-x", d: "'@SUM(A1)", e: "'\tx", f: "'\rx", n: '-5', g: 'plain', h: "'+1-2", i: "'+1234" });
  });
  it('header is the union of keys in first-seen order; a fixed header when given', async () => {
    const s = setup({ output: 'csv' });
    await printList(s.ctx, [{ a: 1, inv: null }, { a: 2, b: 'x', inv: { id: 3 } }], { columns: [] });
    const rows = parse(s.stdout()) as string[][];
    expect(rows[0]).toEqual(['a', 'b', 'inv.id']);
    expect(rows.slice(1)).toEqual([['1', '', ''], ['2', 'x', '3']]);
    const f = setup({ output: 'csv' });
    await printList(f.ctx, envelope(2), { columns, csvColumns: ['id', 'team.display_name', 'missing'] });
    expect(parse(f.stdout())).toEqual([['id', 'team.display_name', 'missing'], ['1', 'Sales', ''], ['2', 'Sales', '']]);
  });
  it('--fields picks the columns, an object field expands', async () => {
    const s = setup({ output: 'csv', fields: ['email', 'team'] });
    await printList(s.ctx, envelope(1), { columns });
    expect(parse(s.stdout())).toEqual([['email', 'team.id', 'team.display_name'], ['p1@example.com', '7', 'Sales']]);
  });
  it('quotes commas, quotes and newlines', async () => {
    const s = setup({ output: 'csv' });
    await printList(s.ctx, [{ a: 'x, "y"\nz' }], { columns: [] });
    expect(parse(s.stdout(), { columns: true })).toEqual([{ a: 'x, "y"\nz' }]);
  });
});

describe('createListWriter', () => {
  const items = [listItem(1), listItem(2), listItem(3)];

  it('json envelope streams valid JSON equal to the items', async () => {
    const s = setup({ output: 'json' });
    const w = await createListWriter(s.ctx, { columns, envelope: { mode: 'test' } });
    w.write(items[0]);
    expect(s.stdout().length).toBeGreaterThan(0);
    w.write(items[1]);
    w.write(items[2]);
    w.end();
    const got = JSON.parse(s.stdout());
    expect(got).toEqual({ mode: 'test', object: 'list', data: items, total_count: 3, has_more: false });
    expect(s.stdout()).toBe(`${JSON.stringify(got, null, 2)}\n`);
  });
  it('json array, also when empty', async () => {
    const s = setup({ output: 'json' });
    const w = await createListWriter(s.ctx, { columns });
    w.write(items[0]);
    w.end();
    expect(JSON.parse(s.stdout())).toEqual([items[0]]);
    const e = setup({ output: 'json' });
    const we = await createListWriter(e.ctx, { columns, envelope: {} });
    we.end();
    expect(JSON.parse(e.stdout())).toEqual({ object: 'list', data: [], total_count: 0, has_more: false });
  });
  it('ndjson and csv write each item as it comes (the lines of one turn together)', async () => {
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    const n = setup({ output: 'ndjson' });
    const wn = await createListWriter(n.ctx, { columns });
    wn.write(items[0]);
    await turn();
    expect(n.stdout()).toBe(`${JSON.stringify(items[0])}\n`);
    const c = setup({ output: 'csv' });
    const wc = await createListWriter(c.ctx, { columns });
    wc.write(items[0]);
    await turn();
    expect(parse(c.stdout(), { columns: true })).toHaveLength(1);
    wc.write(items[1]);
    wc.end();
    expect(parse(c.stdout(), { columns: true })).toHaveLength(2);
  });
  it('csv: later fields outside the first row are dropped with one warning', async () => {
    const c = setup({ output: 'csv' });
    const w = await createListWriter(c.ctx, { columns });
    w.write({ a: 1 });
    w.write({ a: 2, b: 3 });
    w.write({ a: 3, b: 4 });
    w.end();
    expect(parse(c.stdout())).toEqual([['a'], ['1'], ['2'], ['3']]);
    expect(c.stderr().match(/Warning/g)).toHaveLength(1);
  });
  it('table buffers until end', async () => {
    const t = setup({ output: 'table' });
    const w = await createListWriter(t.ctx, { columns });
    w.write(items[0]);
    expect(t.stdout()).toBe('');
    w.end();
    expect(t.stdout()).toMatch(/^ID\s+EMAIL/);
    expect(w.count).toBe(1);
  });
  it('--fields is checked on the first item', async () => {
    const s = setup({ output: 'ndjson', fields: ['bogus'] });
    const w = await createListWriter(s.ctx, { columns });
    expect(() => w.write(items[0])).toThrow(UsageError);
  });
});

describe('defaults and back-pressure', () => {
  it('a table with no chosen columns shows the top-level fields', async () => {
    const s = setup({ output: 'table' });
    await printList(s.ctx, envelope(1), { columns: [] });
    const head = s.stdout().split('\n')[0];
    expect(head).toMatch(/^ID\s+FIRST_NAME\s+LAST_NAME\s+EMAIL/);
    expect(head).not.toContain('OBJECT');
    expect(s.stdout()).toContain('Sales');
  });
  it('write() reports a full stdout and drained() waits for it', async () => {
    const { EventEmitter } = await import('node:events');
    const out = Object.assign(new EventEmitter(), { buf: '', write(c: string) { out.buf += c; return false; } });
    const m = memoryIO({});
    const io = { ...m.io, stdout: out };
    const w = await createListWriter({ io, globals: { output: 'ndjson', color: true, quiet: false, verbose: false } }, { columns });
    w.write(listItem(1));
    // The line leaves at the end of the turn; stdout says it is full then.
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.buf).toBe(`${JSON.stringify(listItem(1))}\n`);
    expect(w.write(listItem(2))).toBe(false);
    let resolved = false;
    const p = w.drained().then(() => {
      resolved = true;
    });
    await Promise.resolve();
    expect(resolved).toBe(false);
    out.emit('drain');
    await p;
    expect(resolved).toBe(true);
  });
});

describe('the row writers of createListWriter, one per format', () => {
  /** A stdout that records each write() and answers `accept`. */
  function recorder(accept = true) {
    const writes: string[] = [];
    return { writes, out: { write: (s: string) => (writes.push(s), accept) } as unknown as ReturnType<typeof setup>['ctx']['io']['stdout'] };
  }
  const emitted = (rows: FormatRows, items: unknown[]) => {
    const chunks: string[] = [];
    rows.start();
    items.forEach((it, i) => rows.row(it, it, i, (c) => chunks.push(c)));
    rows.end(items.length);
    return chunks;
  };

  it('jsonRows: an envelope (or an array) that parses, with total_count = rows', () => {
    const r = recorder();
    const chunks = emitted(jsonRows(r.out, { mode: 'live' }), [{ id: 1 }, { id: 2 }]);
    const text = r.writes[0] + chunks.join('') + r.writes[1];
    expect(JSON.parse(text)).toEqual({ mode: 'live', object: 'list', data: [{ id: 1 }, { id: 2 }], total_count: 2, has_more: false });
    const a = recorder();
    const none = emitted(jsonRows(a.out), []);
    expect(JSON.parse(a.writes.join('') + none.join(''))).toEqual([]);
  });

  it('ndjsonRows: one compact line per item, nothing around them', () => {
    expect(emitted(ndjsonRows(), [{ id: 1 }, { a: 'b' }])).toEqual(['{"id":1}\n', '{"a":"b"}\n']);
  });

  it('csvRows: the first item fixes the header; later fields outside it are dropped with one warning', async () => {
    const s = setup({ output: 'csv' });
    const csv = await import('../../src/format/csv.js');
    const chunks = emitted(csvRows(s.ctx, { columns: [] }, undefined, csv), [{ id: 1 }, { id: 2, extra: 'x' }, { id: 3, extra: 'y' }]);
    expect(chunks).toEqual([['id'], ['1'], ['2'], ['3']].map((cells) => csv.csvLine(cells)));
    expect(s.stderr().match(/Warning: CSV columns were fixed by the first row; extra of later rows/g)).toHaveLength(1);
  });

  it('csvRows: a fixed header is written first; an empty export with --fields still names its columns', async () => {
    const csv = await import('../../src/format/csv.js');
    const fixed = setup({ output: 'csv' });
    emitted(csvRows(fixed.ctx, { columns: [], csvColumns: ['id', 'email'] }, undefined, csv), []);
    expect(fixed.stdout()).toBe(csv.csvLine(['id', 'email']));
    const empty = setup({ output: 'csv' });
    emitted(csvRows(empty.ctx, { columns: [] }, ['email'], csv), []);
    expect(empty.stdout()).toBe(csv.csvLine(['email']));
  });

  it('tableRows: nothing until the end; an empty list says so on stderr', async () => {
    const { renderTable } = await import('../../src/format/table.js');
    const s = setup({}, { tty: true });
    const rows = tableRows(s.ctx, { columns, noun: 'invitations' }, undefined, renderTable);
    expect(emitted(rows, [])).toEqual([]);
    expect(s.stdout()).toBe('');
    expect(s.stderr()).toBe('No invitations found.\n');
  });

  it('lineBatch: the lines of one turn leave in one write; a refused write marks it full', async () => {
    const r = recorder(false);
    const b = lineBatch(r.out);
    b.emit('a\n');
    b.emit('b\n');
    expect(r.writes).toEqual([]);
    await new Promise((res) => setImmediate(res));
    expect(r.writes).toEqual(['a\nb\n']);
    expect(b.full).toBe(true);
    // 64 KB at once leave at once.
    b.emit('x'.repeat(65_536));
    expect(r.writes).toHaveLength(2);
  });
});
