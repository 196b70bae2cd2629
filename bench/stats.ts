// Figures the benches print beside their measurements: the machine's load, and medians.
import { loadavg } from 'node:os';

/** The 1, 5 and 15 minute load averages, to two decimals: other work on the machine stretches wall-clock figures. */
export const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** The nearest-rank p-th percentile: the smallest value at least p% of the values are at or below. */
export const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};

/** The middle value (the upper one of an even count). */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
