/**
 * Fisher's exact test of a 2×2 table, two-sided, as R's fisher.test computes
 * it: the hypergeometric probability of every table with the same margins,
 * and the p-value is the sum of those no more probable than the observed one
 * (with a relative tolerance of 1e-7, so that tables equal in exact
 * arithmetic are not split by rounding). No maintained npm package does this
 * (checked 2026-11: the one package of that name has a single release), so
 * it is written here and held to an exact computation in fractions
 * (test/fairness/known_answers.py).
 *
 *            selected  not selected
 *   group       a          b
 *   other       c          d
 */

const logFact: number[] = [0];

/** ln(n!), from a table grown as needed (sums of logs: exact to about 1e-12 relative at 10^6). */
function lnFactorial(n: number): number {
  for (let i = logFact.length; i <= n; i++) logFact.push(logFact[i - 1] + Math.log(i));
  return logFact[n];
}

const lnChoose = (n: number, k: number): number => lnFactorial(n) - lnFactorial(k) - lnFactorial(n - k);

/** R's relative tolerance: probabilities within it of the observed one count as equal. */
const REL_ERR = 1 + 1e-7;

/** Two-sided p-value of Fisher's exact test for [[a, b], [c, d]] (counts, whole and non-negative). */
export function fisherExact(a: number, b: number, c: number, d: number): number {
  for (const v of [a, b, c, d]) if (!Number.isInteger(v) || v < 0) throw new RangeError(`fisherExact: ${v} is not a count`);
  const n1 = a + b;
  const n2 = c + d;
  const k = a + c;
  const lo = Math.max(0, k - n2);
  const hi = Math.min(k, n1);
  if (lo === hi) return 1;
  const lnP = (x: number): number => lnChoose(n1, x) + lnChoose(n2, k - x);
  const logs: number[] = [];
  for (let x = lo; x <= hi; x++) logs.push(lnP(x));
  const top = Math.max(...logs);
  const observed = Math.exp(logs[a - lo] - top);
  let total = 0;
  let tail = 0;
  for (const l of logs) {
    const p = Math.exp(l - top);
    total += p;
    if (p <= observed * REL_ERR) tail += p;
  }
  return Math.min(1, tail / total);
}

/** The expected counts of the table's four cells under independence (row total × column total / n). */
export function expectedCells(a: number, b: number, c: number, d: number): number[] {
  const n = a + b + c + d;
  if (n === 0) return [0, 0, 0, 0];
  const rows = [a + b, c + d];
  const cols = [a + c, b + d];
  return [(rows[0] * cols[0]) / n, (rows[0] * cols[1]) / n, (rows[1] * cols[0]) / n, (rows[1] * cols[1]) / n];
}
