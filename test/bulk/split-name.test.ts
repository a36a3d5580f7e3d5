/**
 * One cell of a whole name → first and last name (src/bulk/split-name.ts), and
 * header cells → fields (src/bulk/columns.ts): pure functions, tested as tables.
 */
import { describe, expect, it } from 'vitest';
import { isHeaderRow, mapHeader, parseMaps, recogniseHeader } from '../../src/bulk/columns.js';
import { splitFullName } from '../../src/bulk/split-name.js';
import { emailsOf, phonesOf } from '../../src/bulk/cells.js';

describe('splitFullName', () => {
  it.each([
    ['Priya Raman', 'Priya', 'Raman'],
    ['  Priya   Raman ', 'Priya', 'Raman'],
    ['Mary Anne van der Berg', 'Mary Anne', 'van der Berg'],
    ['Ludwig van Beethoven', 'Ludwig', 'van Beethoven'],
    ['Ana María de la Cruz', 'Ana María', 'de la Cruz'],
    ['Otto von Bismarck', 'Otto', 'von Bismarck'],
    ['Omar bin Laden', 'Omar', 'bin Laden'],
    ['Ahmed al-Farsi', 'Ahmed', 'al-Farsi'],
    ['Leonardo da Vinci', 'Leonardo', 'da Vinci'],
    ['Luca di Stefano', 'Luca', 'di Stefano'],
    ['Dr. John Smith', 'John', 'Smith'],
    ['Dr. John Smith Jr.', 'John', 'Smith Jr.'],
    ['Mr John Smith III', 'John', 'Smith III'],
    ['Prof. Maria de Souza', 'Maria', 'de Souza'],
    ['Ms. Jane Doe, PhD', 'Jane', 'Doe'],
    ['John Smith, Jr.', 'John', 'Smith Jr.'],
    ['Smith, John', 'John', 'Smith'],
    ['de la Cruz, Ana María', 'Ana María', 'de la Cruz'],
    ['Smith Jr., John', 'John', 'Smith Jr.'],
    ['Yo-Yo Ma', 'Yo-Yo', 'Ma'],
    ['Madonna', 'Madonna', ''],
    ['', '', ''],
  ])('%j → %j / %j', (cell, first, last) => {
    expect(splitFullName(cell)).toEqual({ first, last });
  });

  it.each([
    ['Nguyen Van An', 'Van An', 'Nguyen'],
    ['Tanaka Hiroshi', 'Hiroshi', 'Tanaka'],
    ['van der Berg Mary', 'Mary', 'van der Berg'],
    // A comma says the order whatever the flag.
    ['Smith, John', 'John', 'Smith'],
  ])('last-first: %j → %j / %j', (cell, first, last) => {
    expect(splitFullName(cell, 'last-first')).toEqual({ first, last });
  });
});

describe('recogniseHeader', () => {
  it.each([
    ['First Name', 'first_name'],
    ['candidateFirstName', 'first_name'],
    ['candidate_first_name', 'first_name'],
    ['Applicant Last Name', 'last_name'],
    ['Given name', 'first_name'],
    ['Family Name', 'last_name'],
    ['Surname', 'last_name'],
    ['Full name', 'full_name'],
    ['Candidate', 'full_name'],
    ['Employee Name', 'full_name'],
    ['candidateEmail', 'email'],
    ['all_candidate_emails', 'email'],
    ['Work Email Address', 'email'],
    ['Your email address', 'email'],
    ['Email (required)', 'email'],
    ['emails', 'email'],
    ['Mobile phone number', 'phone'],
    ['Phone Number (Mobile)', 'phone'],
    ['Mobile Phone Number', 'phone'],
    ['Telephone Number', 'phone'],
    ['phone_numbers', 'phone'],
    ['Cell', 'phone'],
    ['Candidate ID', 'person_id'],
    ['candidateId', 'person_id'],
    // German
    ['Vorname', 'first_name'],
    ['Nachname', 'last_name'],
    ['E-Mail-Adresse', 'email'],
    ['Mobiltelefon', 'phone'],
    ['Telefonnummer', 'phone'],
    // French
    ['Prénom', 'first_name'],
    ['Nom', 'last_name'],
    ['Adresse e-mail', 'email'],
    ['Courriel', 'email'],
    ['Téléphone portable', 'phone'],
    // Spanish
    ['Nombre', 'first_name'],
    ['Apellidos', 'last_name'],
    ['Correo electrónico', 'email'],
    ['Teléfono móvil', 'phone'],
    // Dutch
    ['Voornaam', 'first_name'],
    ['Achternaam', 'last_name'],
    ['Tussenvoegsel', 'last_name_prefix'],
    ['E-mailadres', 'email'],
    ['Mobiel nummer', 'phone'],
  ])('%j → %s', (header, field) => {
    expect(recogniseHeader(header)?.field).toBe(field);
  });

  it.each(['Department', 'Group', 'Location', 'Hiring Manager Email', 'Company Name', 'Emergency contact phone', 'Recruiter', 'Owner', 'Job', 'Stage'])(
    '%j is not read as a field',
    (header) => {
      expect(recogniseHeader(header)).toBeUndefined();
    },
  );
});

