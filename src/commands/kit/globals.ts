/**
 * The options every command takes, declared once: cli/main.ts puts them on
 * the root program, and `jobfit completion` offers them everywhere.
 */
import { Option } from 'commander';

export function globalOptions(): Option[] {
  return [
    new Option('-p, --profile <name>', 'config profile to use (env JOBFIT_PROFILE)'),
    new Option('--live', 'use the profile\'s live key').conflicts('test'),
    new Option('--test', 'use the profile\'s test key').conflicts('live'),
    new Option('--base-url <url>', 'API base URL, e.g. https://host/v2 (env JOBFIT_BASE_URL)'),
    new Option('-o, --output <format>', 'output format (default: table on a terminal, json otherwise)').choices(['table', 'json', 'ndjson', 'csv', 'xlsx', 'html']),
    new Option('--fields <a,b,c>', 'only these fields (dotted names for nested ones)'),
    new Option('--no-color', 'no colour (also NO_COLOR)'),
    new Option('-q, --quiet', 'no notices on stderr'),
    new Option('-v, --verbose', 'trace HTTP requests on stderr (keys masked) and show stack traces'),
  ];
}
