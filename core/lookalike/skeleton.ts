// The UTS #39 skeleton of the non-ASCII characters: NFD, every non-ASCII code point replaced by its
// confusable prototype, NFD again. ASCII is left to fold v1 and the ASCII look-alike table, so a folded key's
// look-alike key is that table applied to it, which the database can compute: confusables.txt's own ASCII
// entries (I and 1 to l, m to rn, 0 to O, | to l) would make `CI` read `Cl` and then `D`. The prototypes are
// the Unicode confusables data (confusables.txt, Unicode 13.0.0) as the `unhomoglyph` package ships it; its
// replace function is not used because it builds one regular expression of all 6,311 entries, where a map
// lookup per code point is enough (every entry maps a single code point).
import confusables from "unhomoglyph/data.json";
import { foldV1 } from "../fold";

/** Unicode version of the confusables data (unhomoglyph 1.0.6). */
export const CONFUSABLES_UNICODE_VERSION = "13.0.0";

const PROTOTYPES: ReadonlyMap<string, string> = new Map(
  Object.entries(confusables as Record<string, string>),
);

const prototypeOf = (point: string): string => PROTOTYPES.get(point) ?? point;

/**
 * What a non-ASCII code point reads as. The fold upper-cases and keeps only letters and digits, so a lowercase
 * letter whose prototype is a small capital (Cyrillic `т` is `ᴛ`) would fold to nothing while its capital (`Т`,
 * `T`) is caught: such a letter reads as its capital's prototype, so case never hides a look-alike.
 */
const ASCII_LETTER_OR_DIGIT = /[A-Za-z0-9]/;

function readAs(point: string): string {
  const prototype = prototypeOf(point);
  // An ASCII letter or digit always survives the fold: the common case needs no fold here.
  if (ASCII_LETTER_OR_DIGIT.test(prototype) || foldV1(prototype) !== "") return prototype;
  const capital = [...point.toUpperCase().normalize("NFD")].map(prototypeOf).join("");
  return foldV1(capital) === "" ? prototype : capital;
}

/** The skeleton of `text`, ASCII kept: homoglyphs become their prototype. Not meant to be shown. */
export function skeleton(text: string): string {
  let mapped = "";
  for (const point of text.normalize("NFD")) {
    mapped += point.charCodeAt(0) < 0x80 ? point : readAs(point);
  }
  return mapped.normalize("NFD");
}
