/** The records of NDJSON output (blank lines skipped). */
export const ndjsonLines = (out: string): Record<string, unknown>[] =>
  out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
