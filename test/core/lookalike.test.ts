import { expect } from "chai";
import fc from "fast-check";
import { identityKey } from "../../core/fold";
import {
  ASCII_LOOKALIKES,
  asciiLookalikeFold,
  CONFUSABLES_UNICODE_VERSION,
  lookalikeKey,
  lookalikeKeyOfIdentity,
  lookalikeText,
  skeleton,
} from "../../core/lookalike";

const FOLDED_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ269";
const folded = fc.string({ unit: fc.constantFrom(...FOLDED_ALPHABET), minLength: 1, maxLength: 24 });

/** A copy and the protected identity it must look like: [name, ticker, protected identity key]. */
const COPIES: readonly [string, string, string, string][] = [
  ["Cyrillic е and р", "pеpе", "PEPE", "PEPE::PEPE"],
  ["all-Cyrillic ticker", "Pepe", "РЕРЕ", "PEPE::PEPE"],
  ["Greek capitals", "ΡΕΡΕ coin", "PEPE", "PEPECOIN::PEPE"],
  ["full-width", "ＭｏｏｎＢａｄｇｅｒ", "ＢＡＤＧＥＲ", "MOONBADGER::BADGER"],
  ["mathematical bold", "𝐌𝐨𝐨𝐧 Badger", "𝐁𝐀𝐃𝐆𝐄𝐑", "MOONBADGER::BADGER"],
  ["mathematical script and fraktur", "𝓜𝓸𝓸𝓷 𝔅𝔞𝔡𝔤𝔢𝔯", "BADGER", "MOONBADGER::BADGER"],
  ["mixed Latin, Cyrillic and Greek", "Mοοn Bаdgеr", "BADGΕR", "MOONBADGER::BADGER"],
  ["accents", "Pépé", "PÉPÉ", "PEPE::PEPE"],
  ["rn for m", "rnoon cat", "RNCAT", "MOONCAT::MCAT"],
  ["vv for w", "vvhale", "VVHL", "WHALE::WHL"],
  ["cl for d", "cloge", "CLOGE", "DOGE::DOGE"],
  ["l for I", "PlXEL", "PlX", "PIXEL::PIX"],
  ["Cyrillic palochka for l", "Pӏay", "PӏAY", "PLAY::PLAY"],
  // Lowercase letters whose prototype is a small capital the fold would drop read as their capitals.
  ["lowercase Cyrillic т, к, м, н, в", "тоkеn", "мвн", "TOKEN::MBH"],
  ["lowercase Cyrillic ь for b", "ьaby", "ьaby", "BABY::BABY"],
];

describe("core/lookalike: look-alike keys", () => {
  it(`records the confusables data's Unicode version (${CONFUSABLES_UNICODE_VERSION})`, () => {
    expect(CONFUSABLES_UNICODE_VERSION).to.equal("13.0.0");
  });

  for (const [what, name, ticker, protectedKey] of COPIES) {
    it(`${what}: ${name} / ${ticker} looks like ${protectedKey} though its v1 key differs`, () => {
      expect(identityKey(name, ticker)).to.not.equal(protectedKey);
      expect(lookalikeKey(name, ticker)).to.equal(lookalikeKeyOfIdentity(protectedKey));
    });
  }

  const DISTINCT: readonly [string, string, string, string][] = [
    ["a plain distinct name", "Moon Cat", "MCAT", "MOONBADGER::BADGER"],
    ["one letter apart", "Pepa", "PEPA", "PEPE::PEPE"],
    ["a Cyrillic name in its own script", "Привет", "МИР", "PEPE::PEPE"],
    ["a Greek name in its own script", "Αθήνα", "ΑΘΗ", "MOONBADGER::BADGER"],
    ["the name itself", "PEPE", "PEPE", "PEPECOIN::PEPE"],
  ];
  for (const [what, name, ticker, otherKey] of DISTINCT) {
    it(`not a look-alike: ${what} (${name} / ${ticker} against ${otherKey})`, () => {
      expect(lookalikeKey(name, ticker)).to.not.equal(lookalikeKeyOfIdentity(otherKey));
    });
  }

  it("case never decides whether a Cyrillic copy is flagged: lowercase and capitals give one key", () => {
    for (const [lower, upper] of [
      ["тоkеn", "ТОKЕN"],
      ["мооn", "МООN"],
      ["вaнk", "ВAНK"],
    ] as const) {
      expect(lookalikeText(lower), lower).to.equal(lookalikeText(upper));
      expect(lookalikeText(lower), lower).to.have.length(lower.length);
    }
    // A lowercase letter that reads as a Latin letter of its own keeps it (Cyrillic г is r, its capital is none).
    expect(lookalikeText("гock")).to.equal("ROCK");
  });

  it("Cyrillic and Greek names in their own script keep distinct look-alike keys", () => {
    expect(lookalikeKey("Привет", "МИР")).to.not.equal(lookalikeKey("Пока", "МИР"));
  });

  it("the skeleton maps homoglyphs to their prototype and keeps plain ASCII letters", () => {
    expect(skeleton("ΡΕΡΕ")).to.equal("PEPE");
    expect(skeleton("pеpе")).to.equal("pepe");
    expect(skeleton("Pepe")).to.equal("Pepe");
    expect(skeleton("CI m 1"), "ASCII is fold v1's and the ASCII table's").to.equal("CI m 1");
  });

  it("applies the ASCII table in order, every occurrence, left to right", () => {
    expect(ASCII_LOOKALIKES.map(([from, to]) => `${from}>${to}`)).to.deep.equal([
      "RN>M",
      "VV>W",
      "CL>D",
      "L>I",
    ]);
    expect(asciiLookalikeFold("CORNVVCLALL")).to.equal("COMWDAII");
    expect(asciiLookalikeFold("RNN")).to.equal("MN");
  });

  it("a folded key's look-alike key is the ASCII table applied to it (what the database stores)", () => {
    for (const char of FOLDED_ALPHABET) expect(lookalikeText(char), char).to.equal(asciiLookalikeFold(char));
    fc.assert(
      fc.property(folded, folded, (name, ticker) => {
        expect(lookalikeKey(name, ticker)).to.equal(lookalikeKeyOfIdentity(`${name}::${ticker}`));
      }),
    );
  });

  it("is idempotent: a look-alike key is its own look-alike key", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 12 }), (name, ticker) => {
        const key = lookalikeKey(name, ticker);
        expect(lookalikeKeyOfIdentity(key)).to.equal(key);
      }),
    );
  });
});
