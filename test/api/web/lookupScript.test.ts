// The committed browser script is exactly what the sources build (npm run build:web), so the page never folds
// with a stale copy of core/fold.
import { readFileSync } from "node:fs";
import { expect } from "chai";
import { buildLookupScript, LOOKUP_SCRIPT } from "../../../scripts/web/build";

describe("api/web/assets/lookup.js", () => {
  it("is what `npm run build:web` makes from api/web/client and core/fold", async () => {
    const committed = readFileSync(LOOKUP_SCRIPT, "utf8");
    expect(
      committed === (await buildLookupScript()),
      "stale: run `npm run build:web` and commit the file",
    ).to.equal(true);
  });

  it("stays small: the page budget leaves it under 4 KB", () => {
    expect(readFileSync(LOOKUP_SCRIPT).length).to.be.below(4 * 1024);
  });
});
