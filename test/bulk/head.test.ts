/**
 * The head of a bulk run's input (src/bulk/head.ts), read before the run
 * connects: what it refuses, that the rows read with it are not read again
 * (the validation pass goes on from there), that its notes wait for tell()
 * unless it refuses, and that close() stops the reader.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseMaps } from '../../src/bulk/columns.js';
import { readHead } from '../../src/bulk/head.js';

const dir = mkdtempSync(join(tmpdir(), 'jobfit-head-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, text: string | Buffer) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const HEADER = 'First Name,Last Name,Email\n';
const rows = (n: number) => Array.from({ length: n }, (_, i) => `First${i + 1},Last${i + 1},p${i + 1}@example.com\n`).join('');

async function all(gen: AsyncGenerator<Array<{ row: number }>>): Promise<number[]> {
  const seen: number[] = [];
  for await (const batch of gen) for (const rec of batch) seen.push(rec.row);
  return seen;
}

describe('readHead', () => {
  it('the header, then every row once: the first batch read with the head, the rest after it', async () => {
    // Past one 64 KB chunk, so the head holds only the first batch.
    const p = file('many.csv', HEADER + rows(5000));
    const said: string[] = [];
    const head = await readHead(p, 'many.csv', {}, parseMaps(undefined), (t) => said.push(t));
    expect(head.meta.header).toEqual(['First Name', 'Last Name', 'Email']);
    expect(head.meta.delimiter).toBe(',');
    const seen = await all(head.batches());
    expect(seen).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
  });

  it('a note said while reading the head waits for tell(); later ones are told as they come', async () => {
    const p = file('title.csv', `Staff export\n${HEADER}${rows(2)}`);
    const said: string[] = [];
    const head = await readHead(p, 'title.csv', {}, parseMaps(undefined), (t) => said.push(t));
    expect(said).toEqual([]);
    head.tell();
    expect(said).toEqual(['title.csv: the header is on line 2; the line above it skipped (line 1: "Staff export").']);
    expect(await all(head.batches())).toEqual([1, 2]);
  });

  it('a refusal tells the notes first', async () => {
    const p = file('title-only.csv', `Staff export\n${HEADER}`);
    const said: string[] = [];
    await expect(readHead(p, 'title-only.csv', {}, parseMaps(undefined), (t) => said.push(t))).rejects.toThrow('title-only.csv has a header but no rows.');
    expect(said).toEqual(['title-only.csv: the header is on line 2; the line above it skipped (line 1: "Staff export").']);
  });

  it.each([
    ['empty', '', 'empty.csv is empty: there is no header line.'],
    ['header only', `${HEADER}\n\n`, 'header only has a header but no rows.'],
    ['no email', 'First Name,Last Name,Phone\nAna,Diaz,+14155550100\n', 'The file has no email column'],
  ])('refuses: %s', async (label, text, message) => {
    const p = file(`${label.replace(/ /g, '-')}.csv`, text);
    await expect(readHead(p, label === 'empty' ? 'empty.csv' : label, {}, parseMaps(undefined), () => {})).rejects.toThrow(message);
  });

  it('checks --map against the header, but not the inviter (the profile may have one: the validation pass checks it)', async () => {
    const p = file('people.csv', HEADER + rows(1));
    await expect(readHead(p, 'people.csv', {}, parseMaps(['Cand Mail=email']), () => {})).rejects.toThrow('--map "Cand Mail=email": the file has no column "Cand Mail"');
    const head = await readHead(p, 'people.csv', {}, parseMaps(undefined), () => {});
    expect(await all(head.batches())).toEqual([1]);
  });

  it('close() stops the reader: what was not read yet is not read', async () => {
    const p = file('closed.csv', HEADER + rows(5000));
    const head = await readHead(p, 'closed.csv', {}, parseMaps(undefined), () => {});
    head.close();
    const seen = await all(head.batches());
    // The first batch was read with the head; nothing after it.
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.length).toBeLessThan(5000);
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => i + 1));
  });
});
