/**
 * `--team`, `--template` and `--congrats-template` take a name or an id,
 * everywhere the same way as `invite` does (src/bulk/account.ts): an id is
 * passed on as typed (the service checks it), a name is looked up in the
 * account, case-insensitively, and a name that matches none or several is a
 * usage error with the closest name or the ids to choose from.
 */
import * as z from 'zod';
import type { JobfitClient } from '../../client/client.js';
import { UsageError } from '../../core/errors.js';
import { askAgain } from '../../listing/ask-again.js';

/** The option as typed: a name or an id. */
export const nameOrId = (flag: string) => z.string().trim().min(1, `${flag} needs a name or an id`);

export type NamedKind = 'team' | 'template' | 'congrats-template';

const FLAG: Record<NamedKind, string> = { team: '--team', template: '--template', 'congrats-template': '--congrats-template' };

export async function idOfName(client: JobfitClient, kind: NamedKind, raw: string | undefined): Promise<number | undefined> {
  if (raw === undefined) return undefined;
  const s = raw.trim();
  if (/^\d+$/.test(s)) {
    const n = Number(s);
    if (n > 0 && Number.isSafeInteger(n)) return n;
    throw new UsageError(`${FLAG[kind]} must be a positive id or a name, got "${raw}".`);
  }
  const { loadAccountData, resolveTeam, resolveTemplate, closestName } = await import('../../bulk/account.js');
  if (kind === 'congrats-template') {
    const templates = ((await client.listEmailTemplates()) as { data: Array<{ id: number; display_name: string; template_type?: string }> }).data.filter(
      (t) => t.template_type === 'congrats',
    );
    const found = templates.filter((t) => t.display_name.trim().toLowerCase() === s.toLowerCase());
    if (found.length === 1) return found[0].id;
    if (found.length > 1) throw new UsageError(`Several congratulations templates are named "${s}"; use the id (${found.map((t) => t.id).join(' or ')}).`);
    const near = closestName(s, templates.map((t) => t.display_name.trim().toLowerCase()));
    const hint = near ? ` (did you mean "${templates.find((t) => t.display_name.trim().toLowerCase() === near)!.display_name}"?)` : '';
    throw new UsageError(`No congratulations email template named "${s}" in the account${hint}.`, 'see `jobfit templates` for names and ids');
  }
  const account = await loadAccountData(client);
  const r = kind === 'team' ? resolveTeam(account, s) : resolveTemplate(account, s);
  if (!r.ok) throw new UsageError(`${r.reason}.`, kind === 'team' ? 'see `jobfit teams` for names and ids' : 'see `jobfit templates` for names and ids');
  return r.value;
}

/**
 * `--team` at the start of a long export (scorecard, job-fit, report): the
 * team list is read like every other read of the export (listing/ask-again.ts),
 * asked again after a transient failure that outlasted the client's retries,
 * so a dropped connection does not end a run of thousands of ids before it
 * starts. A name that matches no team is still refused at once.
 */
export function teamOfExport(client: JobfitClient, raw: string | undefined, signal?: AbortSignal): Promise<number | undefined> {
  return askAgain(() => idOfName(client, 'team', raw), { signal });
}
