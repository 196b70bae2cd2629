// The option a mistyped one most likely meant, for `svc` and `svc-worker` alike: the nearest by edit
// distance, when near enough (a third of its letters), or one that starts the other.

/** The nearest of `options` (names without dashes) to `name`, or undefined when none is close. */
export function nearestOption(name: string, options: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const option of options) {
    const d = editDistance(name, option);
    if (d < bestDistance) [best, bestDistance] = [option, d];
  }
  if (best === undefined) return undefined;
  return bestDistance <= Math.max(1, Math.floor(name.length / 3)) || best.startsWith(name) || name.startsWith(best)
    ? best
    : undefined;
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next.push(Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    row = next;
  }
  return row[b.length];
}
