import { readFileSync } from "node:fs";
import { expect } from "chai";
import { foldedHash, foldedHashBytes, foldV1, identityKey, normalizeIdentity } from "../../core/fold";
import { VECTORS_FILE, vectorsFileText } from "../vectors/generate-fold-v1";

interface FoldVector {
  id: string;
  category: string;
  name: string;
  ticker: string;
  normalizedName: string;
  normalizedTicker: string;
  identityKey: string;
  nameHash: string;
  tickerHash: string;
  valid: boolean;
  reason: string;
  onchainError: string | null;
}

const fileText = readFileSync(VECTORS_FILE, "utf8");
const file = JSON.parse(fileText) as {
  version: number;
  vectors: FoldVector[];
};

const REQUIRED_CATEGORIES = [
  "case",
  "whitespace",
  "punctuation",
  "dollar_at",
  "digits",
  "emoji",
  "zero_width",
  "full_width",
  "cyrillic_lookalike",
  "greek_lookalike",
  "accented",
  "folds_to_empty",
  "name_bounds",
  "ticker_bounds",
  "sandbox_seed",
];

const SEEDED_SANDBOX_KEYS = [
  "SANDBOXFOX::SFOX",
  "MOONBADGER::BADGER",
  "IRONWHALE::IRON",
  "DUSKRAVEN::DUSK",
  "VAMPCOIN::VAMP",
  "CLEARSKY::CLEAR",
  "NIGHTSHADE::SHADE",
];

describe("fold v1 official vectors (test/vectors/fold-v1.json)", () => {
  it("is exactly what the hand-written cases generate (edit generate-fold-v1.ts, then run it)", () => {
    expect(fileText === vectorsFileText(), "fold-v1.json is out of date or was edited by hand").to.equal(
      true,
    );
  });

  it("is version 1 with at least 80 vectors covering every required category", () => {
    expect(file.version).to.equal(1);
    expect(file.vectors.length).to.be.at.least(80);
    const categories = new Set(file.vectors.map((vector) => vector.category));
    for (const category of REQUIRED_CATEGORIES) expect(categories, category).to.include(category);
  });

  it("covers every digit, each bound at, below and above, and all seven sandbox identities", () => {
    const names = file.vectors.map((vector) => vector.name).join("");
    for (const digit of "0123456789") expect(names).to.include(digit);
    const nameLengths = new Set(file.vectors.map((vector) => vector.normalizedName.length));
    const tickerLengths = new Set(file.vectors.map((vector) => vector.normalizedTicker.length));
    for (const length of [0, 1, 2, 63, 64, 65])
      expect(nameLengths, `name length ${length}`).to.include(length);
    for (const length of [0, 1, 2, 3, 9, 10, 11])
      expect(tickerLengths, `ticker length ${length}`).to.include(length);
    const keys = new Set(file.vectors.map((vector) => vector.identityKey));
    for (const key of SEEDED_SANDBOX_KEYS) expect(keys, key).to.include(key);
  });

  for (const vector of file.vectors) {
    it(`${vector.id} (${vector.category})`, () => {
      expect(foldV1(vector.name), "normalizedName").to.equal(vector.normalizedName);
      expect(foldV1(vector.ticker), "normalizedTicker").to.equal(vector.normalizedTicker);
      expect(identityKey(vector.name, vector.ticker), "identityKey").to.equal(vector.identityKey);
      expect(foldedHash(vector.normalizedName), "nameHash").to.equal(vector.nameHash);
      expect(foldedHash(vector.normalizedTicker), "tickerHash").to.equal(vector.tickerHash);
      expect(Buffer.from(foldedHashBytes(vector.normalizedName)).toString("hex")).to.equal(
        vector.nameHash.slice(2),
      );
      const normalized = normalizeIdentity(vector.name, vector.ticker);
      expect(normalized).to.deep.equal({
        normalizedName: vector.normalizedName,
        normalizedTicker: vector.normalizedTicker,
        identityKey: vector.identityKey,
        nameHash: vector.nameHash,
        tickerHash: vector.tickerHash,
        valid: vector.valid,
        reason: vector.reason,
        onchainError: vector.onchainError,
      });
    });
  }
});
