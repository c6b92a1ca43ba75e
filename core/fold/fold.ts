// Fold v1 (normalization standard version 1). The on-chain registries implement the same table byte by
// byte, so this must never change; a different fold ships as a new registry version.

/** Version of the normalization standard implemented by `foldV1`. */
export const FOLD_VERSION = 1;

const DIGIT_LOOKALIKES: Readonly<Record<string, string>> = {
  "0": "O",
  "1": "I",
  "2": "2",
  "3": "E",
  "4": "A",
  "5": "S",
  "6": "6",
  "7": "T",
  "8": "B",
  "9": "9",
};

/** Index = ASCII code; value = folded output ("" = dropped). Code points >= 0x80 are always dropped. */
const ASCII_FOLD_TABLE: readonly string[] = buildAsciiFoldTable();

function buildAsciiFoldTable(): string[] {
  const table: string[] = new Array<string>(128).fill("");
  for (let code = 0x41; code <= 0x5a; code++) table[code] = String.fromCharCode(code);
  for (let code = 0x61; code <= 0x7a; code++) table[code] = String.fromCharCode(code - 0x20);
  for (const [digit, folded] of Object.entries(DIGIT_LOOKALIKES)) table[digit.charCodeAt(0)] = folded;
  table["$".charCodeAt(0)] = "S";
  table["@".charCodeAt(0)] = "A";
  return table;
}

/**
 * Folds a raw name or ticker: a-z to A-Z, look-alike digits to letters (2, 6, 9 kept), `$` to S, `@` to A,
 * everything else dropped. Every non-ASCII character is dropped, which equals dropping every UTF-8 byte
 * >= 0x80 as the on-chain fold does. The result contains only A-Z, 2, 6 and 9, and folding it again
 * returns it unchanged.
 */
export function foldV1(input: string): string {
  let folded = "";
  for (let index = 0; index < input.length; index++) {
    const code = input.charCodeAt(index);
    if (code < 0x80) folded += ASCII_FOLD_TABLE[code];
  }
  return folded;
}

const FOLDED_FORM = /^[A-Z269]*$/;

/** True when `value` is already a fold v1 output (only A-Z, 2, 6, 9). */
export function isFolded(value: string): boolean {
  return FOLDED_FORM.test(value);
}
