/**
 * The streamed workbook (src/format/xlsx.ts) on an output that stops taking
 * bytes: after a failed write (a full disk behind `> FILE`), node's stdout may
 * still say it needs a 'drain' that never comes. The workbook must still end,
 * so the export can say it is incomplete, not hang (exit 13).
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openXlsxList } from '../../src/format/xlsx.js';

const rows = Array.from({ length: 200 }, (_, i) => ({ id: i, name: `test taker ${i}`, note: 'x'.repeat(200) }));

describe('openXlsxList on a stuck output', () => {
  it('ends when the output write already failed and no drain ever comes', async () => {
    // No reader: the first chunk fills the buffer and no 'drain' ever comes.
    const stuck = new PassThrough({ highWaterMark: 16 });
    const failure = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    const list = await openXlsxList(stuck, { sheet: 'Items', failed: () => failure });
    for (const r of rows) list.write(r);
    await expect(list.end()).resolves.toBeUndefined();
    expect(stuck.writableNeedDrain).toBe(true);
  });

  it('waits for the drain of an output that is only slow, and the workbook is whole', async () => {
    const slow = new PassThrough({ highWaterMark: 16 });
    const list = await openXlsxList(slow, { sheet: 'Items', failed: () => undefined });
    for (const r of rows) list.write(r);
    let ended = false;
    const ending = list.end().then(() => (ended = true));
    await new Promise((res) => setTimeout(res, 50));
    expect(ended).toBe(false);
    // A reader comes: every byte flows, the book ends, and it is a zip (PK) to its end record.
    const chunks: Buffer[] = [];
    slow.on('data', (c: Buffer) => chunks.push(c));
    await ending;
    const book = Buffer.concat(chunks);
    expect(book.subarray(0, 2).toString()).toBe('PK');
    expect(book.includes(Buffer.from([0x50, 0x4b, 0x05, 0x06]))).toBe(true);
  });
});

describe("openXlsxList's warning about later rows' keys", () => {
  it('shows a hostile key as escapes, never as a terminal sequence (issue 42)', async () => {
    const out = new PassThrough();
    out.resume();
    const warnings: string[] = [];
    const list = await openXlsxList(out, { sheet: 'Items', failed: () => undefined, warn: (s: string) => warnings.push(s) });
    list.write({ id: 1 });
    list.write({ id: 2, 'x\x1b]0;T\x07\x1b[2J': 'y' });
    await list.end();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).not.toMatch(/[\x00-\x09\x0b-\x1f]/);
    expect(warnings[0]).toContain('x\\x1b]0;T\\x07\\x1b[2J');
  });
});
