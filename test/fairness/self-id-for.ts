/**
 * A self-identification file for everyone a stub has invited: one row per
 * invited email, sex alternating Male/Female. For the fairness tests that
 * seed their own stub.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';

export async function selfIdFileFor(env: Record<string, string>, dir: string): Promise<string> {
  const listed = JSON.parse((await runCli(['invitations', 'list', '--all', '-o', 'json'], { env })).stdout);
  const emails = ((Array.isArray(listed) ? listed : listed.data) as Array<{ email: string }>).map((i) => i.email);
  const file = join(dir, 'self-id.csv');
  writeFileSync(file, `email,sex\n${emails.map((e, i) => `${e},${i % 2 ? 'Female' : 'Male'}`).join('\n')}\n`);
  return file;
}
