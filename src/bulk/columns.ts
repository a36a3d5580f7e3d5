/**
 * Header names → invitation fields. Spreadsheets, forms and ATS exports name
 * the same column a hundred ways ("First Name", "candidateFirstName",
 * "candidate_first_name", "Vorname", "Phone Number (Mobile)", "Work Email
 * Address"). A header is cut into words (camelCase, snake_case, punctuation and
 * accents undone), a parenthesised suffix is set aside, and the words are
 * looked up in one table (ALIASES: English, German, French, Spanish, Dutch),
 * first as written, then without the words that only qualify a field
 * (QUALIFIERS: "candidate", "applicant", "your", "work", "address",
 * "number", ...). A header found as written outranks one found after that
 * (an "Email" column beats "Your email address"); the other columns of the
 * same field are kept as alternates (used when the first one's cell is empty
 * or "anonymous"). Anything else is carried to the results file as is.
 */
import { UsageError } from '../core/errors.js';

export const FIELDS = [
  'first_name',
  'last_name',
  'last_name_prefix',
  'full_name',
  'email',
  'created_by_user_email',
  'phone',
  'phone_country',
  'team',
  'assessments',
  'email_template',
  'send_via',
  'send_via_email',
  'send_via_sms',
  'custom_id',
  'person_id',
  'ref_text',
  'assign_prescreen',
  'assign_personality',
  'assign_interests',
  'assign_thinking',
] as const;
export type Field = (typeof FIELDS)[number];

/** Alias → field; an alias is a header's words joined, lower case, letters and digits only. */
const ALIASES: Record<Field, string[]> = {
  first_name: [
    'firstname', 'first', 'givenname', 'given', 'givennames', 'forename', 'forenames', 'fname', 'firstnames', 'preferredname',
    'prenom', 'prenoms', 'vorname', 'vornamen', 'rufname', 'nombre', 'nombres', 'primernombre', 'voornaam', 'voornamen', 'roepnaam',
  ],
  last_name: [
    'lastname', 'last', 'surname', 'surnames', 'familyname', 'family', 'lname', 'nom', 'nomdefamille', 'nachname', 'familienname',
    'zuname', 'apellido', 'apellidos', 'primerapellido', 'achternaam', 'familienaam',
  ],
  last_name_prefix: ['tussenvoegsel', 'tussenvoegsels', 'lastnameprefix', 'surnameprefix'],
  full_name: [
    'name', 'names', 'fullname', 'displayname', 'participantname', 'candidatename', 'applicantname', 'participant', 'candidate',
    'applicant', 'person', 'nomcomplet', 'nometprenom', 'prenometnom', 'vollstandigername', 'vollername', 'namevorname',
    'nombrecompleto', 'nombreyapellidos', 'volledigenaam', 'naam', 'namen',
  ],
  email: [
    'email', 'emails', 'emailaddress', 'emailaddresses', 'mail', 'emailid', 'sentto', 'senttoemail', 'sendtoemail', 'participantemail',
    'candidateemail', 'courriel', 'adressemail', 'adresseemail', 'adresseelectronique', 'mel', 'emailadresse', 'mailadresse',
    'correo', 'correoelectronico', 'direcciondecorreo', 'direcciondecorreoelectronico', 'emailadres', 'mailadres',
  ],
  created_by_user_email: ['createdby', 'createdbyuseremail', 'createdbyemail', 'inviter', 'inviteremail', 'invitedby', 'invitedbyemail', 'recruiteremail', 'owneremail'],
  phone: [
    'phone', 'phones', 'phonenumber', 'phonenumbers', 'mobile', 'mobilephone', 'mobilenumber', 'mobiles', 'cell', 'cellphone', 'cellnumber',
    'cellular', 'telephone', 'telephonenumber', 'tel', 'senttophone', 'sendtophone', 'smsnumber', 'sms',
    'telefon', 'telefonnummer', 'mobiltelefon', 'mobilnummer', 'mobilfunknummer', 'handy', 'handynummer', 'rufnummer',
    'telephoneportable', 'portable', 'mobilephonenumber', 'numerodetelephone', 'telefono', 'telefonomovil', 'movil', 'celular',
    'numerodetelefono', 'mobiel', 'mobielnummer', 'telefoonnummer', 'telefoon', 'mobieletelefoon', 'gsm',
  ],
  // Only read for a phone written without +country code ("020 7946 0958" with GB).
  phone_country: ['country', 'countrycode', 'phonecountry', 'phonecountrycode', 'mobilecountry', 'countryiso', 'land', 'pays', 'pais'],
  team: ['team', 'teamid', 'teamname'],
  assessments: ['assessments', 'assessment', 'assessmentstoassign', 'assessmentids', 'tests', 'test', 'testids', 'testid'],
  email_template: ['template', 'templateid', 'emailtemplate', 'emailtemplateid', 'invitationemailtemplate', 'invitationtemplate', 'templatename'],
  send_via: ['sendvia', 'channel', 'channels', 'delivery', 'deliveryvia', 'via'],
  send_via_email: ['sendviaemail', 'viaemail', 'sendemail'],
  send_via_sms: ['sendviasms', 'viasms', 'sendsms', 'sendtext'],
  custom_id: ['customid', 'groupid', 'cohort', 'batch', 'requisition', 'requisitionid', 'jobid', 'reqid'],
  person_id: [
    'personid', 'participantid', 'candidateid', 'applicantid', 'employeeid', 'externalid', 'profileid', 'kandidatenid', 'bewerberid',
    'kandidaatid', 'idcandidat', 'idcandidato',
  ],
  ref_text: ['reftext', 'reference', 'referencetext', 'ref'],
  assign_prescreen: ['assignprescreen', 'prescreen'],
  assign_personality: ['assignpersonality', 'personality', 'personalitytraits'],
  assign_interests: ['assigninterests', 'interests', 'careerinterests'],
  assign_thinking: ['assignthinking', 'thinking', 'thinkingskills'],
};

