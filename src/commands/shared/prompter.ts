import type { Context, Prompter } from '../../cli/context.js';

/**
 * The prompter of this context: the one it carries (tests inject a scripted
 * one), else the real one on @inquirer/prompts, loaded only when needed.
 */
export async function prompterFor(ctx: Context): Promise<Prompter> {
  const own = (ctx as Context & { prompter?: Prompter | (() => Prompter | Promise<Prompter>) }).prompter;
  if (typeof own === 'function') return await own();
  if (own) return own;
  const { createPrompter } = await import('../../cli/prompter.js');
  return createPrompter(ctx.io);
}
