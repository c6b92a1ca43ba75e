// The compile step every local chain start asks for: Hardhat runs only when the sources differ from the ones the
// artifacts were compiled from (the stamp), and a run leaves the stamp of what it compiled.
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { expect } from "chai";
import { compileContracts, SOURCES_STAMP } from "../../../scripts/evm/artifacts";

describe("scripts: contract artifacts compile step", function () {
  this.timeout(120_000);

  it("compiles when the stamp does not match the sources, and leaves the stamp alone when it does", async () => {
    mkdirSync(dirname(SOURCES_STAMP), { recursive: true });
    writeFileSync(SOURCES_STAMP, "sources of another checkout");
    await compileContracts();
    const stamp = readFileSync(SOURCES_STAMP, "utf8");
    expect(stamp).to.match(/^[0-9a-f]{64}$/);

    const written = statSync(SOURCES_STAMP).mtimeMs;
    await compileContracts();
    expect(readFileSync(SOURCES_STAMP, "utf8")).to.equal(stamp);
    expect(statSync(SOURCES_STAMP).mtimeMs, "no compile, no new stamp").to.equal(written);
  });
});
