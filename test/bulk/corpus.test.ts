/**
 * Files a recruiter already has (issue 25): the exports of applicant tracking
 * systems and forms, as their own documentation describes them
 * (test/fixtures/ats/README.md says where each shape comes from), and
 * workbooks with a title block or a notes sheet first. Each goes through
 * `invite --dry-run` with every row valid and no flag but the inviter, then
 * for real against the stub on a loopback port, which must then hold each
 * person once, with the names and the E.164 phone expected.
 */
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAllValid, INVITER, useBulkStub } from './harness.js';

const { h, invite, send } = useBulkStub('jobfit-bulk-corpus-');
const ATS = join(import.meta.dirname, '../fixtures/ats');

interface Person {
  email: string;
  first: string;
  last: string;
  phone: string | null;
}

const p = (email: string, first: string, last: string, phone: string | null = null): Person => ({ email, first, last, phone });

/** File → the people it must create. */
const CORPUS: Array<{ file: string; people: Person[]; note?: RegExp }> = [
  {
    file: 'lever.csv',
    people: [
      p('mary.vdberg@lever-corpus.example', 'Mary Anne', 'van der Berg', '+14155550132'),
      p('john.smith@lever-corpus.example', 'John', 'Smith Jr.', '+16465550143'),
      p('priya.raman@lever-corpus.example', 'Priya', 'Raman', '+12125550101'),
    ],
    note: /1 row had several email addresses in one cell/,
  },
  {
    file: 'linkedin-talent-hub.csv',
    people: [
      p('ahmed.alfarsi@talenthub-corpus.example', 'Ahmed', 'al-Farsi', '+447911123456'),
      p('chen.wei@talenthub-corpus.example', 'Chen', 'Wei', '+447400123456'),
    ],
    note: /1 row had several phone numbers in one cell/,
  },
  {
    file: 'linkedin-connections.csv',
    people: [p('sofia.lindqvist@connections-corpus.example', 'Sofia', 'Lindqvist'), p('tomasz.nowak@connections-corpus.example', 'Tomasz', 'Nowak')],
  },
  {
    file: 'smartrecruiters.csv',
    people: [
      p('lucia.fernandez@smartrecruiters-corpus.example', 'Lucia', 'Fernandez', '+34612345678'),
      p('oliver.brown@smartrecruiters-corpus.example', 'Oliver', 'Brown', '+447700123456'),
    ],
  },
  {
    file: 'gem.csv',
    people: [p('hannah.okafor@gem-corpus.example', 'Hannah', 'Okafor', '+14155550199'), p('marco.rossi@gem-corpus.example', 'Marco', 'Rossi', '+12125550155')],
  },
  {
    file: 'german-excel.csv',
    people: [
      p('juergen.mueller@de-corpus.example', 'Jürgen', 'Müller', '+4915123456789'),
      p('anna.weizsaecker@de-corpus.example', 'Anna-Lena', 'von Weizsäcker', '+491712345678'),
    ],
  },
  {
    file: 'msforms-anonymous.csv',
    people: [
      p('grace.hopper@forms-corpus.example', 'Grace', 'Hopper', '+16465550111'),
      p('alan.turing@forms-corpus.example', 'Alan', 'Turing', '+447911123457'),
    ],
    note: /2 rows: email read from another column, as "Email" is empty or anonymous there/,
  },
  {
    file: 'workday.csv',
    people: [
      p('john.smith@workday-corpus.example', 'John', 'Smith', '+14155550177'),
      p('ana.delacruz@workday-corpus.example', 'Ana María', 'de la Cruz', '+16465550188'),
    ],
    note: /"Smith, John" → first "John", last "Smith"/,
  },
  {
    file: 'google-forms.csv',
    people: [
      p('kwame.mensah@gforms-corpus.example', 'Kwame', 'Mensah', '+12125550122'),
      p('ludwig.beethoven@gforms-corpus.example', 'Ludwig', 'van Beethoven', '+12125550123'),
    ],
  },
  {
    file: 'ashby.csv',
    people: [
      p('fatima.binali@ashby-corpus.example', 'Fatima Zahra', 'bin Ali', '+447911123458'),
      p('maria.desouza@ashby-corpus.example', 'Maria', 'de Souza', '+14155550144'),
    ],
  },
  {
    file: 'greenhouse.csv',
    people: [p('noah.kim@greenhouse-corpus.example', 'Noah', 'Kim', '+14155550166'), p('emma.oneill@greenhouse-corpus.example', 'Emma', "O'Neill", '+16465550167')],
  },
  {
    file: 'linkedin-recruiter.csv',
    people: [
      p('isabel.garcia@recruiter-corpus.example', 'Isabel', 'García', '+34612345679'),
      p('liam.walsh@recruiter-corpus.example', 'Liam', 'Walsh', '+353851234567'),
    ],
  },
  {
    file: 'hris-phone-columns.csv',
    people: [p('zoe.adams@hris-corpus.example', 'Zoe', 'Adams', '+12125550131'), p('ravi.patel@hris-corpus.example', 'Ravi', 'Patel', '+16465550132')],
  },
  {
    file: 'french.csv',
    people: [p('celine.dupont@fr-corpus.example', 'Céline', 'Dupont', '+33612345678'), p('elodie.martin@fr-corpus.example', 'Élodie', 'Martin', '+33623456789')],
  },
  {
    file: 'spanish.csv',
    people: [
      p('javier.garcia@es-corpus.example', 'Javier', 'García López', '+34612345670'),
      p('maria.fernandez@es-corpus.example', 'María', 'Fernández Ruiz', '+34612345671'),
    ],
  },
  {
    file: 'dutch.csv',
    people: [p('daan.vdberg@nl-corpus.example', 'Daan', 'van der Berg', '+31612345678'), p('sanne.jansen@nl-corpus.example', 'Sanne', 'Jansen', '+31623456789')],
  },
  {
    file: 'title-block.csv',
    people: [p('amara.nwosu@title-corpus.example', 'Amara', 'Nwosu', '+447911123459'), p('ben.carter@title-corpus.example', 'Ben', 'Carter', '+447911123460')],
  },
];

