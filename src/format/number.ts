/**
 * Thousands separators for counts in messages ("3,214"), as en-US writes them
 * (at most three decimals, like `Intl.NumberFormat('en-US')`). Not ICU: creating
 * an ICU number format costs ~18 ms, paid by every command that prints a count
 * (the summary line of an export or a bulk invite), while counts need only this.
 */
function group(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '∞' : n < 0 ? '-∞' : 'NaN';
  const rounded = Math.round(Math.abs(n) * 1000) / 1000;
  // Past 1e21 String() switches to exponent notation; such counts do not occur.
  const [int, frac] = (rounded >= 1e21 ? rounded.toLocaleString('en-US', { useGrouping: false }) : String(rounded)).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = n < 0 ? '-' : '';
  return `${sign}${grouped}${frac ? `.${frac}` : ''}`;
}

/** "1 row", "3,214 rows": a count and its noun (`plural` when not just an s). */
function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${group(n)} ${n === 1 ? noun : plural}`;
}

export const NUM = {
  format: group,
  count,
};
