// Every official fold v1 vector through the program's fold_preview view: the on-chain fold, both keccak keys
// and the BadLength refusals must equal the published vectors.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { expectProgramError } from "./support/errors";
import { deployedRegistry, type Fixture } from "./support/fixture";

interface FoldVector {
  id: string;
  name: string;
  ticker: string;
  normalizedName: string;
  normalizedTicker: string;
  nameHash: string;
  tickerHash: string;
  valid: boolean;
  onchainError: null | "BadLength";
}

const vectors: FoldVector[] = JSON.parse(
  readFileSync(join(__dirname, "..", "vectors", "fold-v1.json"), "utf8"),
).vectors;
const hex = (bytes: number[]) => `0x${Buffer.from(bytes).toString("hex")}`;

describe("program: fold v1 vectors through fold_preview", () => {
  let fixture: Fixture;
  before(async () => {
    fixture = await deployedRegistry();
  });

  it("covers valid and invalid vectors", () => {
    expect(vectors.filter((vector) => vector.valid)).to.not.be.empty;
    expect(vectors.filter((vector) => vector.onchainError === "BadLength")).to.not.be.empty;
  });

  for (const vector of vectors) {
    it(`${vector.id}: ${vector.valid ? "folds like the vector" : "is refused with BadLength"}`, async () => {
      const view = fixture.program.methods.foldPreview(vector.name, vector.ticker).view();
      if (vector.onchainError === "BadLength") {
        await expectProgramError(view, "BadLength");
        return;
      }
      const preview = await view;
      expect(preview.name).to.equal(vector.normalizedName);
      expect(preview.ticker).to.equal(vector.normalizedTicker);
      expect(hex(preview.nameHash)).to.equal(vector.nameHash);
      expect(hex(preview.tickerHash)).to.equal(vector.tickerHash);
    });
  }
});
