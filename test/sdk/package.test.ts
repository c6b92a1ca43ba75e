// The SDK as published: built (scripts/sdk/build.ts), installed by its package name into a scratch project,
// imported by Node's own ESM loader through the exports map, and type-checked by a consumer on
// moduleResolution nodenext (the strictest resolver) against the emitted declarations; its testing entry
// loading the programs it carries. One build for every test: two test files building the one sdk/dist at once
// (a parallel run) would delete each other's files.
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect } from "chai";
import { buildSdk, SDK_DIR } from "../../scripts/sdk/build";
import { LOCAL_LAUNCHPAD_PROGRAM_ID } from "../../sdk/src/testing";

const ROOT = resolve(__dirname, "..", "..");

describe("sdk: the built package", function () {
  this.timeout(60_000);
  let project: string;

  before(async () => {
    await buildSdk();
    project = mkdtempSync(join(tmpdir(), "sdk-consumer-"));
    mkdirSync(join(project, "node_modules", "@identity-protection"), { recursive: true });
    symlinkSync(SDK_DIR, join(project, "node_modules", "@identity-protection", "sdk"));
    symlinkSync(join(ROOT, "node_modules", "@noble"), join(project, "node_modules", "@noble"));
    symlinkSync(join(ROOT, "node_modules", "litesvm"), join(project, "node_modules", "litesvm"));
    writeFileSync(join(project, "package.json"), JSON.stringify({ type: "module" }));
  });
  after(() => rmSync(project, { recursive: true, force: true }));

  it("has only @noble/ed25519 as a runtime dependency, and no node: import in its bundles", () => {
    const manifest = JSON.parse(readFileSync(join(SDK_DIR, "package.json"), "utf8"));
    expect(Object.keys(manifest.dependencies)).to.deep.equal(["@noble/ed25519"]);
    for (const file of ["index.js", "sdk.browser.js"]) {
      expect(readFileSync(join(SDK_DIR, "dist", file), "utf8"), file).to.not.match(/from\s*["']node:/);
    }
    expect(readFileSync(join(SDK_DIR, "dist", "sdk.browser.js"), "utf8")).to.not.match(/^import /m);
  });

  it("Node's ESM loader imports it by name and it verifies a published decision vector", () => {
    writeFileSync(
      join(project, "check.mjs"),
      `import { readFileSync } from "node:fs";
import { verifyDecision, createLaunchGuard } from "@identity-protection/sdk";
const vectors = JSON.parse(readFileSync(${JSON.stringify(join(ROOT, "test", "vectors", "decision-v1.json"))}, "utf8"));
const ok = vectors.cases.find((c) => c.id === "ok-allow");
const result = await verifyDecision(ok.decision, vectors.keys, { now: new Date(ok.options.now), expect: { environment: "production" } });
console.log(JSON.stringify({ result, guard: typeof createLaunchGuard }));
`,
    );
    const output = execFileSync(process.execPath, ["check.mjs"], { cwd: project, encoding: "utf8" });
    expect(JSON.parse(output)).to.deep.equal({ result: { valid: true, reason: "ok" }, guard: "function" });
  });

  it("its declarations type-check a consumer on moduleResolution nodenext, and catch a wrong field", () => {
    const consumer = (body: string) => {
      writeFileSync(
        join(project, "consumer.ts"),
        `import { createLaunchGuard, createServiceClient, type LaunchVerdict } from "@identity-protection/sdk";
const guard = createLaunchGuard({ baseUrl: "http://127.0.0.1:8787", apiKey: "k", launchpadId: "p", environment: "sandbox" });
const verdict: Promise<LaunchVerdict> = guard.check({ chain: "hardhat", name: "A", ticker: "AB", launcher: "0x0" });
const client = createServiceClient({ baseUrl: "http://127.0.0.1:8787" });
${body}
export { verdict, client };
`,
      );
      const tsc = require.resolve("typescript/bin/tsc");
      const compilerOptions = {
        noEmit: true,
        strict: true,
        module: "nodenext",
        moduleResolution: "nodenext",
        target: "es2022",
        lib: ["es2022", "dom"],
        types: [],
      };
      writeFileSync(
        join(project, "tsconfig.json"),
        JSON.stringify({ compilerOptions, files: ["consumer.ts"] }),
      );
      const args = ["-p", "tsconfig.json"];
      try {
        execFileSync(process.execPath, [tsc, ...args], { cwd: project, encoding: "utf8" });
        return "";
      } catch (error) {
        return String((error as { stdout?: string }).stdout);
      }
    };
    expect(consumer('client.get("/v1/keys").then((body) => body.keys.map((key) => key.kid));')).to.equal("");
    expect(consumer('client.get("/v1/keys").then((body) => body.keys.map((key) => key.nope));')).to.match(
      /Property 'nope' does not exist/,
    );
  });

  it("declares every entry's types, and its testing entry loads the programs it carries", () => {
    const manifest = JSON.parse(readFileSync(join(SDK_DIR, "package.json"), "utf8"));
    for (const [entry, target] of Object.entries(manifest.exports as Record<string, { types?: string }>)) {
      if (target.types !== undefined) expect(existsSync(join(SDK_DIR, target.types)), entry).to.equal(true);
    }
    writeFileSync(
      join(project, "check.mjs"),
      `import { LiteSVM } from "litesvm";
import { OnchainDecisionError } from "@identity-protection/sdk";
import { guardedLaunchInstructions } from "@identity-protection/sdk/onchain-guard/solana";
import { loadIdentityPrograms } from "@identity-protection/sdk/testing";
const programs = loadIdentityPrograms(new LiteSVM());
let refused = null;
try { guardedLaunchInstructions({ kind: "evm" }, {}); } catch (error) { refused = error instanceof OnchainDecisionError && error.reason; }
console.log(JSON.stringify({ launchpad: programs.launchpadProgram.toBase58(), refused }));
`,
    );
    const output = execFileSync(process.execPath, ["check.mjs"], { cwd: project, encoding: "utf8" });
    expect(JSON.parse(output)).to.deep.equal({
      launchpad: LOCAL_LAUNCHPAD_PROGRAM_ID.toBase58(),
      refused: "wrong_chain_kind",
    });
  });
});
