/**
 * Header names → invitation fields. Spreadsheets and ATS exports name the same
 * column a dozen ways ("First Name", "Given name", "firstName", "E-mail"); we
 * compare names with case, spaces and punctuation removed and accept the v1
 * API's camelCase names too. Anything else is carried to the results file as is.
 */
import { UsageError } from '../core/errors.js';

export const FIELDS = [
  'first_name',
  'last_name',
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

/** Normalised alias → field. Normalised = lower case, letters and digits only. */
const ALIASES: Record<Field, string[]> = {
  first_name: ['firstname', 'first', 'givenname', 'given', 'forename', 'fname', 'firstnames', 'prenom', 'vorname', 'nombre'],
  last_name: ['lastname', 'last', 'surname', 'familyname', 'family', 'lname', 'nom', 'nachname', 'apellido', 'apellidos'],
  full_name: ['name', 'fullname', 'participantname', 'candidatename', 'participant', 'candidate'],
  email: [
    'email', 'emailaddress', 'mail', 'emailid', 'sentto', 'senttoemail', 'sendtoemail', 'participantemail', 'candidateemail',
    'workemail', 'personalemail', 'primaryemail', 'courriel', 'correo',
  ],
  created_by_user_email: [
    'createdby', 'createdbyuseremail', 'createdbyemail', 'inviter', 'inviteremail', 'invitedby', 'invitedbyemail', 'recruiter',
    'recruiteremail', 'owner', 'owneremail',
  ],
  phone: [
    'phone', 'phonenumber', 'mobile', 'mobilephone', 'mobilenumber', 'cell', 'cellphone', 'cellnumber', 'telephone', 'tel',
    'senttophone', 'sendtophone', 'smsnumber', 'sms', 'mobiel', 'handy',
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
  person_id: ['personid', 'participantid', 'candidateid', 'applicantid', 'employeeid', 'externalid'],
  ref_text: ['reftext', 'reference', 'referencetext', 'ref'],
  assign_prescreen: ['assignprescreen', 'prescreen'],
  assign_personality: ['assignpersonality', 'personality', 'personalitytraits'],
  assign_interests: ['assigninterests', 'interests', 'careerinterests'],
  assign_thinking: ['assignthinking', 'thinking', 'thinkingskills'],
};

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

export function normaliseHeader(h: string): string {
  return h
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

const BY_ALIAS = new Map<string, Field>();
for (const f of FIELDS) {
  BY_ALIAS.set(normaliseHeader(f), f);
  for (const a of ALIASES[f]) BY_ALIAS.set(a, f);
}

/** Parses repeated `--map "Header=field"` flags into header(normalised) → field. */
export function parseMaps(maps: string[] | undefined): Map<string, Field | 'ignore'> {
  const out = new Map<string, Field | 'ignore'>();
  for (const m of maps ?? []) {
    const eq = m.lastIndexOf('=');
    if (eq <= 0) throw new UsageError(`--map "${m}" must be of the form "Header=field".`, `fields: ${FIELDS.join(', ')}`);
    const header = m.slice(0, eq).trim();
    const target = m.slice(eq + 1).trim().toLowerCase();
    const field = (FIELDS as readonly string[]).includes(target) ? (target as Field) : MAP_TARGETS[target];
    if (!field) throw new UsageError(`--map "${m}": "${target}" is not a field.`, `fields: ${FIELDS.join(', ')}, ignore`);
    out.set(normaliseHeader(header), field);
  }
  return out;
}

export interface ColumnMapping {
  /** The header cells as in the file. */
  header: string[];
  /** Column index of each field present. */
  index: Partial<Record<Field, number>>;
  /** Indexes of columns that map to no field (carried through). */
  unknown: number[];
  /** Carried-through columns whose name looks like a field (not read as it without --map). */
  resembles: Map<number, Field>;
}

/**
 * Maps the header line. Throws a UsageError for a duplicate column name, two
 * columns meaning the same field, or a missing required column.
 */
export function mapHeader(header: string[], maps: Map<string, Field | 'ignore'>, opts: { haveInviter: boolean }): ColumnMapping {
  const index: Partial<Record<Field, number>> = {};
  const unknown: number[] = [];
  const resembles = new Map<number, Field>();
  const seen = new Map<string, number>();
  header.forEach((raw, i) => {
    const name = raw.trim();
    if (name === '') {
      unknown.push(i);
      return;
    }
    const key = name.toLowerCase();
    const prev = seen.get(key);
    if (prev !== undefined) {
      throw new UsageError(`The header has the column "${name}" twice (columns ${prev + 1} and ${i + 1}).`, 'rename or remove one of them');
    }
    seen.set(key, i);
    const norm = normaliseHeader(name);
    const field = maps.has(norm) ? maps.get(norm) : BY_ALIAS.get(norm);
    if (!field || field === 'ignore') {
      unknown.push(i);
      if (!field && RESEMBLES[norm]) resembles.set(i, RESEMBLES[norm]);
      return;
    }
    const other = index[field];
    // "Country" and "Country Code" side by side are common in ATS exports: the
    // first is the phone hint, the other is carried through like any column.
    if (other !== undefined && field === 'phone_country') {
      unknown.push(i);
      return;
    }
    if (other !== undefined) {
      throw new UsageError(
        `The columns "${header[other].trim()}" and "${name}" both mean ${field}.`,
        `keep one, or tell which is which with --map "${name}=ignore"`,
      );
    }
    index[field] = i;
  });

  const missing: string[] = [];
  const hasNames = index.full_name !== undefined;
  if (index.first_name === undefined && !hasNames) missing.push('first_name');
  if (index.last_name === undefined && !hasNames) missing.push('last_name');
  if (index.email === undefined) missing.push('email');
  if (missing.length) {
    const found = header.map((h) => `"${h.trim()}"`).join(', ');
    // One named cell: a title line above the header, or a delimiter we do not split on.
    const oneCell = header.filter((h) => h.trim() !== '').length <= 1;
    throw new UsageError(
      `The CSV has no ${missing.join(', ')} column${missing.length > 1 ? 's' : ''} (its header is: ${found}).`,
      oneCell
        ? 'the first line must be the header (remove any title line above it), its columns separated by commas, semicolons, tabs or |'
        : 'name the columns First Name, Last Name and Email, or map them: --map "Your Header=email"',
    );
  }
  if (index.created_by_user_email === undefined && !opts.haveInviter) {
    throw new UsageError(
      'No inviter: the CSV has no created_by column and no --created-by was given (and the profile has no default inviter).',
      'pass --created-by EMAIL (a user of the account: see `jobfit users`)',
    );
  }
  return { header, index, unknown, resembles };
}
