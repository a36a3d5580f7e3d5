/**
 * `jobfit mcp`: the MCP server (the official SDK) on the command's own
 * connection (flag > env > profile; the embedded stub with no configuration),
 * with the tools the selection names, derived from their commands.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Context } from '../commands/kit/context.js';
import { VERSION } from '../cli/version.js';
import { callTool } from './call.js';
import type { Target } from './guard.js';
import { Pager, type Bounds } from './pages.js';
import { selectTools, type Selection } from './select.js';
import { DATA_NOTE, deriveTool, type Tool } from './tools.js';

export interface ServeOptions extends Selection {
  bounds: Bounds;
  /** How long a live write waits for the person's answer. */
  confirmMs: number;
}

/** Where the tools read and write, resolved once (the mode line of a command, for the server). */
export async function targetOf(base: Context): Promise<Target> {
  const client = await base.client({ announce: false });
  const c = base.connection!;
  let account = c.account ?? 'unknown';
  if (!c.embedded) {
    try {
      const a = (await client.getAccount()) as { id?: unknown; display_name?: unknown };
      account = `${String(a.display_name)} (${String(a.id)})`;
    } catch {
      // Said as unknown; each tool call says what fails.
    }
  }
  const mode = c.mode ?? 'live';
  return { live: mode === 'live' && !c.embedded, mode, account, baseUrl: c.embedded ? 'the embedded local stub (in this process)' : c.baseUrl, embedded: c.embedded };
}

export function instructionsOf(t: Target, tools: readonly Tool[]): string {
  const where = t.embedded
    ? 'No service is configured: the tools answer from the EMBEDDED LOCAL STUB, a sandbox with made-up people on this machine (nothing reaches a real person). Run `jobfit login` to use the real service.'
    : `The tools use the service at ${t.baseUrl}, account ${t.account}, in ${t.mode} mode.`;
  const writes = tools.some((x) => x.spec.write)
    ? t.live
      ? 'Write tools are served: in live mode each write first asks the person (an elicitation showing what will be sent); only an accepted answer sends.'
      : 'Write tools are served and run directly here (embedded stub or test key: no real email or SMS is sent).'
    : 'Read-only: no tool writes.';
  return [
    `jobfit ${VERSION}: the Assessment and Job-Fit Service. ${where}`,
    writes,
    'Each tool answers exactly what its jobfit command prints with -o json. A long list comes as a first page and next_cursor; `out` writes the whole answer to a new file instead.',
    'Errors carry {code, message, hint, status}; codes: not_found, usage, auth, mode_mismatch, rate_limited, service_unavailable, partial, declined.',
    DATA_NOTE,
  ].join('\n');
}

/** The server with its tools, not yet connected. */
export async function buildServer(base: Context, opts: ServeOptions): Promise<{ server: McpServer; tools: Tool[]; target: Target }> {
  const specs = selectTools(opts);
  const tools = await Promise.all(specs.map((s) => deriveTool(s)));
  const target = await targetOf(base);
  const server = new McpServer({ name: 'jobfit', version: VERSION }, { instructions: instructionsOf(target, tools), capabilities: { tools: {} } });
  const pager = new Pager(opts.bounds);
  const deps = { base, server: server.server, pager, target: async () => target, confirmMs: opts.confirmMs };
  for (const tool of tools) {
    server.registerTool(
      tool.spec.name,
      { title: tool.spec.title, description: tool.description, inputSchema: tool.input, outputSchema: tool.output, annotations: tool.annotations },
      (input: Record<string, unknown>, extra: { signal: AbortSignal }) => callTool(tool, input, deps, extra.signal),
    );
  }
  return { server, tools, target };
}

/** Serves MCP over stdin and stdout until the client closes the stream (or Ctrl-C). */
export async function serveStdio(base: Context, opts: ServeOptions): Promise<void> {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { server, tools } = await buildServer(base, opts);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    base.io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.connect(transport);
  base.info(`jobfit mcp: serving ${tools.length} tools over stdio (${tools.map((t) => t.spec.name).join(', ')}).`);
  await closed;
  await server.close();
}
