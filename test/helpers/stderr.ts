/**
 * stderr as a person reads it. With -o json or -o ndjson a failing command
 * writes its error as one JSON line ({"error":{code,message,hint,status}},
 * src/core/error-code.ts); tests that hold the sentence itself read it back
 * here as the "Error: …" line (and its hint) the other formats print.
 */
export function humanStderr(stderr: string): string {
  return stderr
    .split('\n')
    .map((line) => {
      if (!line.startsWith('{"error":')) return line;
      try {
        const { error } = JSON.parse(line) as { error: { message: string; hint?: string | null } };
        return error.hint ? `Error: ${error.message}\n${error.hint}` : `Error: ${error.message}`;
      } catch {
        return line;
      }
    })
    .join('\n');
}
