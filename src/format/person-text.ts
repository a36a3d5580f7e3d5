/**
 * Text on its way to a person's terminal (notices, warnings, errors, traces):
 * control and bidi characters shown as escapes, and no URL password.
 */
import { hideUrlPasswords } from '../config/mask.js';
import { safeText } from './sanitize.js';

export function forPerson(text: string): string {
  return safeText(hideUrlPasswords(text));
}
