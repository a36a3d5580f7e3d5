/**
 * The one reading of a service id. The reference says ids are integers; a
 * server that sends them as numeric strings ("50001") means the same id and
 * is read as such. Anything else (a fraction, a negative, a word, null where
 * an id must be) is an error, never a silent skip: a record whose id cannot
 * be read would otherwise vanish from an export, a report or a sync.
 */
import { JobfitError } from '../core/errors.js';

const DIGITS = /^\d{1,16}$/;

/**
 * `v` as the reference's integer id: a safe positive integer, given as a
 * number or as a string of digits. Throws a JobfitError (exit 1) naming `what`
 * ("test_taker_id of invitation 7") otherwise.
 */
export function readId(v: unknown, what = 'id'): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && DIGITS.test(v.trim()) ? Number(v.trim()) : Number.NaN;
  if (Number.isSafeInteger(n) && n > 0) return n;
  const shown = v === undefined ? 'nothing' : (JSON.stringify(v) ?? String(v)).slice(0, 40);
  throw new JobfitError(`The service sent ${shown} as the ${what}, which is not an id (an integer); the run cannot account for that record.`, {
    hint: 'check that the base URL points at the service; if it does, report the answer (-v shows the requests)',
  });
}
