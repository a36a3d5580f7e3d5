/**
 * One call of a tool: the command line it stands for, the guard of a write,
 * the command run in this process, and its answer: the JSON it printed
 * (text and structuredContent), a first page and a cursor when it is large,
 * or the file it went to. A failure is the command's sentence, hint and code.
 */
import { existsSync, statSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Context } from '../commands/kit/context.js';
import { JobfitError } from '../core/errors.js';
import { errorJson } from '../core/error-code.js';
import { argvOf } from './derive.js';
import { askPerson, type Target } from './guard.js';
import { runCommand, type Ran } from './invoke.js';
import { Pager } from './pages.js';
import { pathProblem } from './paths.js';
import type { Tool } from './tools.js';

export interface CallDeps {
  base: Context;
  server: Server;
  pager: Pager;
  target(): Promise<Target>;
  confirmMs: number;
}

type Input = Record<string, unknown>;

function failure(error: NonNullable<Ran['error']>, extra?: unknown): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: JSON.stringify({ error }) }];
  if (extra !== undefined) content.push({ type: 'text', text: JSON.stringify(extra) });
  return { isError: true, content, structuredContent: extra === undefined ? { error } : { error, result: extra } };
}

function thrown(err: unknown): CallToolResult {
  const message = err instanceof Error ? err.message : String(err);
  return failure(errorJson(err, message, err instanceof JobfitError ? err.hint : undefined).error);
}

function parse(stdout: string): unknown {
  try {
    return stdout.trim() ? JSON.parse(stdout) : {};
  } catch {
    return { text: stdout };
  }
}

/** What the command printed, as the tool's answer. */
function answerOf(tool: Tool, ran: Ran, pager: Pager, out: string | undefined): CallToolResult {
  const notes: CallToolResult['content'] = ran.notices.length ? [{ type: 'text', text: JSON.stringify({ notices: ran.notices }) }] : [];
  if (ran.code !== 0) {
    const error = ran.error ?? { code: 'failed', message: ran.notices.at(-1) ?? `exit ${ran.code}`, hint: null, status: null };
    return failure(error, ran.stdout.trim() ? parse(ran.stdout) : undefined);
  }
  if (out !== undefined) {
    // The answer went to the file; what the command still printed (a bulk run's counts) comes with it.
    const written = { file: out, bytes: existsSync(out) ? statSync(out).size : 0 };
    const doc = { ...(ran.stdout.trim() ? (parse(ran.stdout) as object) : {}), written };
    return { content: [{ type: 'text', text: JSON.stringify(doc) }, ...notes], structuredContent: doc };
  }
  let answer = parse(ran.stdout);
  if (tool.spec.answer === 'many' && !Array.isArray(answer)) answer = [answer];
  const list = Pager.itemsOf(answer);
  const page = list && pager.first(list.head, list.items, Buffer.byteLength(ran.stdout));
  if (page) return { content: [{ type: 'text', text: JSON.stringify(page) }, ...notes], structuredContent: page };
  const structured = (Array.isArray(answer) ? { data: answer } : answer) as Record<string, unknown>;
  return { content: [{ type: 'text', text: ran.stdout.trim() }, ...notes], structuredContent: structured };
}

/** Counts of the dry run of a file invite, for the confirmation. */
async function dryRunCounts(deps: CallDeps, dryArgv: string[], signal: AbortSignal): Promise<{ sends: string } | { failed: CallToolResult }> {
  const ran = await runCommand(deps.base, dryArgv, signal);
  const report = parse(ran.stdout) as Record<string, unknown>;
  if (ran.code !== 0 && ran.code !== 3) return { failed: failure(ran.error ?? { code: 'failed', message: 'The dry run failed.', hint: null, status: null }) };
  const { invalid_rows: _rows, mapping: _mapping, ...counts } = report;
  return { sends: `the rows of a file, after its dry run: ${JSON.stringify(counts)}` };
}

/** The guard of a write (guard.ts): undefined to go on, or the answer that nothing was sent. */
async function guard(tool: Tool, input: Input, dryArgv: () => string[], deps: CallDeps, signal: AbortSignal): Promise<CallToolResult | undefined> {
  const t = await deps.target();
  if (!t.live || (tool.spec.write === 'invite_csv' && input.dryRun === true)) return undefined;
  let sends: string;
  if (tool.spec.write === 'invite_csv') {
    const dry = await dryRunCounts(deps, dryArgv(), signal);
    if ('failed' in dry) return dry.failed;
    sends = dry.sends;
  } else {
    const { fields: _f, cursor: _c, ...given } = input;
    sends = `${tool.spec.write === 'invite' ? 'one invitation' : 'an update of an invitation'}: ${JSON.stringify(given)}`;
  }
  const verdict = await askPerson(deps.server, t, sends, deps.confirmMs);
  return verdict.ok ? undefined : failure({ code: 'declined', message: verdict.message, hint: verdict.hint, status: null });
}

/** The handler of a tool. */
export async function callTool(tool: Tool, input: Input, deps: CallDeps, signal: AbortSignal): Promise<CallToolResult> {
  try {
    if (typeof input.cursor === 'string') {
      const page = deps.pager.next(input.cursor);
      return { content: [{ type: 'text', text: JSON.stringify(page) }], structuredContent: page };
    }
    const { path, slots } = tool.commands[typeof input.what === 'string' ? input.what : ''] ?? Object.values(tool.commands)[0];
    // (The catalog's `account` has no --out: the answer comes back as usual.)
    const out = typeof input.out === 'string' && slots.some((s) => s.key === 'out') ? input.out : undefined;
    const bad = pathProblem(input, slots);
    if (bad) return failure({ code: 'usage', ...bad, status: null });
    const globals = ['-o', 'json', ...(Array.isArray(input.fields) && input.fields.length ? [`--fields=${input.fields.join(',')}`] : [])];
    const argv = argvOf(path, slots, input, tool.spec.write === 'invite_csv' && input.dryRun !== true ? [...globals, '--yes'] : globals);
    if (tool.spec.write) {
      const refused = await guard(tool, input, () => argvOf(path, slots, { ...input, dryRun: true }, ['-o', 'json']), deps, signal);
      if (refused) return refused;
    }
    return answerOf(tool, await runCommand(deps.base, argv, signal), deps.pager, out);
  } catch (err) {
    return thrown(err);
  }
}