/** The workbooks, built here with exceljs as Excel would save them. */
const WORKBOOKS: Array<{ file: string; build: (wb: ExcelJS.Workbook) => void; people: Person[]; note: RegExp }> = [
  {
    file: 'title-block.xlsx',
    build: (wb) => {
      const ws = wb.addWorksheet('Export');
      ws.addRow(['Candidates for Graduate Programme 2027']);
      ws.addRow(['Exported 20 Nov 2026']);
      ws.addRow([]);
      ws.addRow(['First Name', 'Last Name', 'Email', 'Mobile']);
      ws.addRow(['Nia', 'Roberts', 'nia.roberts@wb-corpus.example', '+44 7911 123461']);
      ws.addRow(['Omar', 'Haddad', 'omar.haddad@wb-corpus.example', '+44 7911 123462']);
    },
    people: [p('nia.roberts@wb-corpus.example', 'Nia', 'Roberts', '+447911123461'), p('omar.haddad@wb-corpus.example', 'Omar', 'Haddad', '+447911123462')],
    note: /2 title rows above the header skipped \(the header is row 4 of sheet "Export"; row 1: "Candidates for Graduate Programme 2027"\)/,
  },
  {
    file: 'notes-first.xlsx',
    build: (wb) => {
      const notes = wb.addWorksheet('Notes');
      notes.addRow(['Read me first']);
      notes.addRow(['This workbook lists the shortlisted candidates, one per row, on the next sheet.']);
      notes.addRow(['Owner', 'Talent team']);
      const ws = wb.addWorksheet('Candidates');
      ws.addRow(['Full Name', 'Email Address', 'Phone']);
      ws.addRow(['Leila Haddad', 'leila.haddad@wb-corpus.example', '+1 415 555 0161']);
      ws.addRow(['Sean de Vries', 'sean.devries@wb-corpus.example', '+1 415 555 0162']);
    },
    people: [p('leila.haddad@wb-corpus.example', 'Leila', 'Haddad', '+14155550161'), p('sean.devries@wb-corpus.example', 'Sean', 'de Vries', '+14155550162')],
    note: /sheet "Notes" has no table of people .* reading sheet "Candidates"/,
  },
];

/** The invitations of the account with this email, through the API. */
async function invitationsOf(email: string): Promise<Array<{ id: number; email: string }>> {
  const res = await fetch(`${h.stub.url}/invitations?email=${encodeURIComponent(email)}`, { headers: { Authorization: `Bearer ${h.env.JOBFIT_API_KEY}` } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: Array<{ id: number; email: string }> };
  return body.data.filter((i) => i.email.toLowerCase() === email.toLowerCase());
}

async function expectCreated(people: Person[]): Promise<void> {
  for (const person of people) {
    const found = await invitationsOf(person.email);
    expect(found, person.email).toHaveLength(1);
    const res = await fetch(`${h.stub.url}/invitations/${found[0].id}`, { headers: { Authorization: `Bearer ${h.env.JOBFIT_API_KEY}` } });
    const inv = (await res.json()) as { first_name: string; last_name: string; phone: string | null };
    expect({ email: person.email, first: inv.first_name, last: inv.last_name, phone: inv.phone }).toEqual(person);
  }
}

async function checkFile(path: string, name: string, people: Person[], note?: RegExp): Promise<void> {
  const dry = await invite(['--csv', path, '--created-by', INVITER, '--dry-run']);
  expectAllValid(dry, people.length);
  if (note) expect(dry.stdout + dry.stderr).toMatch(note);
  // Nothing was created by the dry run.
  for (const person of people) expect(await invitationsOf(person.email)).toHaveLength(0);
  const { r } = await send(path, name);
  expect(r.stdout + r.stderr).toMatch(new RegExp(`${people.length} created`));
  await expectCreated(people);
}

describe('exports of applicant tracking systems and forms, with no flag', () => {
  beforeAll(() => {
    console.info(`corpus: stub on port ${new URL(h.stub.url).port}`);
  });
  it('has at least 15 files', () => {
    expect(CORPUS.length + WORKBOOKS.length).toBeGreaterThanOrEqual(15);
  });
  for (const c of CORPUS) {
    it(`${c.file}: dry run all valid, then each person created once with names and phone`, async () => {
      await checkFile(join(ATS, c.file), c.file, c.people, c.note);
    });
  }
  for (const w of WORKBOOKS) {
    it(`${w.file}: read past what is above the table, then each person created once`, async () => {
      const wb = new ExcelJS.Workbook();
      w.build(wb);
      const path = join(h.dir, w.file);
      await wb.xlsx.writeFile(path);
      await checkFile(path, w.file, w.people, w.note);
    });
  }
});
