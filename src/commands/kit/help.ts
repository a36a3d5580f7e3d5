/** The "Examples:" block every command's --help ends with. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => (l.startsWith('#') ? `  ${l}` : `  $ ${l}`)).join('\n')}\n`;
}
