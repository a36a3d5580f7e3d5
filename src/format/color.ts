import { Chalk, type ChalkInstance } from 'chalk';

/**
 * A chalk instance for one stream (pass io.colorStdout or io.colorStderr):
 * level 0 writes no escape codes at all. Never chalk's global instance, whose
 * level follows process.stdout and not the stream we write to.
 */
export function chalkFor(enabled: boolean): ChalkInstance {
  return new Chalk({ level: enabled ? 1 : 0 });
}

export type { ChalkInstance };
