/** config path: print the path of the config file. */
import { configFilePath } from '../../config/paths.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';

async function run(_opts: Record<string, never>, ctx: Context): Promise<void> {
  ctx.io.stdout.write(`${configFilePath(ctx.io.env)}\n`);
}

export default defineCommand({
  name: 'path',
  summary: 'Print the path of the config file',
  examples: ['jobfit config path', 'JOBFIT_CONFIG_DIR=/tmp/jf jobfit config path'],
  run,
});
