/**
 * Thousands separators for counts in messages ("3,214"). The ICU number
 * format costs ~15 ms to create, so it is made on first use, once.
 */
let numberFormat: Intl.NumberFormat | undefined;

export const NUM = {
  format: (n: number): string => (numberFormat ??= new Intl.NumberFormat('en-US')).format(n),
};
