// The browser-safe entries run in browsers: everything they reach through imports must use no Node built-in
// module and no Node-only global. They are the decision verifier (core/decision/verifyNoble.ts) and the
// partner SDK's entry (sdk/src/index.ts), whose only runtime package is @noble/ed25519.
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { expect } from "chai";
import { ROOT, reachableFrom, withoutComments } from "./importGraph";

const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

const ENTRIES = [
  {
    entry: "core/decision/verifyNoble.ts",
    reaches: ["core/decision/verification.ts", "core/decision/canonical.ts", "core/encoding/base64.ts"],
  },
  {
    entry: "sdk/src/index.ts",
    reaches: [
      "sdk/src/guard.ts",
      "sdk/src/webhook.ts",
      "sdk/src/client.ts",
      "sdk/src/generated/openapi.ts",
      "core/decision/verifyNoble.ts",
    ],
  },
];

for (const { entry, reaches } of ENTRIES) {
  describe(`browser-safe entry ${entry}`, () => {
    const graph = reachableFrom(entry);

    it("reaches the files it is made of (so the walk is real)", () => {
      expect(graph.files).to.include.members(reaches);
    });

    it("imports no Node built-in module, directly or indirectly; its only package is @noble/ed25519", () => {
      expect(graph.packages.filter((name) => NODE_BUILTINS.has(name))).to.deep.equal([]);
      expect(graph.packages).to.deep.equal(["@noble/ed25519"]);
    });

    it("uses no Node-only globals (Buffer, process, require)", () => {
      for (const file of graph.files) {
        const code = withoutComments(readFileSync(join(ROOT, file), "utf8"));
        expect(code, file).to.not.match(/\bBuffer\b|\bprocess\.|\brequire\(/);
      }
    });
  });
}

describe("the public page's browser script (api/web/client/lookup.ts)", () => {
  const graph = reachableFrom("api/web/client/lookup.ts");

  it("folds with core/fold's own files, the server's fold", () => {
    expect(graph.files).to.include.members(["core/fold/fold.ts", "core/fold/bounds.ts"]);
    expect(
      graph.files.every((file) => file.startsWith("core/fold/") || file.startsWith("api/web/client/")),
    ).to.equal(true);
  });

  it("imports no package and uses no Node-only globals", () => {
    expect(graph.packages).to.deep.equal([]);
    for (const file of graph.files) {
      const code = withoutComments(readFileSync(join(ROOT, file), "utf8"));
      expect(code, file).to.not.match(/\bBuffer\b|\bprocess\.|\brequire\(/);
    }
  });
});
