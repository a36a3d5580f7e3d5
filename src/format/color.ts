import { styleText } from 'node:util';

/**
 * The few styles we draw with, for one stream (pass io.colorStdout or
 * io.colorStderr). Built on node:util styleText with validateStream off: the
 * caller has already decided whether its stream takes colour (NO_COLOR,
 * FORCE_COLOR, a TTY), so a disabled painter writes no escape codes at all.
 */
const STYLES = ['bold', 'dim', 'red', 'green', 'yellow', 'cyan'] as const;
type Style = (typeof STYLES)[number];

export type Colors = Record<Style, (text: string) => string>;

const plain: Colors = Object.fromEntries(STYLES.map((s) => [s, (t: string) => t])) as Colors;
const styled: Colors = Object.fromEntries(
  STYLES.map((s) => [s, (t: string) => styleText(s, t, { validateStream: false })]),
) as Colors;

export function colorsFor(enabled: boolean): Colors {
  return enabled ? styled : plain;
}
