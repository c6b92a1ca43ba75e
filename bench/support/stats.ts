// The order statistics every bench reports, defined once so a p99 or a median means the same in every suite.

/** The value at `fraction` (0 to 1) of ascending `sorted`: the nearest rank at or below it; NaN when empty. */
export function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

/** The median of `values`, in any order: the middle one, or the mean of the two middle ones; NaN when empty. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
