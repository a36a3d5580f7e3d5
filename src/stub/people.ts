// A fast, deterministic generator of realistic participants for seeding the
// stub and for benchmarks. Person i depends only on (seed, i): generating
// 10 people from index 5 gives the same people as items 5..14 of a longer run,
// so seeds can be extended without reshuffling what exists.
//
// Emails are unique across any set of distinct indexes: every local part ends
// with the index, and names contain no digits, so the trailing number alone
// tells two people apart.

import { hashString, mulberry32 } from './random.js';

export interface GeneratedPerson {
  first_name: string;
  last_name: string;
  email: string;
  /** E.164, or null for people who gave no phone. */
  phone: string | null;
  custom_id: string | null;
  person_id: string | null;
}

export interface GeneratePeopleOptions {
  seed: string | number;
  /** Index of the first person (default 0). */
  startIndex?: number;
  /** Email domains to draw from, uniformly; default: a realistic mix of common, company and rare domains. */
  domains?: string[];
}

// ------------------------------------------------------------------ names

interface Culture {
  weight: number;
  first: string[];
  last: string[];
  countries: string[];
}

const CULTURES: Culture[] = [
  {
    weight: 24,
    first: ['James', 'Mary', 'Robert', 'Patricia', 'Michael', 'Jennifer', 'David', 'Linda', 'Emily', 'Daniel', 'Ashley', 'Tyler', 'Brittany', 'Jordan', 'Megan', 'Kevin', 'Rachel', 'Brandon', 'Amanda', 'Zoë'],
    last: ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Miller', 'Davis', 'Wilson', 'Anderson', 'Taylor', 'Thomas', 'Moore', 'Jackson', 'Martin', 'Thompson', 'White', 'Harris', 'Clark', 'Lewis', 'Walker-Hayes'],
    countries: ['US', 'US', 'US', 'CA', 'AU'],
  },
  {
    weight: 8,
    first: ['Siobhán', 'Liam', 'Aoife', 'Seán', 'Niamh', 'Ciarán', 'Róisín', 'Patrick', 'Saoirse', 'Declan'],
    last: ["O'Brien", "O'Connor", "O'Sullivan", 'McCarthy', 'Murphy', 'Kelly', "D'Arcy", 'Byrne', 'Ó Súilleabháin', 'MacNeill'],
    countries: ['IE', 'GB', 'US'],
  },
  {
    weight: 8,
    first: ['Oliver', 'Amelia', 'Harry', 'Isla', 'George', 'Charlotte', 'Freddie', 'Imogen', 'Alfie', 'Poppy'],
    last: ['Wright', 'Hughes', 'Edwards', 'Green', 'Hall', 'Wood', 'Clarke', 'Jones-Lloyd', 'Bennett', 'Ashworth'],
    countries: ['GB', 'GB', 'AU'],
  },
  {
    weight: 9,
    first: ['Jürgen', 'Anna', 'Lukas', 'Lea', 'Maximilian', 'Sophie', 'Jörg', 'Hannah', 'Björn', 'Käthe', 'Felix', 'Greta'],
    last: ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weiß', 'Schröder', 'Becker', 'Hoffmann', 'Schäfer', 'Groß', 'Meyer-Lüdenscheidt', 'Krüger'],
    countries: ['DE', 'DE', 'DE', 'AT', 'CH'],
  },
  {
    weight: 8,
    first: ['François', 'Hélène', 'Chloé', 'Léa', 'Jérôme', 'Amélie', 'Théo', 'Noémie', 'Gaël', 'Inès', 'Jean-Luc', 'Anaïs'],
    last: ['Dubois', 'Lefèvre', 'Moreau', 'Laurent', 'Girard', 'Bonnet', 'Rousseau', 'Fournier', 'Mercier', "D'Amboise", 'Lemaître', 'Faure'],
    countries: ['FR', 'FR', 'FR', 'BE', 'CA'],
  },
  {
    weight: 10,
    first: ['José', 'María', 'Jesús', 'Lucía', 'Andrés', 'Sofía', 'Martín', 'Ximena', 'Iñaki', 'Valentina', 'Raúl', 'Ángela'],
    last: ['García', 'Rodríguez', 'Martínez', 'Hernández', 'López', 'González', 'Pérez', 'Sánchez', 'Núñez', 'Peña', 'Muñoz', 'Ibáñez'],
    countries: ['ES', 'MX', 'MX', 'US', 'ES'],
  },
  {
    weight: 5,
    first: ['Giulia', 'Alessandro', 'Francesca', 'Lorenzo', 'Chiara', 'Niccolò', 'Martina', 'Matteo'],
    last: ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', "D'Angelo"],
    countries: ['IT'],
  },
  {
    weight: 4,
    first: ['Daan', 'Sanne', 'Bram', 'Femke', 'Joost', 'Lotte', 'Sem', 'Anouk'],
    last: ['de Jong', 'Jansen', 'de Vries', 'van den Berg', 'van Dijk', 'Bakker', 'Visser', 'van der Meer'],
    countries: ['NL'],
  },
  {
    weight: 4,
    first: ['Łukasz', 'Agnieszka', 'Paweł', 'Małgorzata', 'Søren', 'Åsa', 'Mikael', 'Ingrid'],
    last: ['Wójcik', 'Kowalczyk', 'Zieliński', 'Dąbrowska', 'Sørensen', 'Ødegård', 'Lindqvist', 'Åberg'],
    countries: ['DE', 'GB', 'NL'],
  },
  {
    weight: 7,
    first: ['Priya', 'Arjun', 'Ananya', 'Rohan', 'Divya', 'Vikram', 'Sneha', 'Aditya'],
    last: ['Sharma', 'Patel', 'Iyer', 'Reddy', 'Nair', 'Gupta', 'Chatterjee', 'Venkataraman'],
    countries: ['IN', 'IN', 'US', 'GB'],
  },
  {
    weight: 6,
    first: ['Wei', 'Xiu Ying', 'Hao', 'Mei', 'Jun', 'Yuki', 'Haruto', 'Min-jun', 'Seo-yeon', 'Thảo'],
    last: ['Wang', 'Li', 'Zhang', 'Chen', 'Liu', 'Tanaka', 'Sato', 'Kim', 'Park', 'Nguyễn'],
    countries: ['US', 'CA', 'AU', 'JP', 'GB'],
  },
  {
    weight: 4,
    first: ['Omar', 'Layla', 'Youssef', 'Fatima', 'Karim', 'Nour'],
    last: ['Al-Amin', 'El-Sayed', 'Haddad', 'Khoury', 'Al-Rashid', 'Mansour'],
    countries: ['FR', 'GB', 'DE', 'US'],
  },
  {
    weight: 3,
    first: ['Chidi', 'Ngozi', 'Tunde', 'Adaeze', 'Kwame', 'Ama'],
    last: ['Okafor', 'Adeyemi', 'Mensah', 'Okonkwo', 'Boateng', 'Eze'],
    countries: ['GB', 'US'],
  },
  {
    weight: 3,
    first: ['João', 'Ana', 'Gonçalo', 'Beatriz', 'Thiago', 'Letícia'],
    last: ['Silva', 'Santos', 'Conceição', 'Araújo', 'Gonçalves', 'Magalhães'],
    countries: ['BR', 'BR', 'US'],
  },
];

