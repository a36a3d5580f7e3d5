/**
 * An MCP server of jobfit in this process (src/mcp/server.ts) on the embedded
 * stub of a throw-away config directory, and the SDK's own Client talking to
 * it over the SDK's in-memory transport; runCli runs the commands on the same
 * directory, so a tool and its command read the same stub.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type CallToolResult, ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { createContext } from '../../src/cli/create-context.js';
import { buildServer, type ServeOptions } from '../../src/mcp/server.js';
import { runCli, type RunResult } from '../helpers/cli.js';
import { memoryIO } from '../helpers/io.js';

export interface Harness {
  client: Client;
  configDir: string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  cli(argv: string[]): Promise<RunResult>;
  close(): Promise<void>;
}

export const DEFAULTS: ServeOptions = { allowWrites: false, readOnly: false, bounds: { maxItems: 50, maxBytes: 100 * 1024 }, confirmMs: 5000 };

export interface HarnessOptions {
  /** The server's environment beside its config directory (JOBFIT_BASE_URL, JOBFIT_API_KEY). */
  env?: Record<string, string>;
  /** The person's answers to elicitations; absent: a client that cannot ask. */
  elicit?: (message: string) => ElicitResult | Promise<ElicitResult>;
}

export async function inProcess(opts: Partial<ServeOptions> = {}, h: HarnessOptions = {}): Promise<Harness> {
  const configDir = mkdtempSync(join(tmpdir(), 'jobfit-mcp-'));
  const env = { JOBFIT_CONFIG_DIR: configDir, ...h.env };
  const base = createContext(memoryIO({ env }).io, { color: false, quiet: true, verbose: false });
  const { server } = await buildServer(base, { ...DEFAULTS, ...opts });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'jobfit-test', version: '1' }, { capabilities: h.elicit ? { elicitation: { form: {} } } : {} });
  if (h.elicit) {
    const answer = h.elicit;
    client.setRequestHandler(ElicitRequestSchema, async (req) => answer(req.params.message));
  }
  await Promise.all([server.connect(a), client.connect(b)]);
  return {
    client,
    configDir,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    cli: (argv) => runCli(argv, { configDir, env }),
    async close() {
      await client.close();
      await server.close();
      await base.close();
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}

/** Every page of a tool's answer, following next_cursor: the items, in order. */
export async function allPages(h: Harness, name: string, args: Record<string, unknown>): Promise<{ items: unknown[]; pages: number; first: Record<string, unknown> }> {
  let r = await h.call(name, args);
  const first = r.structuredContent as Record<string, unknown>;
  const items: unknown[] = [];
  let pages = 0;
  for (;;) {
    if (r.isError) throw new Error(JSON.stringify(r.content));
    const s = r.structuredContent as { data: unknown[]; next_cursor?: string };
    items.push(...s.data);
    pages++;
    if (!s.next_cursor) return { items, pages, first };
    r = await h.call(name, { cursor: s.next_cursor });
  }
}

/** The JSON a command printed, as a tool's structuredContent has it (an array becomes { data }). */
export function asStructured(stdout: string): unknown {
  const v = JSON.parse(stdout) as unknown;
  return Array.isArray(v) ? { data: v } : v;
}

/**
 * Items sorted by id (a scorecard by its test_taker_id): an --all list comes in the order its
 * search finds the items, which can change from run to run (docs/exports.md, "Order").
 */
export function byId(items: unknown[]): unknown[] {
  const key = (x: unknown) => {
    const o = x as { id?: unknown; test_taker_id?: unknown };
    return Number(o.id ?? o.test_taker_id);
  };
  return [...items].sort((a, b) => key(a) - key(b));
}
