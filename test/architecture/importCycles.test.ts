// No import cycles among production files, type-only imports included: a cycle ties its files into one unit
// that can only be read, typed and changed together (api/app.ts and the route modules once were one).
import { join } from "node:path";
import { expect } from "chai";
import { importCycles } from "./importCycles";
import { type ImportEdge, importsOf, ROOT, sourceFiles } from "./importGraph";

const isProduction = (file: string) => !/^(test|bench)\//.test(file) && file.includes("/");
const edge = (from: string, to: string): ImportEdge => ({ from, to, kind: "file", line: 1 });

describe("architecture: no import cycles", () => {
  it("finds a deliberate cycle, and none in a chain of imports (the check itself works)", () => {
    const found = importCycles([
      edge("a.ts", "b.ts"),
      edge("b.ts", "c.ts"),
      edge("c.ts", "a.ts"),
      edge("c.ts", "d.ts"),
    ]);
    expect(found).to.deep.equal([
      { files: ["a.ts", "b.ts", "c.ts"], cycle: ["a.ts", "b.ts", "c.ts", "a.ts"] },
    ]);
    expect(importCycles([edge("a.ts", "b.ts"), edge("b.ts", "c.ts"), edge("a.ts", "c.ts")])).to.deep.equal(
      [],
    );
    expect(importCycles([edge("a.ts", "a.ts")])).to.have.length(1);
  });

  it("no production file reaches itself through its imports", () => {
    const edges = sourceFiles()
      .filter(isProduction)
      .flatMap((file) => importsOf(join(ROOT, file)));
    const cycles = importCycles(edges).map(
      ({ files, cycle }) =>
        `${cycle.join(" -> ")} (one of ${files.length} files in a cycle: ${files.join(", ")})`,
    );
    expect(cycles).to.deep.equal([]);
  });
});
