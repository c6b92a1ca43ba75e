// Fold v1 on-chain against the official vectors (test/vectors/fold-v1.json) and against core/fold.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import fc from "fast-check";
import { decodeFunctionResult, encodeFunctionData, type Hex, keccak256, toHex } from "viem";
import { identityRegistryAbi } from "../../contracts/abi/identityRegistry";
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

  it("hashes like core/fold on every path: letters only, a few other bytes, many, and more than one word", async () => {
    const { registry } = fixture;
    const letter = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
    // Every byte class next to the letters' range, and those the fold keeps or drops.
    const other = fc.constantFrom(..." $@0123456789`[{\x7f-_.!é\u0000\u001f\u00c1😀");
    const word = (otherWeight: number, maxLength: number) =>
      fc.string({
        unit: fc.oneof({ arbitrary: letter, weight: 8 }, { arbitrary: other, weight: otherWeight }),
        minLength: 1,
        maxLength,
      });
    const input = fc.oneof(word(0, 33), word(1, 33), word(8, 33), word(2, 80), word(1, 12));
    const hashOf = (text: string) => keccak256(toHex(foldV1(text)));
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(input, async (text) => {
        const folded = foldV1(text);
        // As the name beside a valid ticker, and as the ticker beside a valid name.
        if (folded.length >= 1 && folded.length <= 64) {
          const [nameHash] = await registry.read.identityHashes([text, "AB"]);
          expect(nameHash, text).to.equal(hashOf(text));
          checked++;
        }
        if (folded.length >= 2 && folded.length <= 10) {
          const [, tickerHash] = await registry.read.identityHashes(["A", text]);
          expect(tickerHash, text).to.equal(hashOf(text));
        }
      }),
      { numRuns: 400 },
    );
    expect(checked).to.be.above(300);
    // The word boundary itself, with and without other bytes.
    for (const name of [
      "A".repeat(31),
      "a".repeat(32),
      "A".repeat(33),
      `${"a".repeat(31)}1`,
      `1${"a".repeat(31)}`,
    ]) {
      const [nameHash] = await registry.read.identityHashes([name, "AB"]);
      expect(nameHash).to.equal(hashOf(name));
    }
  });

  it("never reads past a string's end, even when its padding is not zero (non-canonical calldata)", async () => {
    const { registry, publicClient } = fixture;
    const text = fc.string({ unit: "binary-ascii", minLength: 1, maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(text, async (name) => {
        const folded = foldV1(name);
        fc.pre(folded.length >= 1 && folded.length <= 64);
        const data = withNonZeroPadding(
          encodeFunctionData({
            abi: identityRegistryAbi,
            functionName: "identityHashes",
            args: [name, "AB"],
          }),
        );
        const { data: result } = await publicClient.call({ to: registry.address, data });
        const [nameHash] = decodeFunctionResult({
          abi: identityRegistryAbi,
          functionName: "identityHashes",
          data: result ?? "0x",
        });
        expect(nameHash).to.equal(keccak256(toHex(folded)));
      }),
      { numRuns: 120 },
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

/** The calldata with the first string argument's zero padding replaced by "A" bytes, which fold v1 keeps. */
function withNonZeroPadding(data: Hex): Hex {
  const bytes = Buffer.from(data.slice(2), "hex");
  const offset = 4 + Number(bytes.readBigUInt64BE(4 + 24));
  const length = Number(bytes.readBigUInt64BE(offset + 24));
  const start = offset + 32 + length;
  const end = offset + 32 + Math.ceil(length / 32) * 32;
  bytes.fill(0x41, start, end);
  return `0x${bytes.toString("hex")}`;
}
