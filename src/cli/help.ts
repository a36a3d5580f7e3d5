/**
 * `jobfit help <topic>`: which topic is asked for, and its text. The topics
 * themselves are in commands/help-topics.ts.
 */
import { HELP_TOPICS } from '../commands/help-topics.js';

/** The topic asked for by `jobfit help <topic>` (argv after the global options), if it is one. */
export function helpTopicOf(argv: string[]): string | undefined {
  const i = argv.indexOf('help');
  if (i < 0) return undefined;
  const topic = argv[i + 1];
  return topic !== undefined && Object.hasOwn(HELP_TOPICS, topic) ? topic : undefined;
}

export function helpTopicText(topic: string): string {
  return `${HELP_TOPICS[topic].text}\n`;
}