/**
 * Words that only qualify a field: "Candidate Email", "Your email address",
 * "Work Email", "Mobile Phone Number", "E-Mail des Bewerbers", "Nombre del
 * candidato". Dropped from either end of a header when the whole of it is not
 * an alias. "Hiring Manager Email" keeps "hiring manager" and is not read.
 */
const QUALIFIERS = new Set([
  'candidate', 'candidates', 'applicant', 'applicants', 'participant', 'participants', 'prospect', 'contact', 'talent', 'person', 'employee',
  'your', 'my', 'the', 'what', 'is', 'please', 'enter', 'all', 'primary', 'preferred', 'main', 'work', 'business', 'personal',
  'private', 'home', 'other', 'current', 'default', 'address', 'addresses', 'number', 'numbers', 'no', 'nr', 'list', 'value',
  'kandidat', 'kandidaten', 'kandidatin', 'bewerber', 'bewerberin', 'bewerbers', 'des', 'der', 'die', 'ihre', 'ihr', 'adresse',
  'candidat', 'candidate', 'du', 'de', 'la', 'le', 'votre', 'candidato', 'candidata', 'del', 'su', 'postulante',
  'kandidaat', 'sollicitant', 'van', 'het', 'uw', 'je', 'adres', 'nummer', 'numero',
]);

/**
 * Names that only resemble a field: a "Department" or "Group" column is often
 * the company's own, not the service's team. Carried through untouched (the
 * mapping says so) unless --map makes it the field.
 */
const RESEMBLES: Record<string, Field> = {
  department: 'team',
  dept: 'team',
  group: 'team',
  groupname: 'team',
  division: 'team',
  unit: 'team',
  businessunit: 'team',
  location: 'team',
  branch: 'team',
  store: 'team',
  // Greenhouse, Lever and Workday write the recruiter's or owner's name here, not a user's email.
  recruiter: 'created_by_user_email',
  owner: 'created_by_user_email',
  hiringmanager: 'created_by_user_email',
};

/** Field names accepted on the right of --map, besides FIELDS themselves. */
const MAP_TARGETS: Record<string, Field | 'ignore'> = {
  team_id: 'team',
  assessments_to_assign: 'assessments',
  email_template_id: 'email_template',
  template: 'email_template',
  created_by: 'created_by_user_email',
  inviter: 'created_by_user_email',
  name: 'full_name',
  country: 'phone_country',
  ignore: 'ignore',
  '-': 'ignore',
};

