// The UTS #39 skeleton: NFD, every code point replaced by its confusable prototype, NFD again. The
// prototypes are the Unicode confusables data (confusables.txt, Unicode 13.0.0) as the `unhomoglyph`
// package ships it; its own replace function is not used because it builds one regular expression of all
// 6,311 entries, where a map lookup per code point is enough (every entry maps a single code point).
import confusables from "unhomoglyph/data.json";

/** Unicode version of the confusables data (unhomoglyph 1.0.6). */
export const CONFUSABLES_UNICODE_VERSION = "13.0.0";

const PROTOTYPES: ReadonlyMap<string, string> = new Map(Object.entries(confusables as Record<string, string>));

/** The skeleton of `text`: two strings that look alike have the same skeleton. Not meant to be shown. */
export function skeleton(text: string): string {
  let mapped = "";
  for (const point of text.normalize("NFD")) mapped += PROTOTYPES.get(point) ?? point;
  return mapped.normalize("NFD");
}
