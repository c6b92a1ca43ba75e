// The layering rules of docs/architecture.md, checked against the real import graph: a file that imports
// across a rule fails here with the file, the line and the rule it breaks.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { type ImportEdge, importsOf, ROOT, sourceFiles, withoutComments } from "./importGraph";

/** Top-level folders that are layers, and the layers each may import (itself included). */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  core: ["core"],
  config: ["core", "config"],
  net: ["core", "net"],
  // Logs, metrics and the probe server every role shares.
  telemetry: ["core", "config", "net", "telemetry"],
  storage: ["core", "config", "net", "telemetry", "storage"],
  contracts: ["core", "contracts"],
  programs: ["core", "programs"],
  chains: ["core", "config", "net", "chains", "contracts", "programs"],
  services: ["core", "config", "telemetry", "storage", "chains", "services"],
  api: [
    "core",
    "config",
    "net",
    "telemetry",
    "storage",
    "chains",
    "services",
    "api",
    "contracts",
    "programs",
  ],
  indexer: ["core", "config", "telemetry", "storage", "chains", "indexer", "contracts", "programs"],
  worker: ["core", "config", "telemetry", "storage", "chains", "services", "worker"],
  // The partner SDK bundles the browser-safe part of core; the examples use the SDK as its package only.
  sdk: ["core", "sdk"],
  examples: ["examples"],
};
/** Packages a layer must never import, whatever it may import of the project. */
const FORBIDDEN_PACKAGES: Readonly<Record<string, readonly string[]>> = {
  services: ["express", "hono"],
  core: ["pg", "express", "pino", "prom-client"],
  sdk: ["pg", "express", "hono"],
};
/** Files that may read process.env: configuration and the role entry points (one per process). */
const ENVIRONMENT_READERS = [
  /^config\//,
  /^scripts\//,
  /^(api|worker)\/main\.ts$/,
  /^examples\/[^/]+\/main\.ts$/,
  /^indexer\/(evm|solana)\/main\.ts$/,
  // Ponder's app runs in its own child process; the EVM indexer role hands it its settings this way.
  /^indexer\/evm\/(ponder\.config\.ts|src\/)/,
];

const layerOf = (file: string): string => file.split("/")[0] as string;
const isProduction = (file: string) => !/^(test|bench)\//.test(file) && file.includes("/");

function violations(edges: readonly ImportEdge[]): string[] {
  const found: string[] = [];
  for (const edge of edges) {
    const from = layerOf(edge.from);
    if (edge.kind === "file") {
      const to = layerOf(edge.to);
      if (to === "scripts" && from !== "scripts") {
        found.push(
          `${edge.from}:${edge.line} imports ${edge.to}: only scripts/, tests and benches import scripts/`,
        );
        continue;
      }
      const allowed = MAY_IMPORT[from];
      if (allowed === undefined || allowed.includes(to)) continue;
      found.push(
        `${edge.from}:${edge.line} imports ${edge.to}: ${from}/ may import only ${allowed.join(", ")}`,
      );
    } else if (FORBIDDEN_PACKAGES[from]?.some((name) => edge.to === name || edge.to.startsWith(`${name}/`))) {
      found.push(`${edge.from}:${edge.line} imports the package ${edge.to}: ${from}/ never does`);
    }
  }
  return found;
}

describe("architecture: layering rules (docs/architecture.md)", () => {
  const files = sourceFiles().filter(isProduction);
  const edges = files.flatMap((file) => importsOf(join(ROOT, file)));

  it("reads the real import graph (so the rules judge something)", () => {
    expect(edges.some((e) => e.from.startsWith("api/") && e.to.startsWith("services/"))).to.equal(true);
    expect(edges.some((e) => e.from.startsWith("services/") && e.to.startsWith("core/"))).to.equal(true);
  });

  it("finds a deliberately bad import (the rule check itself works)", () => {
    const bad: ImportEdge = { from: "services/identity/x.ts", to: "api/app.ts", kind: "file", line: 1 };
    expect(violations([bad])).to.have.length(1);
  });

  it("no production file imports across a layer rule", () => {
    expect(violations(edges)).to.deep.equal([]);
  });

  it("only configuration and role entry points read process.env", () => {
    const readers = files.filter(
      (file) =>
        !ENVIRONMENT_READERS.some((rule) => rule.test(file)) &&
        /\bprocess\.env\b/.test(withoutComments(readFileSync(join(ROOT, file), "utf8"))),
    );
    expect(readers).to.deep.equal([]);
  });
});
