// Fold v1 on-chain against the official vectors (test/vectors/fold-v1.json) and against core/fold.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import fc from "fast-check";
import { foldV1 } from "../../core/fold";
import { expectRevert, type RegistryFixture, registryFixture } from "./fixture";

interface FoldVector {
  id: string;
  category: string;
  name: string;
  ticker: string;
  normalizedName: string;
  normalizedTicker: string;
  nameHash: string;
  tickerHash: string;
  valid: boolean;
  reason: string;
  onchainError: null | "BadLength";
}

const VECTORS_PATH = join(__dirname, "../vectors/fold-v1.json");
const vectors = (JSON.parse(readFileSync(VECTORS_PATH, "utf8")) as { vectors: FoldVector[] }).vectors;

describe("IdentityRegistry fold v1 (shared vectors)", () => {
  let fixture: RegistryFixture;

  before(async () => {
    fixture = await registryFixture();
  });

  it("covers valid and BadLength vectors", () => {
    expect(vectors.filter((vector) => vector.valid)).to.not.be.empty;
    expect(vectors.filter((vector) => vector.onchainError === "BadLength")).to.not.be.empty;
  });

  for (const vector of vectors) {
    it(`${vector.id} (${vector.category}): ${vector.valid ? "hashes" : vector.onchainError}`, async () => {
      const { registry } = fixture;
      expect(await registry.read.fold([vector.name])).to.equal(vector.normalizedName);
      expect(await registry.read.fold([vector.ticker])).to.equal(vector.normalizedTicker);
      if (vector.onchainError === "BadLength") {
        expect(vector.valid).to.equal(false);
        await expectRevert(registry.read.identityHashes([vector.name, vector.ticker]), "BadLength");
      } else {
        expect(vector.valid).to.equal(true);
        const [nameHash, tickerHash] = await registry.read.identityHashes([vector.name, vector.ticker]);
        expect(nameHash).to.equal(vector.nameHash);
        expect(tickerHash).to.equal(vector.tickerHash);
      }
    });
  }

  it("agrees with core/fold on arbitrary Unicode, control and ASCII input", async () => {
    const { registry } = fixture;
    const input = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 40 }),
      fc.string({ unit: "binary", maxLength: 40 }),
      fc.string({ maxLength: 80 }),
    );
    await fc.assert(
      fc.asyncProperty(input, async (text) => {
        expect(await registry.read.fold([text])).to.equal(foldV1(text));
      }),
      { numRuns: 150 },
    );
  });

  it("applies the bounds (name 1-64, ticker 2-10) after folding", async () => {
    const { registry } = fixture;
    await expectRevert(registry.read.identityHashes(["A".repeat(65), "AB"]), "BadLength");
    await expectRevert(registry.read.identityHashes(["A", "ABCDEFGHIJK"]), "BadLength");
    await expectRevert(registry.read.identityHashes(["A", "A"]), "BadLength");
    await expectRevert(registry.read.identityHashes(["!!!", "AB"]), "BadLength");
    // Dropped characters do not count towards the bound.
    const [nameHash] = await registry.read.identityHashes([`${"a-".repeat(64)}`, "ab"]);
    const [expected] = await registry.read.identityHashes(["A".repeat(64), "AB"]);
    expect(nameHash).to.equal(expected);
  });
});
