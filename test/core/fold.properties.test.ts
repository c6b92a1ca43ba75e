import { expect } from "chai";
import fc from "fast-check";
import {
  boundsMessage,
  boundsReason,
  foldedHash,
  foldV1,
  identityKey,
  isFolded,
  NotFoldedError,
  normalizeIdentity,
  parseIdentityKey,
} from "../../core/fold";

const anyText = fc.string({ unit: "binary", maxLength: 80 });
const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const word = fc.string({ unit: fc.constantFrom(...letters), minLength: 1, maxLength: 20 });

// Every raw spelling that the fold must map back to the upper-case letter.
const SPELLINGS: Readonly<Record<string, string[]>> = {
  A: ["a", "4", "@"],
  B: ["b", "8"],
  E: ["e", "3"],
  I: ["i", "1"],
  O: ["o", "0"],
  S: ["s", "5", "$"],
  T: ["t", "7"],
};
const SEPARATORS = [
  " ",
  "\t",
  "\n",
  "\r\n",
  "-",
  "_",
  ".",
  "!",
  "\u200b",
  "\u00a0",
  "\u{1f680}",
  "\uff0d",
  "\u0301",
];

/** A random look-alike spelling of `upper`: case, digit and symbol substitutes, separators anywhere. */
function variantOf(upper: string): fc.Arbitrary<string> {
  const characters = [...upper].map((letter) =>
    fc.tuple(
      fc.constantFrom(letter, letter.toLowerCase(), ...(SPELLINGS[letter] ?? [])),
      fc.array(fc.constantFrom(...SEPARATORS), { maxLength: 2 }),
    ),
  );
  return fc
    .tuple(fc.array(fc.constantFrom(...SEPARATORS), { maxLength: 2 }), ...characters)
    .map(
      ([leading, ...parts]) =>
        leading.join("") + parts.map(([spelling, after]) => spelling + after.join("")).join(""),
    );
}

describe("fold v1 properties", () => {
  it("is idempotent", () => {
    fc.assert(fc.property(anyText, (text) => foldV1(foldV1(text)) === foldV1(text)));
  });

  it("outputs only A-Z, 2, 6 and 9", () => {
    fc.assert(fc.property(anyText, (text) => /^[A-Z269]*$/.test(foldV1(text))));
  });

  it("never grows the text and drops every non-ASCII character", () => {
    fc.assert(fc.property(anyText, (text) => foldV1(text).length <= text.length));
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 40 }),
        (text) => foldV1(text.replace(/[\0-\x7f]/g, "")) === "",
      ),
    );
  });

  it("maps any mix of case, separators and look-alikes of one word to one identity key", () => {
    const cases = word.chain((base) => fc.tuple(fc.constant(base), variantOf(base), variantOf(base)));
    fc.assert(
      fc.property(cases, ([base, nameVariant, tickerVariant]) => {
        // Words with O/I/E/A/S/T/B may be spelled with digits, so the key is that of the letter form.
        expect(identityKey(nameVariant, tickerVariant)).to.equal(`${base}::${base}`);
      }),
    );
  });

  it("folds the official digit table and keeps 2, 6, 9", () => {
    expect(foldV1("0123456789")).to.equal("OI2EAS6TB9");
  });

  it("judges bounds after folding, name before ticker, with a message for each violation", () => {
    expect(boundsReason("", "")).to.equal("name_empty");
    expect(boundsReason("A".repeat(65), "X")).to.equal("name_too_long");
    expect(boundsReason("A", "X")).to.equal("ticker_too_short");
    expect(boundsReason("A", "X".repeat(11))).to.equal("ticker_too_long");
    expect(boundsReason("A".repeat(64), "X".repeat(10))).to.equal("ok");
    expect(boundsMessage("ticker_too_long")).to.match(/10/);
    expect(normalizeIdentity("\u{1f680}", "PEPE")).to.include({
      valid: false,
      reason: "name_empty",
      onchainError: "BadLength",
    });
  });

  it("refuses to hash a string that is not folded", () => {
    expect(() => foldedHash("Pepe")).to.throw(NotFoldedError, /foldV1/);
    expect(foldedHash("")).to.equal("0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
    fc.assert(fc.property(anyText, (text) => isFolded(foldV1(text))));
  });

  it("parses folded identity keys and rejects anything else", () => {
    expect(parseIdentityKey("MOONBADGER::BADGER")).to.deep.equal({
      normalizedName: "MOONBADGER",
      normalizedTicker: "BADGER",
    });
    expect(parseIdentityKey("moonbadger::badger")).to.equal(null);
    expect(parseIdentityKey("MOONBADGER:BADGER")).to.equal(null);
    expect(parseIdentityKey("A::B::C")).to.equal(null);
    fc.assert(
      fc.property(anyText, anyText, (name, ticker) => {
        const parsed = parseIdentityKey(identityKey(name, ticker));
        expect(parsed).to.deep.equal({ normalizedName: foldV1(name), normalizedTicker: foldV1(ticker) });
      }),
    );
  });
});
