// Each role run alone (its compiled bundle) validates its settings through config/ before it starts anything: a bad setting stops
// the process with exit code 2 and a message naming it (no database or chain is touched).
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { compiledRole } from "../support/compiledRoles";

const ROOT = join(__dirname, "..", "..");
const MASTER_KEY = Buffer.alloc(32, 7).toString("base64");
/** Nothing listens there: a role that got past its settings would fail later with another message. */
const UNREACHABLE_DATABASE = "postgres://nobody@127.0.0.1:1/none";

function runRole(entry: string, env: Record<string, string>): { status: number | null; stderr: string } {
  const result = spawnSync(process.execPath, ["--enable-source-maps", compiledRole(entry)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", DATABASE_URL: UNREACHABLE_DATABASE, METRICS_PORT: "0", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, stderr: result.stderr };
}

describe("config: roles refuse to start with a bad setting", function () {
  this.timeout(120_000);

  it("indexer:solana names a bad SOLANA_POLL_INTERVAL_MS", () => {
    const { status, stderr } = runRole("indexer/solana/main.ts", { SOLANA_POLL_INTERVAL_MS: "fast" });
    expect(stderr)
      .to.match(/indexer:solana could not start/)
      .and.match(/SOLANA_POLL_INTERVAL_MS /);
    expect(status).to.equal(2);
  });

  it("indexer:evm names a bad EVM_VIEWS_SCHEMA and PONDER_PORT", () => {
    const { status, stderr } = runRole("indexer/evm/main.ts", {
      EVM_VIEWS_SCHEMA: "views; drop",
      PONDER_PORT: "99999",
    });
    expect(stderr)
      .to.match(/EVM_VIEWS_SCHEMA /)
      .and.match(/PONDER_PORT /);
    expect(status).to.equal(2);
  });

  it("indexer:evm refuses an invalid deployment manifest, naming the file and the field", () => {
    const manifest = join(mkdtempSync(join(tmpdir(), "role-manifest-")), "manifest.json");
    writeFileSync(manifest, JSON.stringify({ evm: [{ chain: "base", chainId: 8453 }] }));
    const { status, stderr } = runRole("indexer/evm/main.ts", { DEPLOYMENT_MANIFEST: manifest });
    expect(stderr).to.contain(manifest).and.contain("evm[0].rpcUrl is missing");
    expect(status).to.equal(2);
  });

  it("the worker names a missing DATABASE_URL", () => {
    const { status, stderr } = runRole("worker/main.ts", { DATABASE_URL: "", MASTER_KEY });
    expect(stderr).to.match(/DATABASE_URL is required: worker runs alone only against Postgres/);
    expect(status).to.equal(2);
  });

  it("the API role names a bad PORT, and a missing MASTER_KEY beside DATABASE_URL", () => {
    const badPort = runRole("api/main.ts", { PORT: "http", MASTER_KEY });
    expect(badPort.stderr)
      .to.match(/api could not start/)
      .and.match(/PORT /);
    expect(badPort.status).to.equal(2);
    const noKey = runRole("api/main.ts", {});
    expect(noKey.stderr).to.match(/MASTER_KEY is required when DATABASE_URL is set/);
    expect(noKey.status).to.equal(2);
  });
});
