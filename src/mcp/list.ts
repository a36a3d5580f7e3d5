/**
 * `jobfit mcp --list-tools`: what the server would serve, as a client sees it
 * (the server's own tools/list, over an in-memory connection), with the size
 * of each tool in tokens: an assistant pays for every tool's description and
 * schemas before the first question. Tokens are counted as characters / 4
 * (no tokenizer is shipped); the total is what tools/list costs.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Context } from '../commands/kit/context.js';
import { printList } from '../format/output.js';
import { buildServer, type ServeOptions } from './server.js';

export interface ListedTool {
  name: string;
  toolset: string;
  read_only: boolean;
  destructive: boolean;
  tokens: number;
  title: string;
}

export const tokensOf = (value: unknown): number => Math.ceil(JSON.stringify(value).length / 4);

export async function listTools(base: Context, opts: ServeOptions): Promise<{ tools: ListedTool[]; instructions: string }> {
  const { server, tools } = await buildServer(base, opts);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'jobfit-list-tools', version: '1' });
  await Promise.all([server.connect(a), client.connect(b)]);
  try {
    const listed = (await client.listTools()).tools;
    return {
      instructions: client.getInstructions() ?? '',
      tools: listed.map((t) => ({
        name: t.name,
        toolset: tools.find((x) => x.spec.name === t.name)?.spec.toolset ?? '',
        read_only: t.annotations?.readOnlyHint === true,
        destructive: t.annotations?.destructiveHint === true,
        tokens: tokensOf(t),
        title: t.title ?? '',
      })),
    };
  } finally {
    await client.close();
    await server.close();
  }
}

export async function printTools(ctx: Context, opts: ServeOptions): Promise<void> {
  const { tools, instructions } = await listTools(ctx, opts);
  const total = tools.reduce((n, t) => n + t.tokens, 0) + Math.ceil(instructions.length / 4);
  await printList(ctx, tools, {
    columns: [
      { key: 'name', header: 'TOOL' },
      { key: 'toolset', header: 'TOOLSET' },
      { key: 'read_only', header: 'READ-ONLY', format: (v) => (v ? 'yes' : 'no (writes)') },
      { key: 'tokens', header: 'TOKENS', align: 'right' },
      { key: 'title', header: 'WHAT' },
    ],
    noun: 'tools',
    capNotice: false,
  });
  ctx.info(`${tools.length} tools, about ${total} tokens with the server's instructions (characters / 4).`);
}