describe('mapHeader', () => {
  const map = (header: string[], maps: string[] = []) => mapHeader(header, parseMaps(maps), { haveInviter: true });

  it('a header as written outranks one found after dropping qualifiers; the other is an alternate', () => {
    const m = map(['Email', 'Name', 'Your name', 'Your email address']);
    expect(m.index.email).toBe(0);
    expect(m.alternates.email).toEqual([3]);
    expect(m.alternates.full_name).toEqual([2]);
  });

  it('two phone columns: the mobile one first', () => {
    const m = map(['Name', 'Email', 'Telephone Number', 'Mobile Phone Number']);
    expect(m.index.phone).toBe(3);
    expect(m.alternates.phone).toEqual([2]);
  });

  it('two columns that mean the same field as written are refused', () => {
    expect(() => map(['Name', 'Email', 'E-mail'])).toThrow(/"Email" and "E-mail" both mean email/);
  });

  it('a --map naming a header that is not there is refused', () => {
    expect(() => map(['Name', 'Email'], ['Cand Mail=email'])).toThrow(/--map "Cand Mail=email": the file has no column "Cand Mail"/);
  });

  it('a title line is not a header; the header row is', () => {
    const maps = parseMaps([]);
    expect(isHeaderRow(['Candidates for Graduate Programme 2027'], maps)).toBe(false);
    expect(isHeaderRow(['Exported 20 Nov 2026', '', ''], maps)).toBe(false);
    expect(isHeaderRow(['First Name', 'Last Name', 'URL', 'Email Address'], maps)).toBe(true);
    expect(isHeaderRow(['Cand', 'Mail'], parseMaps(['Cand=full_name', 'Mail=email']))).toBe(true);
  });
});

describe('cells of several values', () => {
  it.each([
    ['a@x.example', 'a@x.example', 1],
    ['a@x.example,b@y.example', 'a@x.example', 2],
    ['a@x.example; b@y.example', 'a@x.example', 2],
    ['not-an-address b@y.example', 'b@y.example', 1],
    ['bad@ b@y.example', 'b@y.example', 2],
    ['not an address', 'not an address', 1],
    ['ana\u001b]0;x y\u0007\u202eevil@example.com', 'ana\u001b]0;x y\u0007\u202eevil@example.com', 1],
    ['["a@x.example", "b@y.example"]', 'a@x.example', 2],
    ['Ann Smith <ann@x.example>', 'ann@x.example', 1],
  ])('email %j → %j (%d)', (cell, pick, count) => {
    expect(emailsOf(cell)).toEqual({ pick, count });
  });

  it.each([
    ['+1 415 555 0132', '+1 415 555 0132', 1],
    ['+44 7911 123456;+44 20 7946 0958', '+44 7911 123456', 2],
    ['12;+1 415 555 0132', '+1 415 555 0132', 2],
    ['+1 415 555 0132 (Mobile) / +1 212 555 0101 (Work)', '+1 415 555 0132', 2],
    ['["+1 415 555 0132"]', '+1 415 555 0132', 1],
    ['12; 34', '12; 34', 1],
  ])('phone %j → %j (%d)', (cell, pick, count) => {
    expect(phonesOf(cell, undefined)).toEqual({ pick, count });
  });
});
