/**
 * Issue 44, item 5: phone numbers as a new user's spreadsheet has them: one
 * Excel stripped of its +, one in a range libphonenumber does not list, and
 * the user's own phone cells in a results file.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPhone } from '../../src/bulk/cells.js';
import { neutraliseCell } from '../../src/format/csv.js';
import { INVITER, readResults, useBulkStub } from '../bulk/harness.js';
import { runCli } from '../helpers/cli.js';

const { h, invite, send } = useBulkStub('jobfit-round3-small-');

describe('phones', () => {
  it('a phone Excel stripped of its + (4915123456789) with Country DE is +4915123456789, not +494915123456789', async () => {
    expect(readPhone('4915123456789', 'DE').value).toBe('+4915123456789');
    // A German number written nationally, with its trunk 0, is read as before.
    expect(readPhone('015123456789', 'DE').value).toBe('+4915123456789');
    expect(readPhone('030 901820', 'DE').value).toBe('+4930901820');
    const csv = join(h.dir, 'stripped.csv');
    writeFileSync(csv, 'First Name,Last Name,Email,Phone,Country\nJan,Stripped,jan.stripped@example.com,4915123456789,DE\n');
    const { out } = await send(csv, 'stripped');
    const id = readResults(out)[1].split(',').at(-3)!;
    const inv = JSON.parse((await runCli(['invitations', 'get', id, '-o', 'json'], { env: h.env })).stdout);
    expect(inv.phone).toBe('+4915123456789');
  });

  it('a number of a possible length in a range libphonenumber does not list: sent by email with a note; refused for an SMS', async () => {
    const csv = join(h.dir, 'unlisted.csv');
    writeFileSync(
      csv,
      'First Name,Last Name,Email,Phone,Country,Send Via\nNew,Range,new.range@example.com,07700 900123,GB,email\nSms,Range,sms.range@example.com,07700 900124,GB,sms\n',
    );
    const dry = await invite(['--csv', csv, '--created-by', INVITER, '--dry-run']);
    expect(dry.code).toBe(3);
    expect(dry.stdout).toContain('2 rows, 1 valid, 1 invalid');
    expect(dry.stdout).toContain('1 row has a phone in a range libphonenumber does not list ("07700 900123")');
    expect(dry.stdout).toContain('sms.range@example.com): phone: 07700 900124 is not in a range of numbers in use');
    const { out } = await send(csv, 'unlisted', ['--skip-invalid'], 3);
    const created = readResults(out)[1];
    expect(created).toMatch(/,created,/);
    const inv = JSON.parse((await runCli(['invitations', 'get', created.split(',').at(-3)!, '-o', 'json'], { env: h.env })).stdout);
    expect(inv.phone).toBe('+447700900123');
  });
});

describe('results files: the user\'s own phone cells', () => {
  it('a phone written with its + is spaced (no leading \' in LibreOffice), a formula still is neutralised', () => {
    expect(neutraliseCell('+44 20 7946 0958')).toBe('+44 20 7946 0958');
    expect(neutraliseCell('+44 (0)20-7946 0958')).toBe('+44 20 7946 0958');
    expect(neutraliseCell('+1.415.555.0100')).toBe('+1 415 555 0100');
    expect(neutraliseCell('+14155550100')).toBe('+1 415 555 0100');
    expect(neutraliseCell('+1+1')).toBe("'+1+1");
    expect(neutraliseCell('+SUM(A1:A9)')).toBe("'+SUM(A1:A9)");
  });

  it('in a bulk run\'s results file', async () => {
    const csv = join(h.dir, 'own-phones.csv');
    writeFileSync(csv, 'First Name,Last Name,Email,Phone\nOwn,Phone,own.phone@example.com,+44 (0)20-7946 0958\n');
    const { out } = await send(csv, 'own-phones');
    const line = readResults(out)[1];
    expect(line).toContain(',+44 20 7946 0958,');
    expect(line).not.toContain("'+44");
  });
});
