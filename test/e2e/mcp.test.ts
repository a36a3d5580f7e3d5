/**
 * `jobfit mcp` as assistants run it: the built jobfit (or the standalone
 * executable, JOBFIT_E2E_EXE) spawned over stdio by clients we did not write:
 * the SDK's own Client, and the MCP Inspector's CLI (its output goes to the
 * test log, so CI shows it). Live writes against `jobfit stub serve` with a
 * live key: a declined elicitation sends nothing, an accepted one sends one
 * invitation, counted on the stub.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltCli, buildCli, ROOT } from './built.js';

let cli: BuiltCli;
let home: string;
let env: Record<string, string>;
beforeAll(() => {
  cli = buildCli();
  home = mkdtempSync(join(tmpdir(), 'jobfit-mcp-home-'));
  env = { HOME: home, JOBFIT_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1', PATH: process.env.PATH ?? '' };
});
afterAll(() => {
  cli?.close();
  rmSync(home, { recursive: true, force: true });
});

async function connect(args: string[], extraEnv: Record<string, string> = {}, elicit?: () => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }) {
  const client = new Client({ name: 'jobfit-e2e', version: '1' }, { capabilities: elicit ? { elicitation: { form: {} } } : {} });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, async () => elicit());
  const transport = new StdioClientTransport({ command: cli.command, args: [...cli.prefix, 'mcp', ...args], env: { ...env, ...extraEnv }, stderr: 'pipe' });
  await client.connect(transport);
  return client;
}

const call = async (c: Client, name: string, args: Record<string, unknown>) => (await c.callTool({ name, arguments: args })) as CallToolResult;

describe('on a fresh HOME: the embedded stub', () => {
  it('jobfit mcp --list-tools: the default toolset, each read-only, with its size', () => {
    const r = cli.run(['mcp', '--list-tools', '-o', 'table'], { env });
    console.log(`$ jobfit mcp --list-tools\n${r.stdout}${r.stderr}`);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.trim().split('\n').slice(1);
    expect(rows.length).toBeLessThanOrEqual(12);
    for (const row of rows) expect(row).toMatch(/^\w+\s+\w+\s+yes\s+\d+\s+/);
    expect(r.stderr).toMatch(/^\d+ tools, about \d+ tokens/m);
  });

  it('the SDK client over stdio: instructions name the stub; test_takers_list all equals test-takers list --all -o json', async () => {
    const c = await connect([]);
    try {
      expect(c.getInstructions()).toContain('EMBEDDED LOCAL STUB');
      const tools = (await c.listTools()).tools;
      expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
      const items: unknown[] = [];
      let r = await call(c, 'test_takers_list', { all: true });
      for (;;) {
        const s = r.structuredContent as { data: unknown[]; next_cursor?: string };
        items.push(...s.data);
        if (!s.next_cursor) break;
        r = await call(c, 'test_takers_list', { cursor: s.next_cursor });
      }
      const whole = JSON.parse(cli.run(['test-takers', 'list', '--all', '-o', 'json'], { env }).stdout) as { data: unknown[] };
      console.log(`test_takers_list {all: true}: ${items.length} test takers in pages of 50; \`test-takers list --all -o json\`: ${whole.data.length}`);
      expect(items).toEqual(whole.data);
      // Every tool answers on the stub.
      for (const [name, args] of [['whoami', {}], ['catalog', { what: 'teams' }], ['scorecards', { sp: 'sales-rep', ids: [500001] }], ['group_report', { sp: 'sales-rep' }]] as const) {
        expect((await call(c, name, args)).isError, name).toBeFalsy();
      }
    } finally {
      await c.close();
    }
  }, 60_000);
});

describe('live mode: jobfit stub serve with a live key', () => {
  let service: ChildProcess;
  let live: Record<string, string>;
  beforeAll(async () => {
    mkdirSync(join(home, 'service'), { recursive: true });
    service = spawn(cli.command, [...cli.prefix, 'stub', 'serve', '--port', '0', '--data', join(home, 'service')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`stub serve did not start: ${out}`)), 30_000);
      service.stdout!.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (/test key: \S+/.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    live = { JOBFIT_BASE_URL: /Stub listening on (\S+)/.exec(out)![1], JOBFIT_API_KEY: /live key: (\S+)/.exec(out)![1] };
  }, 60_000);
  afterAll(() => {
    service?.kill();
  });

  const count = () => (JSON.parse(cli.run(['invitations', 'list', '-o', 'json'], { env: { ...env, ...live } }).stdout) as { total_count: number }).total_count;
  const person = (n: number) => ({ firstName: 'Ana', lastName: 'Diaz', email: `ana.${n}@example.com`, createdBy: 'dana.whitfield@northwind-talent.example' });

  it('declined: nothing sent; accepted: one invitation; a client that cannot ask: nothing sent', async () => {
    const answers: Array<'decline' | 'accept'> = ['decline', 'accept'];
    const asked: string[] = [];
    const c = await connect(['--allow-writes'], live, () => {
      const a = answers.shift()!;
      asked.push(a);
      return a === 'accept' ? { action: 'accept', content: { send: true } } : { action: 'decline' };
    });
    try {
      expect(c.getInstructions()).toMatch(/in live mode/);
      const invite = (await c.listTools()).tools.find((t) => t.name === 'invite')!;
      expect(invite.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      const before = count();
      const declined = await call(c, 'invite', person(1));
      console.log(`invite, declined: ${JSON.stringify(declined.structuredContent)}`);
      expect(declined.structuredContent).toMatchObject({ error: { code: 'declined' } });
      expect(count()).toBe(before);
      const accepted = await call(c, 'invite', person(1));
      expect(accepted.isError, JSON.stringify(accepted.content)).toBeFalsy();
      expect(accepted.structuredContent).toMatchObject({ object: 'invitation', email: 'ana.1@example.com', mode: 'live' });
      expect(count()).toBe(before + 1);
      console.log(`invite, accepted: invitation ${(accepted.structuredContent as { id: number }).id}; invitations ${before} -> ${count()}`);
      expect(asked).toEqual(['decline', 'accept']);
    } finally {
      await c.close();
    }
    const mute = await connect(['--allow-writes'], live);
    try {
      const before = count();
      const r = await call(mute, 'invite', person(2));
      expect(r.structuredContent).toMatchObject({ error: { code: 'declined', message: expect.stringMatching(/cannot ask the person.*nothing was sent/) } });
      expect(count()).toBe(before);
    } finally {
      await mute.close();
    }
  }, 90_000);

  it('--read-only removes every write tool, whatever else is given', async () => {
    const c = await connect(['--allow-writes', '--read-only', '--toolsets', 'all'], live);
    try {
      const tools = (await c.listTools()).tools;
      expect(tools.map((t) => t.name)).not.toContain('invite');
      expect(tools.every((t) => t.annotations?.readOnlyHint)).toBe(true);
    } finally {
      await c.close();
    }
  }, 60_000);
});

describe('the MCP Inspector CLI (@modelcontextprotocol/inspector --cli)', () => {
  const inspector = join(ROOT, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
  const [major, minor] = process.versions.node.split('.').map(Number);
  // The Inspector needs Node 22.19 (its engines); jobfit's floor is 22.12.
  const runs = major > 22 || (major === 22 && minor >= 19);
  const inspect = (args: string[]) => {
    const r = spawnSync(process.execPath, [inspector, '--cli', cli.command, ...cli.prefix, 'mcp', ...args], {
      env: { ...env, MCP_CATALOG_PATH: join(home, 'inspector.json') },
      encoding: 'utf8',
      timeout: 60_000,
    });
    console.log(`$ mcp-inspector --cli jobfit mcp ${args.join(' ')}\n${r.stdout}${r.stderr}`);
    return r;
  };

  it.runIf(runs)('lists the tools and calls two', () => {
    const list = inspect(['--method', 'tools/list']);
    expect(list.status, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toContain('test_takers_list');
    const who = inspect(['--method', 'tools/call', '--tool-name', 'whoami']);
    expect(who.status, who.stderr).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ structuredContent: { embedded_stub: true, mode: 'live' } });
    const one = inspect(['--method', 'tools/call', '--tool-name', 'test_takers_get', '--tool-arg', 'id=500001']);
    expect(one.status, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ structuredContent: { object: 'test_taker', id: 500001 } });
  }, 120_000);
});
