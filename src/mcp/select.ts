/**
 * Which tools a server offers: the default toolsets, or those `--toolsets`
 * and `--tools` name. Write tools exist only with --allow-writes (naming one
 * without it is a usage error); --read-only removes every write tool, whatever
 * else is given.
 */
import { UsageError } from '../core/errors.js';
import { DEFAULT_TOOLSETS, TOOL_SPECS, TOOLSETS, type ToolSpec } from './catalog.js';

export interface Selection {
  toolsets?: string[];
  tools?: string[];
  allowWrites: boolean;
  readOnly: boolean;
}

function unknown(kind: string, given: string[], known: readonly string[]): void {
  const bad = given.filter((g) => !known.includes(g));
  if (bad.length) throw new UsageError(`--${kind}: no ${kind.replace(/s$/, '')} named ${bad.map((b) => `"${b}"`).join(', ')}.`, `the ${kind}: ${known.join(', ')}`);
}

export function selectTools(sel: Selection): ToolSpec[] {
  const setNames = Object.keys(TOOLSETS);
  if (sel.toolsets) unknown('toolsets', sel.toolsets, [...setNames, 'all']);
  if (sel.tools) unknown('tools', sel.tools, TOOL_SPECS.map((t) => t.name));
  const sets = new Set<string>(sel.toolsets?.includes('all') ? setNames : (sel.toolsets ?? (sel.tools ? [] : DEFAULT_TOOLSETS)));
  // --allow-writes alone serves the write tools beside the defaults.
  if (sel.allowWrites && !sel.toolsets && !sel.tools) sets.add('writes');
  const picked = TOOL_SPECS.filter((t) => sets.has(t.toolset) || sel.tools?.includes(t.name));
  if (sel.readOnly) return picked.filter((t) => !t.write);
  const writes = picked.filter((t) => t.write && !(sel.toolsets?.includes('all') && !sel.allowWrites));
  if (writes.length && !sel.allowWrites) {
    throw new UsageError(`${writes.map((t) => t.name).join(', ')} ${writes.length === 1 ? 'is a write tool' : 'are write tools'}: served only with --allow-writes.`, 'add --allow-writes (live writes are confirmed by the person), or leave them out');
  }
  return picked.filter((t) => !t.write || sel.allowWrites);
}
