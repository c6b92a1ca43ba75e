// `npm run deploy:solana` against the project's local Solana RPC over HTTP, as a developer runs it against a local
// validator (the EVM counterpart: test/contracts/deploy.test.ts).
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { AnchorProvider, Wallet } from "@coral-xyz/anchor";
import { Connection, Keypair, PublicKey } from "@solana/web3.js";
import { expect } from "chai";
import type { DeploymentManifest } from "../../config/manifest";
import { REPO_ROOT } from "../../scripts/evm/artifacts";
import { type SolanaRpc, startSolanaRpc } from "../../scripts/localnet/solana/server";
import {
  configAddress,
  DEFAULT_MAX_CONFIDENCE_BPS,
  LOCAL_MIN_COMMITMENT_SLOTS,
  loadLocalProgramKeypair,
  registryProgram,
} from "../../scripts/solana/registry";
import { BPF_LOADER_UPGRADEABLE_ID } from "../../scripts/solana/upgradeable-loader";

/** Entries of earlier deployments: the CLI replaces the one of its chain and keeps the others. */
const STALE_SOLANA = {
  chain: "solana",
  rpcUrl: "http://127.0.0.1:1",
  programId: "11111111111111111111111111111111",
  priceAccount: "SysvarC1ock11111111111111111111111111111111",
  configAccount: "SysvarRent111111111111111111111111111111111",
  deploySlot: 1,
};
const EVM = {
  chain: "hardhat",
  chainId: 31337,
  rpcUrl: "http://127.0.0.1:8545",
  registry: `0x${"1".repeat(40)}`,
  priceFeed: `0x${"2".repeat(40)}`,
  deployBlock: 1,
};

/** Runs `npm run deploy:solana -- <args>`; resolves with its output whatever its exit code. */
async function deploySolana(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      "npm",
      ["run", "--silent", "deploy:solana", "--", ...args],
      { cwd: REPO_ROOT },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function keypairFile(directory: string, name: string): string {
  const path = join(directory, `${name}.json`);
  writeFileSync(path, JSON.stringify(Array.from(Keypair.generate().secretKey)));
  return path;
}

describe("npm run deploy:solana", function () {
  this.timeout(120_000);
  let rpc: SolanaRpc;
  let directory: string;

  before(async () => {
    rpc = await startSolanaRpc({ port: 0, slotMs: 50 });
    directory = mkdtempSync(join(tmpdir(), "solana-deploy-"));
  });

  after(async () => {
    await rpc?.stop();
  });

  it("deploys the program and the sandbox's own to a local RPC and merges the entry into the manifest", async () => {
    const out = join(directory, "local.json");
    const otherSolana = { ...STALE_SOLANA, chain: "solana-devnet" };
    writeFileSync(out, JSON.stringify({ evm: [EVM], solana: [STALE_SOLANA, otherSolana], notes: "ops" }));
    const run = await deploySolana(["--rpc-url", rpc.rpcUrl, "--ws-url", rpc.wsUrl, "--out", out]);
    expect(run.code, run.stderr).to.equal(0);

    const manifest = JSON.parse(readFileSync(out, "utf8")) as DeploymentManifest & { notes: string };
    expect(manifest.evm).to.deep.equal([EVM]);
    expect(manifest.notes).to.equal("ops");
    expect(manifest.solana.map((entry) => entry.chain)).to.deep.equal(["solana-devnet", "solana"]);
    const entry = manifest.solana[1];
    expect(JSON.parse(run.stdout)).to.deep.equal(entry);
    expect(entry).to.include({
      chain: "solana",
      rpcUrl: rpc.rpcUrl,
      wsUrl: rpc.wsUrl,
      programId: loadLocalProgramKeypair().publicKey.toBase58(),
    });

    // Both programs are live, each with its own config reading its own local price account.
    const connection = new Connection(rpc.rpcUrl, "confirmed");
    const provider = new AnchorProvider(connection, new Wallet(Keypair.generate()), {});
    const sandbox = entry?.sandbox;
    expect(sandbox?.programId).to.be.a("string").and.not.equal(entry?.programId);
    for (const deployed of [entry, sandbox]) {
      const programId = new PublicKey(deployed?.programId as string);
      const program = await connection.getAccountInfo(programId);
      expect(program?.executable).to.equal(true);
      expect(program?.owner.toBase58()).to.equal(BPF_LOADER_UPGRADEABLE_ID.toBase58());
      expect(deployed?.configAccount).to.equal(configAddress(programId).toBase58());
      const config = await registryProgram(provider, programId).account.config.fetch(
        deployed?.configAccount as string,
      );
      expect(config.priceUpdate.toBase58()).to.equal(deployed?.priceAccount);
      expect(config.priceOwner.toBase58()).to.equal(programId.toBase58());
      expect(config.minCommitmentSlots.toNumber()).to.equal(LOCAL_MIN_COMMITMENT_SLOTS);
      expect(config.maxConfidenceBps).to.equal(DEFAULT_MAX_CONFIDENCE_BPS);
      const price = await connection.getAccountInfo(new PublicKey(deployed?.priceAccount as string));
      expect(price?.owner.toBase58()).to.equal(programId.toBase58());
    }
    expect(entry?.deploySlot)
      .to.be.a("number")
      .and.to.be.at.most(await connection.getSlot());
  });

  it("refuses the local price account on a non-local cluster, naming --price-update, and writes nothing", async () => {
    const out = join(directory, "devnet.json");
    const run = await deploySolana([
      "--rpc-url",
      "https://api.devnet.solana.com",
      "--keypair",
      keypairFile(directory, "deployer"),
      "--program-keypair",
      keypairFile(directory, "program"),
      "--out",
      out,
    ]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.include("not a local cluster").and.include("--price-update <address>");
    expect(run.stderr).to.not.include("--keypair <file>");
    expect(existsSync(out)).to.equal(false);
  });

  it("refuses a minimum commitment age or confidence bound out of range before any RPC call, and writes nothing", async () => {
    const out = join(directory, "ranges.json");
    for (const [flag, value, range] of [
      ["--min-commitment-slots", "0", "from 1 to 1000"],
      ["--max-confidence-bps", "10001", "from 1 to 10000"],
    ]) {
      const run = await deploySolana([
        "--rpc-url",
        "http://127.0.0.1:1",
        "--out",
        out,
        flag as string,
        value as string,
      ]);
      expect(run.code).to.equal(1);
      expect(run.stderr).to.include(`${flag} must be a whole number ${range}`);
    }
    expect(existsSync(out)).to.equal(false);
  });

  it("on a non-local cluster names the deployer and program keypairs instead of using the public development keys", async () => {
    const run = await deploySolana([
      "--rpc-url",
      "https://api.devnet.solana.com",
      "--price-update",
      Keypair.generate().publicKey.toBase58(),
      "--out",
      join(directory, "devnet.json"),
    ]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.include("--keypair <file>").and.include("--program-keypair <file>");
    expect(run.stderr).to.not.include("--price-update");
  });
});
