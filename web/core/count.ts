/*
 * count.ts: numbers with thousands separators, as toLocaleString('en') writes them, for the views
 * and for messages. One formatter: toLocaleString builds a new Intl.NumberFormat on each call
 * (~0.1 ms), and the counters alone print hundreds of numbers per step on a many-CPU machine.
 */
const COUNT = new Intl.NumberFormat('en');

/** n with thousands separators ("1,048,576"). */
export function formatCount(n: number): string {
  return COUNT.format(n);
}
