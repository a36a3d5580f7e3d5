/**
 * The in-file duplicate index (src/bulk/email-index.ts): the first row of an
 * email is kept, whatever is set after it, through the growth of its shards.
 */
import { describe, expect, it } from 'vitest';
import { EmailIndex } from '../../src/bulk/email-index.js';

describe('EmailIndex', () => {
  it('an email not set is not found', () => {
    expect(new EmailIndex().get('a@example.com')).toBeUndefined();
  });
  it('the first row set is kept', () => {
    const ix = new EmailIndex();
    ix.set('a@example.com', 4);
    ix.set('a@example.com', 9);
    expect(ix.get('a@example.com')).toBe(4);
    expect(ix.get('b@example.com')).toBeUndefined();
  });
  it('row 0 is a row, not "none"', () => {
    const ix = new EmailIndex();
    ix.set('a@example.com', 0);
    expect(ix.get('a@example.com')).toBe(0);
  });
  it('100,000 emails through every shard\'s growth: each finds its own row', () => {
    const ix = new EmailIndex();
    const n = 100_000;
    for (let i = 0; i < n; i++) ix.set(`p${i}@example.com`, i + 1);
    for (let i = 0; i < n; i += 7) expect(ix.get(`p${i}@example.com`)).toBe(i + 1);
    expect(ix.get(`p${n}@example.com`)).toBeUndefined();
  });
});
