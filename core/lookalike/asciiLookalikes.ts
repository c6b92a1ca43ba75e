// ASCII look-alikes that fold v1 keeps apart, applied to folded text (A-Z, 2, 6, 9). Folded text is upper
// case, but names are shown in any case, so the pairs are those that look alike in lower case. The database
// applies the same table (the SQL function `lookalike_fold`, storage/migrations/0016_lookalikes.sql) to
// stored identity keys: change one, change both, and a test compares them.

/** Replacements in the order they apply; every occurrence, left to right, before the next pair. */
export const ASCII_LOOKALIKES: readonly (readonly [from: string, to: string])[] = [
  ["RN", "M"], // rn / m
  ["VV", "W"], // vv / w
  ["CL", "D"], // cl / d
  ["L", "I"], // l / I (after CL, so cl still reads as d)
];

/** Matches text that one of the pairs would change: text without one skips the replacements (every check folds). */
const ANY_PAIR = new RegExp(ASCII_LOOKALIKES.map(([from]) => from).join("|"));

/** Folded text with the ASCII look-alike table applied; applying it again changes nothing. */
export function asciiLookalikeFold(folded: string): string {
  if (!ANY_PAIR.test(folded)) return folded;
  let text = folded;
  for (const [from, to] of ASCII_LOOKALIKES) text = text.replaceAll(from, to);
  return text;
}
