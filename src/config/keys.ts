/**
 * The settable config keys, each with a parser. Unknown keys are refused with
 * the list of valid ones, so a typo never silently writes a setting nobody reads.
 */
import { UsageError } from '../core/errors.js';
import type { KeyMode } from './types.js';

export interface KeySpec {
  /** Dotted name as typed on the command line. */
  name: string;
  description: string;
  /** Where it lives: top-level or inside the profile. */
  scope: 'global' | 'profile';
  secret?: boolean;
  parse(value: string): unknown;
}

function positiveInt(name: string) {
  return (v: string): number => {
    const n = Number(v.trim());
    if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${name} must be a positive integer, got "${v}".`);
    return n;
  };
}

function keyWithPrefix(name: string, prefix: string) {
  return (v: string): string => {
    const s = v.trim();
    if (!s.startsWith(prefix)) throw new UsageError(`${name} must start with ${prefix}.`);
    return s;
  };
}

export const CONFIG_KEYS: readonly KeySpec[] = [
  {
    name: 'current_profile',
    description: 'profile used when --profile and JOBFIT_PROFILE are not given',
    scope: 'global',
    parse: (v) => {
      const s = v.trim();
      if (!s) throw new UsageError('current_profile must not be empty.');
      return s;
    },
  },
  {
    name: 'base_url',
    description: 'API base URL including /v2, e.g. https://api.example.com/v2',
    scope: 'profile',
    parse: (v) => normalizeBaseUrl(v),
  },
  { name: 'live_key', description: 'live API key (sk_live_…)', scope: 'profile', secret: true, parse: keyWithPrefix('live_key', 'sk_live') },
  { name: 'test_key', description: 'test API key (sk_test_…)', scope: 'profile', secret: true, parse: keyWithPrefix('test_key', 'sk_test') },
  {
    name: 'default_mode',
    description: 'live or test: the key used without --live/--test',
    scope: 'profile',
    parse: (v): KeyMode => {
      const s = v.trim().toLowerCase();
      if (s !== 'live' && s !== 'test') throw new UsageError(`default_mode must be live or test, got "${v}".`);
      return s;
    },
  },
  {
    name: 'invite_defaults.created_by',
    description: 'inviter email (created_by_user_email) for `jobfit invite`',
    scope: 'profile',
    parse: (v) => {
      const s = v.trim();
      if (!/^[^@\s]+@[^@\s]+$/.test(s)) throw new UsageError(`invite_defaults.created_by must be an email address, got "${v}".`);
      return s;
    },
  },
  { name: 'invite_defaults.team_id', description: 'team id for new invitations', scope: 'profile', parse: positiveInt('invite_defaults.team_id') },
  {
    name: 'invite_defaults.assessments',
    description: 'comma-separated test ids, e.g. 6,8',
    scope: 'profile',
    parse: (v) => {
      const parts = v.split(',').map((p) => p.trim()).filter(Boolean);
      if (parts.length === 0) throw new UsageError('invite_defaults.assessments needs at least one test id, e.g. 6,8.');
      return parts.map(positiveInt('invite_defaults.assessments'));
    },
  },
  {
    name: 'invite_defaults.email_template_id',
    description: 'invitation email template id',
    scope: 'profile',
    parse: positiveInt('invite_defaults.email_template_id'),
  },
  {
    name: 'invite_defaults.send_via',
    description: 'email, sms, both or none',
    scope: 'profile',
    parse: (v) => {
      const s = v.trim().toLowerCase();
      if (!['email', 'sms', 'both', 'none'].includes(s)) throw new UsageError(`invite_defaults.send_via must be email, sms, both or none, got "${v}".`);
      return s;
    },
  },
];

export const CONFIG_KEY_NAMES: readonly string[] = CONFIG_KEYS.map((k) => k.name);

/** The "Keys:" block of `jobfit config --help`. */
export function keysHelp(): string {
  return `\nKeys:\n${CONFIG_KEYS.map((k) => `  ${k.name.padEnd(34)} ${k.description}${k.scope === 'global' ? ' (not per profile)' : ''}`).join('\n')}\n`;
}

export function keySpec(name: string): KeySpec {
  const spec = CONFIG_KEYS.find((k) => k.name === name);
  if (!spec) {
    throw new UsageError(`Unknown config key "${name}".`, `valid keys: ${CONFIG_KEY_NAMES.join(', ')}`);
  }
  return spec;
}

/** Trims, checks the scheme, drops a trailing slash. */
export function normalizeBaseUrl(value: string): string {
  const s = value.trim();
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    throw new UsageError(`"${value}" is not a valid URL.`, 'a base URL looks like https://api.example.com/v2');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`The base URL must use http:// or https://, got "${value}".`);
  }
  if (url.search || url.hash) throw new UsageError(`The base URL must not have a query or fragment, got "${value}".`);
  return s.replace(/\/+$/, '');
}
