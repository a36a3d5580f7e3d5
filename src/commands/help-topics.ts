/**
 * The help topics (`jobfit help exit-codes`, `jobfit help environment`, ...):
 * plain strings, loaded only when `jobfit help <topic>` runs (and by
 * `completion`, which offers their names).
 */
import { EXIT_CODES_HELP } from '../core/errors.js';
import { ERROR_JSON_HELP } from '../core/error-code.js';

const ENVIRONMENT_HELP = `Environment variables:
  JOBFIT_PROFILE     profile to use (like --profile; --profile wins)
  JOBFIT_API_KEY     API key (sk_live_… or sk_test_…); wins over the profile's key,
                     not over --profile. Keys are never accepted as a flag.
  JOBFIT_BASE_URL    API base URL including /v2 (like --base-url; the flag wins)
  JOBFIT_CONFIG_DIR  directory of config.json (and of the embedded stub's data)
  JOBFIT_NO_PROMPT   never prompt, even on a terminal (also CI)
  JOBFIT_WEBHOOK_SECRET
                     signing secret for \`jobfit webhook verify\` (instead of --secret)
  JOBFIT_TIMEOUT     seconds to wait for an answer, and between two chunks of it
                     (default 30)
  JOBFIT_MAX_RETRIES retries of a failed request, waits on 429 included (default 3)
  JOBFIT_BREAKER_SECONDS
                     seconds of failing requests after which a command gives up
                     on an unreachable service (default 15; 0: never give up)
  JOBFIT_STUB_WEBHOOK_RETRY, JOBFIT_STUB_WEBHOOK_TIMEOUT_MS
                     the embedded stub's webhook retry waits (like \`stub webhooks
                     --retry-schedule\`) and its per-attempt timeout, for tests
  JOBFIT_SQLITE      better-sqlite3: the embedded stub and \`sync\` use it instead of
                     node's built-in SQLite (which they use on Node 24 and later)
  JOBFIT_BROWSER, BROWSER
                     the program --web and --open hand a URL to (default: open on
                     macOS, explorer.exe on Windows, xdg-open with a display)
  NO_COLOR           no colour (also --no-color); FORCE_COLOR forces it
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY
                     proxy for requests (never used for loopback addresses)

Resolution of the server and key: flag > environment > profile.
With no service configured (no profile with a base URL or a key) and no
JOBFIT_API_KEY, commands run against the embedded stub.`;

const OUTPUT_HELP = `Output:
  -o table   columns for people; the default when stdout is a terminal. At the
             terminal's width no header is cut and names and emails stay whole:
             the lowest-value columns are left out first, and stderr names them
             (see them with --fields, or every column with -o csv). Piped, a
             table keeps every column and full values.
  -o json    the API's object as received (lists keep the API's envelope:
             { mode, object, total_count, has_more, data }); the default when piped
  -o ndjson  one JSON object per line (each item of a list)
  -o csv     a header and one row per item; nested fields flattened to dotted
             names (team.display_name); cells a spreadsheet would run as a
             formula are neutralised
  -o xlsx    an Excel workbook, one sheet: bold frozen header, filter, numbers
             as numbers, timestamps as dates (UTC), URLs as links, no formula
             ever; with --out FILE or into a pipe (refused to a terminal)
  -o html    a self-contained page for a person (report, job-fit): no script,
             nothing fetched; with --out FILE (add --open to open it)
  --fields a,b.c   only these fields (dotted names for nested ones), from the
             fixed list of the command's output; an unknown name is a usage
             error listing the valid ones, before any request

stdout carries only data. Notices, warnings, progress, prompts and the mode line
go to stderr. A list cut by the service's cap (has_more) is announced on stderr
even with -q; use --all (invitations, test-takers, profiles) for every item.

The mode line, e.g. "[test mode] profile default · http://127.0.0.1:4010/v2 · sk_test_…a1b2",
is written to stderr before a command talks to the service, when stderr is a
terminal or with -v; -q turns it off. It is never written to stdout.`;

const MODES_HELP = `Live and test mode:
  A profile holds a live key (sk_live_…) and a test key (sk_test_…). --live and
  --test pick one; otherwise the profile's default_mode, else the live key.
  The mode comes from the key's prefix. A test key gets well-formed fake answers
  and stores nothing; a live key reads and writes real records.
  A live key is never sent over plain http:// to a host other than this machine.

  jobfit whoami           which account, mode, base URL and key (masked) are in use
  jobfit --test teams     the same command with the test key`;

export const HELP_TOPICS: Record<string, { summary: string; text: string }> = {
  'exit-codes': { summary: 'what each exit code means', text: `${EXIT_CODES_HELP}\n\n${ERROR_JSON_HELP}` },
  environment: { summary: 'environment variables and how the server and key are chosen', text: ENVIRONMENT_HELP },
  output: { summary: 'output formats, --fields, stdout and stderr', text: OUTPUT_HELP },
  modes: { summary: 'live and test keys, --live/--test', text: MODES_HELP },
};

export const HELP_TOPIC_NAMES = Object.keys(HELP_TOPICS);
