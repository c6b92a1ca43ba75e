// Relative time in words ("in 3 days", "5 minutes ago"), for the server's rendering and the browser's alike.
const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1_000],
];

/** `at` relative to `now` (both ms since the epoch), in the largest whole unit up to days. */
export function relativeTime(at: number, now: number, format: Intl.RelativeTimeFormat): string {
  const delta = at - now;
  const [unit, size] = UNITS.find(([, size]) => Math.abs(delta) >= size) ?? ["second", 1_000];
  return format.format(Math.round(delta / size), unit);
}
