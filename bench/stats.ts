// Figures the benches print beside their measurements: the machine's load, and medians.
import { loadavg } from 'node:os';

/** The 1, 5 and 15 minute load averages, to two decimals: other work on the machine stretches wall-clock figures. */
export const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** The middle value (the upper one of an even count). */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
