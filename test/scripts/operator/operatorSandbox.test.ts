import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { parseConfig } from "../../../config";
import type { OperatorContext } from "../../../scripts/operator/command";
import { commands } from "../../../scripts/operator/commands/sandbox";
import { createTestDatabase, type TestDatabase } from "../../support/testDatabase";

const restore = commands.find((command) => command.name === "sandbox:restore");
const BY = ["--actor", "ops-bob", "--reason", "demo reset"];
const EVM = {
  chain: "base",
  chainId: 8453,
  rpcUrl: "https://base.example",
  registry: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  priceFeed: "0x71041dddad3595F9CEd3DcCFBe3D1F4b0a16Bb70",
  deployBlock: 123,
};

describe("operator CLI: sandbox:restore", () => {
  let db: TestDatabase;
  let lines: string[];
  const context = (env: Record<string, string>): OperatorContext => ({
    pool: db.pool,
    config: parseConfig(env),
    masterKey: Buffer.alloc(32, 7),
    out: (line) => lines.push(line),
  });

  before(async () => {
    db = await createTestDatabase();
  });
  beforeEach(() => {
    lines = [];
  });
  after(async () => db.close());

  it("restores the scenarios on the chains of DEPLOYMENT_MANIFEST", async () => {
    const dir = mkdtempSync(join(tmpdir(), "operator-manifest-"));
    const manifest = join(dir, "production.json");
    writeFileSync(manifest, JSON.stringify({ evm: [EVM], solana: [] }));
    // DATA_DIR holds no manifest: only DEPLOYMENT_MANIFEST names the chain.
    await restore?.run(BY, context({ DEPLOYMENT_MANIFEST: manifest, DATA_DIR: dir }));
    expect(lines[0]).to.match(/^Restored \d+ scenarios on base\.$/);
  });

  it("refuses an invalid DEPLOYMENT_MANIFEST, naming the field, rather than restoring elsewhere", async () => {
    const dir = mkdtempSync(join(tmpdir(), "operator-manifest-"));
    const manifest = join(dir, "production.json");
    writeFileSync(manifest, JSON.stringify({ evm: [{ ...EVM, registry: "0x12" }] }));
    let refused: Error | undefined;
    await restore
      ?.run(BY, context({ DEPLOYMENT_MANIFEST: manifest, DATA_DIR: dir }))
      .catch((error: Error) => {
        refused = error;
      });
    expect(refused?.message).to.contain(manifest).and.contain("evm[0].registry");
  });
});