// Letters that NFD does not split into base + mark.
const SPECIAL: Record<string, string> = { ß: 'ss', ø: 'o', Ø: 'o', ł: 'l', Ł: 'l', æ: 'ae', Æ: 'ae', đ: 'd', Đ: 'd', œ: 'oe' };

/** Name to an email-safe slug: lower case ASCII letters and hyphens. */
export function slug(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[ßøØłŁæÆđĐœ]/g, (c) => SPECIAL[c])
    .toLowerCase()
    .replace(/[^a-z-]/g, '');
}

interface PreparedCulture {
  first: [string, string][];
  last: [string, string][];
  countries: string[];
}

const PREPARED: PreparedCulture[] = CULTURES.map((c) => ({
  first: c.first.map((n) => [n, slug(n)]),
  last: c.last.map((n) => [n, slug(n)]),
  countries: c.countries,
}));
const CULTURE_PICK = weightedTable(CULTURES.map((c) => c.weight));

// ----------------------------------------------------------------- domains

const DEFAULT_DOMAINS: [string, number][] = [
  ['gmail.com', 300],
  ['outlook.com', 130],
  ['yahoo.com', 90],
  ['hotmail.com', 60],
  ['icloud.com', 50],
  ['proton.me', 15],
  ['gmx.de', 20],
  ['web.de', 12],
  ['orange.fr', 12],
  ['libero.it', 8],
  ['northwind-logistics.example', 40],
  ['contoso-health.example', 35],
  ['fabrikam.example', 30],
  ['tailspin-retail.example', 25],
  // Rare ones: a handful of people each in a large run.
  ['posteo.de', 2],
  ['laposte.net', 2],
  ['seznam.cz', 1],
  ['fastmail.fm', 2],
  ['hey.com', 1],
  ['zoho.com', 1],
  ['mail.uni-example.edu', 1],
  ['tuta.io', 1],
];
const DOMAIN_PICK = weightedTable(DEFAULT_DOMAINS.map(([, w]) => w));

// ------------------------------------------------------------------ phones

const d = (rng: () => number, n: number) => {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(rng() * 10);
  return s;
};
const pick = <T>(rng: () => number, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)];

