/**
 * Whether a file we read trusted settings or people's data from (the config,
 * the stub's database) is safe to use. One rule per platform (docs/security.md,
 * "Files jobfit trusts"):
 *
 * - POSIX (Linux, macOS): the file belongs to the running user and nobody else
 *   may write it; so does every folder above it, up to `/`, lexically and
 *   after links are followed (whoever can rename a folder on the way can put
 *   another file in its place). A folder others may write is allowed only when
 *   it is sticky and belongs to the user or root (as `/tmp` is: others can add
 *   entries but not rename or remove ours); a sticky folder of another user is
 *   not (its owner can remove anything in it).
 * - Windows: no check. File modes there say only whether the read-only
 *   attribute is set (every writable file reads 0o666) and there are no uids;
 *   what protects the files is the ACL of the user's profile folder
 *   (%APPDATA%, %LOCALAPPDATA%: the user, SYSTEM and Administrators).
 */
import { realpathSync, type Stats, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const who = (m: number) => (m & 0o002 ? 'anyone on this machine' : 'its group');

/** Every folder above `path`, nearest first: lexically, then those reached after links are followed. */
function foldersAbove(path: string): string[] {
  const out: string[] = [];
  const add = (start: string) => {
    for (let d = dirname(start); ; d = dirname(d)) {
      if (!out.includes(d)) out.push(d);
      if (dirname(d) === d) break;
    }
  };
  const abs = resolve(path);
  add(abs);
  try {
    add(realpathSync(abs));
  } catch {
    // gone meanwhile: the lexical folders are judged
  }
  return out;
}

const statOf = (p: string): Stats | undefined => {
  try {
    return statSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
};

function fileProblem(st: Stats, path: string, what: string, uid: number | undefined): string | undefined {
  const fixMode = st.isDirectory() ? '700' : '600';
  if (uid !== undefined && st.uid !== uid) {
    return `${what} ${path} belongs to another user (uid ${st.uid}), who could change it: it is not used. Remove it (or, if it is yours, run \`chown ${uid} ${path}\`), or ELSEWHERE.`;
  }
  if ((st.mode & 0o022) !== 0) {
    return `${what} ${path} can be changed by ${who(st.mode)} (mode ${(st.mode & 0o777).toString(8)}): it is not used. Run \`chmod ${fixMode} ${path}\`.`;
  }
  return undefined;
}

function folderProblem(d: Stats, dir: string, nearest: boolean, what: string, uid: number | undefined): string | undefined {
  const name = nearest ? `The folder ${dir} of ${what.toLowerCase()}` : `The folder ${dir}, above ${what.toLowerCase()},`;
  const ownedOk = uid === undefined || d.uid === uid || d.uid === 0;
  if (!ownedOk) return `${name} belongs to another user (uid ${d.uid}), who could replace it: it is not used. ELSEWHERE_CAPITAL.`;
  const sticky = (d.mode & 0o1000) !== 0;
  if ((d.mode & 0o022) !== 0 && !sticky) {
    const fix = nearest ? `Run \`chmod 700 ${dir}\`.` : 'ELSEWHERE_CAPITAL.';
    return `${name} can be changed by ${who(d.mode)} (mode ${(d.mode & 0o777).toString(8)}), so it could be replaced: it is not used. ${fix}`;
  }
  return undefined;
}

/**
 * Why a file (or folder) we read trusted settings or people's data from is not
 * safe to use, or undefined (see the rule above). One sentence with the path
 * and the fix. `platform` and `uid` are the running system's unless a test
 * names them.
 */
export function trustProblem(
  path: string,
  what: string,
  elsewhere = 'set JOBFIT_CONFIG_DIR to a folder of yours',
  system: { platform?: NodeJS.Platform; uid?: number } = {},
): string | undefined {
  const platform = system.platform ?? process.platform;
  if (platform === 'win32') return undefined;
  const uid = 'uid' in system ? system.uid : process.getuid?.();
  const st = statOf(path);
  if (!st) return undefined;
  const fill = (s: string | undefined) => s?.replace('ELSEWHERE_CAPITAL', capital(elsewhere)).replace('ELSEWHERE', elsewhere);
  const own = fileProblem(st, path, what, uid);
  if (own) return fill(own);
  const nearest = dirname(resolve(path));
  for (const dir of foldersAbove(path)) {
    const d = statOf(dir);
    if (!d) continue;
    const problem = folderProblem(d, dir, dir === nearest, what, uid);
    if (problem) return fill(problem);
  }
  return undefined;
}
