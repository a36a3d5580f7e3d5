/**
 * The `jobfit mcp` command itself: --list-tools (what would be served, read-only
 * by default, at most 12 tools, with sizes), and its usage errors in one
 * sentence (exit 2), before any server starts.
 */
import { expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

it('--list-tools -o json: the default toolset, each read-only, with its size in tokens', async () => {
  const r = await runCli(['mcp', '--list-tools', '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  const tools = JSON.parse(r.stdout) as Array<{ name: string; read_only: boolean; tokens: number }>;
  expect(tools.length).toBeGreaterThan(0);
  expect(tools.length).toBeLessThanOrEqual(12);
  for (const t of tools) {
    expect(t.read_only, t.name).toBe(true);
    expect(t.tokens, t.name).toBeGreaterThan(20);
  }
  expect(r.stderr).toMatch(/^\d+ tools, about \d+ tokens with the server's instructions \(characters \/ 4\)\.$/m);
});

it('--toolsets and --tools pick others; writes only with --allow-writes; --read-only wins', async () => {
  const pick = async (...args: string[]) => (JSON.parse((await runCli(['mcp', '--list-tools', '-o', 'json', ...args])).stdout) as Array<{ name: string }>).map((t) => t.name);
  expect(await pick('--toolsets', 'profiles', '--tools', 'health')).toEqual(['profiles_list', 'profiles_get', 'health']);
  expect(await pick('--allow-writes')).toEqual(expect.arrayContaining(['invite', 'invite_csv', 'invitations_update', 'whoami']));
  expect(await pick('--allow-writes', '--read-only', '--toolsets', 'all')).not.toContain('invite');
});

it('usage errors: one sentence, exit 2', async () => {
  const cases: Array<[string[], RegExp]> = [
    [['mcp', '--toolsets', 'nope'], /^Error: --toolsets: no toolset named "nope"\.$/m],
    [['mcp', '--tools', 'invite'], /^Error: invite is a write tool: served only with --allow-writes\.$/m],
    [['mcp', '-o', 'csv'], /^Error: jobfit mcp speaks MCP on stdout: -o applies only with --list-tools\.$/m],
    [['mcp', '--max-items', '0'], /^Error: --max-items: must be at least 1 item\.$/m],
  ];
  for (const [argv, sentence] of cases) {
    const r = await runCli(argv);
    expect(r.code, argv.join(' ')).toBe(2);
    expect(r.stderr, argv.join(' ')).toMatch(sentence);
  }
});