// Mobile (or common landline) ranges that libphonenumber accepts as valid.
const PHONE: Record<string, (rng: () => number) => string> = {
  US: (r) => `+1${pick(r, ['212', '312', '415', '617', '206', '404', '512', '720', '303', '646'])}${2 + Math.floor(r() * 8)}${d(r, 2)}${d(r, 4)}`,
  CA: (r) => `+1${pick(r, ['416', '604', '514', '403', '613'])}${2 + Math.floor(r() * 8)}${d(r, 2)}${d(r, 4)}`,
  GB: (r) => `+447${pick(r, ['4', '5', '8'])}${d(r, 8)}`,
  IE: (r) => `+3538${pick(r, ['3', '5', '6', '7', '9'])}${d(r, 7)}`,
  DE: (r) => `+49${pick(r, ['151', '152', '157', '176'])}${d(r, 8)}`,
  AT: (r) => `+43${pick(r, ['650', '660', '664', '676', '699'])}${d(r, 7)}`,
  CH: (r) => `+41${pick(r, ['76', '77', '78', '79'])}${d(r, 7)}`,
  FR: (r) => `+33${pick(r, ['61', '62', '64', '65', '66', '67', '68', '75', '76', '77', '78'])}${d(r, 7)}`,
  BE: (r) => `+324${pick(r, ['7', '8', '9'])}${d(r, 7)}`,
  ES: (r) => `+346${d(r, 8)}`,
  IT: (r) => `+393${pick(r, ['2', '3', '4', '8', '9'])}${d(r, 8)}`,
  NL: (r) => `+316${1 + Math.floor(r() * 5)}${d(r, 7)}`,
  AU: (r) => `+614${pick(r, ['0', '1', '2', '3'])}${d(r, 7)}`,
  IN: (r) => `+91${pick(r, ['7', '8', '9'])}${d(r, 9)}`,
  MX: (r) => `+52${pick(r, ['55', '33', '81'])}${d(r, 8)}`,
  BR: (r) => `+55${pick(r, ['11', '21', '31'])}9${6 + Math.floor(r() * 4)}${d(r, 7)}`,
  JP: (r) => `+81${pick(r, ['70', '80', '90'])}${1 + Math.floor(r() * 9)}${d(r, 7)}`,
};

// -------------------------------------------------------------- grouping ids

const CUSTOM_ID_GROUPS: string[] = [
  ...Array.from({ length: 12 }, (_, i) => `REQ-2026-${String(101 + i * 7).padStart(4, '0')}`),
  'cohort-spring-2026',
  'cohort-summer-2026',
  'grad-scheme',
  'warehouse-east',
  'warehouse-west',
  'store-0042',
  'store-0117',
  'call-centre-lisbon',
  'nursing-intake-q2',
  'sales-academy',
];

// ---------------------------------------------------------------- helpers

/** Cumulative table for O(log n) weighted picks with a uniform number. */
function weightedTable(weights: number[]): (u: number) => number {
  const cum: number[] = [];
  let total = 0;
  for (const w of weights) {
    total += w;
    cum.push(total);
  }
  return (u) => {
    const x = u * total;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (x < cum[mid]) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}

// ---------------------------------------------------------------- generator

/** Person number `index` of the run named by `seed`. */
export function personAt(index: number, seedHash: number, domains?: readonly string[]): GeneratedPerson {
  const rng = mulberry32((seedHash ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
  const culture = PREPARED[CULTURE_PICK(rng())];
  const [first_name, fs] = pick(rng, culture.first);
  const [last_name, ls] = pick(rng, culture.last);
  const n = index + 1;
  let local: string;
  switch (Math.floor(rng() * 5)) {
    case 0:
      local = `${fs}.${ls}${n}`;
      break;
    case 1:
      local = `${fs[0]}${ls}${n}`;
      break;
    case 2:
      local = `${fs}_${ls}.${n}`;
      break;
    case 3:
      local = `${ls}.${fs}${n}`;
      break;
    default:
      local = `${fs}${ls[0]}${n}`;
  }
  const domain = domains && domains.length > 0 ? pick(rng, domains) : DEFAULT_DOMAINS[DOMAIN_PICK(rng())][0];
  const phone = rng() < 0.3 ? null : PHONE[pick(rng, culture.countries)](rng);
  const custom_id = rng() < 0.45 ? null : pick(rng, CUSTOM_ID_GROUPS);
  const pr = rng();
  const person_id = pr < 0.4 ? null : pr < 0.8 ? `P${String(n).padStart(7, '0')}` : `ats-${n.toString(36)}`;
  return { first_name, last_name, email: `${local}@${domain}`, phone, custom_id, person_id };
}

export function generatePeople(count: number, opts: GeneratePeopleOptions): GeneratedPerson[] {
  const seedHash = hashString(String(opts.seed));
  const start = opts.startIndex ?? 0;
  const out: GeneratedPerson[] = new Array(count);
  for (let i = 0; i < count; i++) out[i] = personAt(start + i, seedHash, opts.domains);
  return out;
}
