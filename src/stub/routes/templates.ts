/** GET /email-templates: the account's email templates with the teams they are assigned to. */
import type { EmailTemplate } from '../../api/schemas.js';
import type { Reply } from '../http/reply.js';
import { type Call, list } from './call.js';

export function listEmailTemplates(c: Call): Reply {
  const rows = c.store.all<{ id: number; display_name: string; template_type: 'invitation' | 'congrats' }>(
    'SELECT id, display_name, template_type FROM templates WHERE account_id = ? ORDER BY id',
    c.auth.accountId,
  );
  const data: EmailTemplate[] = rows.map((t) => ({
    object: 'email_template',
    id: t.id,
    display_name: t.display_name,
    template_type: t.template_type,
    teams: c.store.all<{ id: number; display_name: string }>(
      'SELECT t.id, t.display_name FROM template_teams tt JOIN teams t ON t.id = tt.team_id WHERE tt.template_id = ? ORDER BY t.id',
      t.id,
    ),
  }));
  return list(c, data);
}
