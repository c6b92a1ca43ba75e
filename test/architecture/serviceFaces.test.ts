// Route modules reach the use cases only through each context's public face (services/<context>/index.ts, or
// the composition root services/index.ts) and never hold a pool: no storage/, no pg (docs/architecture.md).
import { join } from "node:path";
import { expect } from "chai";
import { type ImportEdge, importsOf, ROOT, sourceFiles } from "./importGraph";

const SERVICE_FACE = /^services\/([a-z]+\/)?index\.ts$/;

function faceViolations(edges: readonly ImportEdge[]): string[] {
  return edges
    .filter((edge) =>
      edge.kind === "package"
        ? edge.to === "pg"
        : edge.to.startsWith("storage/") || (edge.to.startsWith("services/") && !SERVICE_FACE.test(edge.to)),
    )
    .map(
      (edge) => `${edge.from}:${edge.line} imports ${edge.to}: routes use services/<context>/index.ts only`,
    );
}

describe("architecture: routes use the services' public faces", () => {
  it("finds a route reaching into a context (the check itself works)", () => {
    const inside: ImportEdge = {
      from: "api/routes/x.ts",
      to: "services/identity/validation.ts",
      kind: "file",
      line: 1,
    };
    const face: ImportEdge = {
      from: "api/routes/x.ts",
      to: "services/identity/index.ts",
      kind: "file",
      line: 2,
    };
    expect(faceViolations([inside, face])).to.have.length(1);
  });

  it("no route module imports a context's internals, storage/ or pg", () => {
    const edges = sourceFiles()
      .filter((file) => file.startsWith("api/routes/"))
      .flatMap((file) => importsOf(join(ROOT, file)));
    expect(edges.some((edge) => SERVICE_FACE.test(edge.to))).to.equal(true);
    expect(faceViolations(edges)).to.deep.equal([]);
  });
});
