/**
 * A test that cannot run here is skipped with its reason printed, never in
 * silence (issue 30): `describe.skipIf(skipBecause(!tool && 'tool is missing'))(…)`.
 * Where CI provides the tool, the test asks for it there instead (keyring, pg).
 */
export function skipBecause(reason: string | false | undefined | null): boolean {
  if (reason) console.log(`Skipped: ${reason}.`);
  return Boolean(reason);
}
