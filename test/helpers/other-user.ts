/**
 * Files planted by another user (a shared folder like /tmp): the tests chown
 * a file to `nobody`, which needs root and that user, as CI has. Elsewhere
 * (not root, no `nobody`, Windows) those tests are skipped, saying why.
 */
import { spawnSync } from 'node:child_process';
import { chownSync } from 'node:fs';
import { it } from 'vitest';
import { skipBecause } from './skip.js';

const ROOT_USER = process.getuid?.() === 0;

/** nobody's uid and gid on this machine, when there is such a user. */
export const NOBODY: { uid: number; gid: number } | undefined = (() => {
  if (!ROOT_USER) return undefined;
  const r = spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', 'nobody'], { encoding: 'utf8' });
  return r.status === 0 && g.status === 0 ? { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) } : undefined;
})();

/** `it` for a test that plants a file as another user; `it.skip` (with the reason printed once) where that cannot be done. */
export const asRoot = skipBecause(!ROOT_USER ? 'the planted-by-another-user cases need root (CI runs them)' : !NOBODY && 'the planted-by-another-user cases need a user nobody (CI has one)') ? it.skip : it;

/** Makes `path` nobody's, as if another user had planted it. Only inside an `asRoot` test. */
export function plantAsOtherUser(path: string): void {
  chownSync(path, NOBODY!.uid, NOBODY!.gid);
}
