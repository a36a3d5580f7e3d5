/**
 * jobfit mcp: serves the commands as MCP tools over stdio, for AI assistants
 * (src/mcp/). Read-only unless --allow-writes; live writes are confirmed by
 * the person. The MCP SDK is loaded here only, never by another command.
 */
import * as z from 'zod';
import { UsageError } from '../../core/errors.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { flag } from '../kit/flags.js';

const list = () =>
  z
    .string()
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
    .optional();
const count = (what: string) => z.coerce.number({ error: `must be a number of ${what}` }).int().min(1, `must be at least 1 ${what.replace(/s$/, '')}`);

const McpOptions = z.object({
  allowWrites: flag(z.boolean().default(false), { flag: '--allow-writes', description: 'also serve the write tools (invite, invite_csv, invitations_update); in live mode each write asks the person first' }),
  readOnly: flag(z.boolean().default(false), { flag: '--read-only', description: 'no write tool, whatever else is given' }),
  toolsets: flag(list(), { flag: '--toolsets <a,b>', description: 'serve these toolsets (default: context, invitations, test_takers, profiles, results, catalog; all: every one)' }),
  tools: flag(list(), { flag: '--tools <x,y>', description: 'serve these tools (with --toolsets: both)' }),
  listTools: flag(z.boolean().default(false), { flag: '--list-tools', description: 'print the tools that would be served and their size in tokens, then exit' }),
  maxItems: flag(count('items').default(50), { flag: '--max-items <n>', description: 'a longer list comes as pages of this many, with a cursor (default 50)' }),
  maxKb: flag(count('KB').default(100), { flag: '--max-kb <n>', description: 'a larger answer comes in pages of at most this size (default 100)' }),
  confirmSeconds: flag(count('seconds').default(300), { flag: '--confirm-seconds <n>', description: 'how long a live write waits for the person to confirm (default 300)' }),
});
type McpOptions = z.output<typeof McpOptions>;

async function run(o: McpOptions, ctx: Context): Promise<void> {
  if (!o.listTools && ctx.globals.output !== undefined) throw new UsageError('jobfit mcp speaks MCP on stdout: -o applies only with --list-tools.');
  const opts = { ...o, bounds: { maxItems: o.maxItems, maxBytes: o.maxKb * 1024 }, confirmMs: o.confirmSeconds * 1000 };
  if (o.listTools) return (await import('../../mcp/list.js')).printTools(ctx, opts);
  if (ctx.io.stdoutIsTTY) ctx.info('jobfit mcp speaks MCP on stdin/stdout: an assistant starts it (see docs/mcp.md); Ctrl-C stops it.');
  await (await import('../../mcp/server.js')).serveStdio(ctx, opts);
}

export default defineCommand({
  description: 'Serve jobfit to AI assistants: MCP over stdio, read-only by default, with the embedded stub as a sandbox',
  options: McpOptions,
  helpAfter: `
Tools are the commands themselves: each answers what its command prints with
-o json, on the same profile, key and mode. Writes exist only with
--allow-writes; against the embedded stub or a test key they run directly, in
live mode the person confirms each one (MCP elicitation) or nothing is sent.
Configuration for Claude Desktop, VS Code and Cursor: docs/mcp.md.
`,
  examples: ['jobfit mcp --list-tools', 'jobfit mcp', 'jobfit --test mcp --allow-writes', 'jobfit mcp --toolsets test_takers,results --max-items 100'],
  run,
});
