import type { IOStreams } from '../../cli/context.js';

/** All of stdin as text (for keys and request bodies piped in). */
export async function readStdin(io: IOStreams): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