/** A header's words: camelCase and snake_case undone, accents and punctuation dropped, lower case. */
function headerWords(h: string): string[] {
  return h
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export function normaliseHeader(h: string): string {
  return headerWords(h).join('');
}

const BY_ALIAS = new Map<string, Field>();
for (const f of FIELDS) {
  BY_ALIAS.set(normaliseHeader(f), f);
  for (const a of ALIASES[f]) BY_ALIAS.set(a, f);
}

/** A `--map` flag: the header as given, and the field it names. */
export interface MapEntry {
  header: string;
  field: Field | 'ignore';
}
/** The `--map` flags, by normalised header. */
export type Maps = Map<string, MapEntry>;

/** Parses repeated `--map "Header=field"` flags into header(normalised) → field. */
export function parseMaps(maps: string[] | undefined): Maps {
  const out: Maps = new Map();
  for (const m of maps ?? []) {
    const eq = m.lastIndexOf('=');
    if (eq <= 0) throw new UsageError(`--map "${m}" must be of the form "Header=field".`, `fields: ${FIELDS.join(', ')}`);
    const header = m.slice(0, eq).trim();
    const target = m.slice(eq + 1).trim().toLowerCase();
    const field = (FIELDS as readonly string[]).includes(target) ? (target as Field) : MAP_TARGETS[target];
    if (!field) throw new UsageError(`--map "${m}": "${target}" is not a field.`, `fields: ${FIELDS.join(', ')}, ignore`);
    out.set(normaliseHeader(header), { header, field });
  }
  return out;
}

/** How one header cell was read: its field and how sure (0: as written or --map, 1: after dropping qualifiers). */
export interface Recognised {
  field: Field;
  rank: 0 | 1;
}

/**
 * One header cell → the field it names, or undefined. A parenthesised or
 * bracketed suffix ("Phone Number (Mobile)", "Email [required]") is set aside
 * unless it is all there is.
 */
export function recogniseHeader(raw: string): Recognised | undefined {
  const trimmed = raw.trim();
  const base = trimmed.replace(/\s*[([][^)\]]*[)\]]\s*/g, ' ').trim();
  for (const text of base && base !== trimmed ? [trimmed, base] : [trimmed]) {
    const words = headerWords(text);
    const whole = BY_ALIAS.get(words.join(''));
    if (whole) return { field: whole, rank: 0 };
    let a = 0;
    let b = words.length;
    while (a < b && QUALIFIERS.has(words[a])) a++;
    while (b > a && QUALIFIERS.has(words[b - 1])) b--;
    if (a === 0 && b === words.length) continue;
    const field = BY_ALIAS.get(words.slice(a, b).join(''));
    if (field) return { field, rank: 1 };
  }
  return undefined;
}

function looksLike(raw: string): Field | undefined {
  const words = headerWords(raw.replace(/\s*[([][^)\]]*[)\]]\s*/g, ' '));
  return RESEMBLES[words.join('')] ?? RESEMBLES[words.filter((w) => !QUALIFIERS.has(w)).join('')];
}

export interface ColumnMapping {
  /** The header cells as in the file. */
  header: string[];
  /** Column index of each field present. */
  index: Partial<Record<Field, number>>;
  /**
   * Other columns of the same field, in order: read when the first one's cell
   * is empty or "anonymous" (an anonymous Microsoft Forms export has an
   * "Email" column of "anonymous" and the address in a question's column).
   */
  alternates: Partial<Record<Field, number[]>>;
  /** Indexes of columns that map to no field (carried through). */
  unknown: number[];
  /** Carried-through columns whose name looks like a field (not read as it without --map). */
  resembles: Map<number, Field>;
}

/** A clash of two columns that mean the same field as written (a usage error when it is the header). */
interface Clash {
  field: Field;
  first: number;
  second: number;
}

function recogniseRow(header: string[], maps: Maps): { mapping: ColumnMapping; clash?: Clash; duplicate?: [number, number] } {
  const index: Partial<Record<Field, number>> = {};
  const rankOf: Partial<Record<Field, number>> = {};
  const alternates: Partial<Record<Field, number[]>> = {};
  const unknown: number[] = [];
  const resembles = new Map<number, Field>();
  const seen = new Map<string, number>();
  let clash: Clash | undefined;
  let duplicate: [number, number] | undefined;
  header.forEach((raw, i) => {
    const name = raw.trim();
    if (name === '') {
      unknown.push(i);
      return;
    }
    const key = name.toLowerCase();
    const prev = seen.get(key);
    if (prev !== undefined) duplicate ??= [prev, i];
    seen.set(key, i);
    const mapped = maps.get(normaliseHeader(name));
    const r: Recognised | undefined = mapped ? (mapped.field === 'ignore' ? undefined : { field: mapped.field, rank: 0 }) : recogniseHeader(name);
    if (!r) {
      unknown.push(i);
      const like = mapped ? undefined : looksLike(name);
      if (like) resembles.set(i, like);
      return;
    }
    const { field, rank } = r;
    const other = index[field];
    if (other === undefined) {
      index[field] = i;
      rankOf[field] = rank;
      return;
    }
    // "Country" and "Country Code" side by side are common in ATS exports: the
    // first is the phone hint, the other is carried through like any column.
    if (field === 'phone_country') {
      unknown.push(i);
      return;
    }
    const otherRank = rankOf[field]!;
    if (rank === 0 && otherRank === 0 && field !== 'phone') {
      clash ??= { field, first: other, second: i };
      unknown.push(i);
      return;
    }
    // The better-named column first ("Email" before "Your email address"); for phones a mobile one first (it can take a text).
    const better = rank < otherRank || (field === 'phone' && rank === otherRank && /mobil|cell|handy|portable|movil|gsm/i.test(name) && !/mobil|cell|handy|portable|movil|gsm/i.test(header[other]));
    const list = (alternates[field] ??= []);
    if (better) {
      list.unshift(other);
      index[field] = i;
      rankOf[field] = rank;
    } else list.push(i);
  });
  return { mapping: { header, index, alternates, unknown, resembles }, clash, duplicate };
}

/** The header a person would mean: it maps an email and a name (the test for the first row of a table under a title block). */
export function isHeaderRow(cells: string[], maps: Maps): boolean {
  if (cells.filter((c) => c.trim() !== '').length < 2) return false;
  const { index } = recogniseRow(cells, maps).mapping;
  return index.email !== undefined && (index.full_name !== undefined || index.first_name !== undefined || index.last_name !== undefined);
}

/**
 * Maps the header line. Throws a UsageError for a duplicate column name, two
 * columns meaning the same field, a --map naming a column that is not there,
 * or a missing required column.
 */
export function mapHeader(header: string[], maps: Maps, opts: { haveInviter: boolean }): ColumnMapping {
  const { mapping, clash, duplicate } = recogniseRow(header, maps);
  if (duplicate) {
    const [a, b] = duplicate;
    throw new UsageError(`The header has the column "${header[b].trim()}" twice (columns ${a + 1} and ${b + 1}).`, 'rename or remove one of them');
  }
  if (clash) {
    const name = header[clash.second].trim();
    throw new UsageError(
      `The columns "${header[clash.first].trim()}" and "${name}" both mean ${clash.field}.`,
      `keep one, or tell which is which with --map "${name}=ignore"`,
    );
  }
  const present = new Set(header.map((h) => normaliseHeader(h)));
  for (const [norm, m] of maps) {
    if (!present.has(norm)) {
      throw new UsageError(`--map "${m.header}=${m.field}": the file has no column "${m.header}" (its header is: ${header.map((h) => `"${h.trim()}"`).join(', ')}).`, 'give --map a header as the file writes it');
    }
  }
  const { index } = mapping;
  const missing: string[] = [];
  const hasNames = index.full_name !== undefined;
  if (index.first_name === undefined && !hasNames) missing.push('first_name');
  if (index.last_name === undefined && !hasNames) missing.push('last_name');
  if (index.email === undefined) missing.push('email');
  if (missing.length) {
    const found = header.map((h) => `"${h.trim()}"`).join(', ');
    // One named cell: a delimiter we do not split on.
    const oneCell = header.filter((h) => h.trim() !== '').length <= 1;
    throw new UsageError(
      `The file has no ${missing.join(', ')} column${missing.length > 1 ? 's' : ''} (its header is: ${found}).`,
      oneCell
        ? 'the header must name the columns, separated by commas, semicolons, tabs or |; or say which line it is with --header-row N'
        : 'name the columns First Name, Last Name and Email, or map them: --map "Your Header=email"',
    );
  }
  if (index.created_by_user_email === undefined && !opts.haveInviter) {
    throw new UsageError(
      'No inviter: the file has no created_by column and no --created-by was given (and the profile has no default inviter).',
      'pass --created-by EMAIL (a user of the account: see `jobfit users`)',
    );
  }
  return mapping;
}
