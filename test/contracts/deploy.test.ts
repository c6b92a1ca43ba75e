// The deploy library and CLI against a real `hardhat node` process over HTTP, as the localnet uses them.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect } from "chai";
import { getAddress, keccak256, toHex } from "viem";
import { DEFAULT_MAX_PRICE_AGE_SECONDS } from "../../chains/evm/settings";
import type { DeploymentManifest } from "../../config/manifest";
import { identityRegistryAbi } from "../../contracts/abi/identityRegistry";
import { DEFAULT_TIER_PRICES_USD_MICROS } from "../../core/reservation";
import { freePort } from "../../net/ports";
import { REPO_ROOT } from "../../scripts/evm/artifacts";
import { connectEvm } from "../../scripts/evm/clients";
import {
  deployIdentityRegistry,
  type EvmDeployment,
  HARDHAT_CHAIN_ID,
  HARDHAT_DEV_PRIVATE_KEY,
} from "../../scripts/evm/deploy";
import { refreshLocalPrice } from "../../scripts/evm/set-price";

/** A hardhat entry from an earlier deployment: the CLI replaces it. */
const STALE_HARDHAT = {
  chain: "hardhat",
  chainId: 31337,
  rpcUrl: "http://127.0.0.1:1",
  registry: `0x${"1".repeat(40)}`,
  priceFeed: `0x${"2".repeat(40)}`,
  deployBlock: 0,
};

/** Hardhat's second development account (public, local chains only). */
const SECOND_DEV_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

function startHardhatNode(port: number): Promise<ChildProcess> {
  const node = spawn(
    process.execPath,
    [require.resolve("hardhat/internal/cli/cli"), "node", "--hostname", "127.0.0.1", "--port", String(port)],
    { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Started HTTP")) resolve(node);
    };
    node.stdout?.on("data", onData);
    node.stderr?.on("data", onData);
    node.once("exit", (code) => reject(new Error(`hardhat node exited with ${code}: ${output}`)));
  });
}

describe("EVM deploy library and CLI on a hardhat node over HTTP", () => {
  let node: ChildProcess;
  let rpcUrl: string;
  let deployment: EvmDeployment;

  before(async () => {
    const port = await freePort();
    rpcUrl = `http://127.0.0.1:${port}`;
    node = await startHardhatNode(port);
    deployment = await deployIdentityRegistry({ rpcUrl, deployerPrivateKey: HARDHAT_DEV_PRIVATE_KEY });
  });

  after(() => {
    node?.kill();
  });

  it("deploys feed and registry configured with the defaults, and reports where the indexer starts", async () => {
    const { publicClient } = await connectEvm(rpcUrl, HARDHAT_DEV_PRIVATE_KEY);
    expect(deployment.chainId).to.equal(HARDHAT_CHAIN_ID);
    const read = { address: deployment.registry, abi: identityRegistryAbi } as const;
    expect(await publicClient.readContract({ ...read, functionName: "priceFeed" })).to.equal(
      deployment.priceFeed,
    );
    expect(await publicClient.readContract({ ...read, functionName: "tierPrices" })).to.deep.equal(
      DEFAULT_TIER_PRICES_USD_MICROS,
    );
    expect(await publicClient.readContract({ ...read, functionName: "maxPriceAge" })).to.equal(
      DEFAULT_MAX_PRICE_AGE_SECONDS,
    );
    // deployBlock is the registry's creation block: code exists there and not one block earlier.
    const codeAt = (blockNumber: number) =>
      publicClient.getCode({ address: deployment.registry, blockNumber: BigInt(blockNumber) });
    expect(await codeAt(deployment.deployBlock)).to.match(/^0x[0-9a-f]{100,}$/);
    expect(await codeAt(deployment.deployBlock - 1)).to.equal(undefined);
  });

  it("takes a reservation signed by another wallet, visible as an event from the deploy block", async () => {
    const { publicClient, walletClient } = await connectEvm(rpcUrl, SECOND_DEV_KEY);
    const registry = { address: deployment.registry, abi: identityRegistryAbi } as const;
    const fee = await publicClient.readContract({ ...registry, functionName: "quote", args: [86_400] });
    const hash = await walletClient.writeContract({
      ...registry,
      functionName: "reserve",
      args: ["Http Moon", "hmoon", 86_400, keccak256(toHex("partner"))],
      value: fee,
    });
    expect((await publicClient.waitForTransactionReceipt({ hash })).status).to.equal("success");
    const events = await publicClient.getContractEvents({
      ...registry,
      eventName: "Reserved",
      fromBlock: BigInt(deployment.deployBlock),
    });
    expect(
      events.map((event) => [event.args.normalizedName, event.args.normalizedTicker, event.args.launcher]),
    ).to.deep.equal([["HTTPMOON", "HMOON", getAddress(walletClient.account.address)]]);
  });

  it("refreshes the local price so quotes stay fresh", async () => {
    const { publicClient } = await connectEvm(rpcUrl, HARDHAT_DEV_PRIVATE_KEY);
    await refreshLocalPrice({
      rpcUrl,
      ownerPrivateKey: HARDHAT_DEV_PRIVATE_KEY,
      priceFeed: deployment.priceFeed,
      priceUsd: 5_000,
    });
    // 5 USD at 5,000 USD/ETH = 0.001 ETH.
    const fee = await publicClient.readContract({
      address: deployment.registry,
      abi: identityRegistryAbi,
      functionName: "quote",
      args: [86_400],
    });
    expect(fee).to.equal(10n ** 15n);
  });

  it("CLI merges its entry into an existing manifest, keeping other chains and sections", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "evm-manifest-")), "local.json");
    const solana = [
      {
        chain: "solana",
        rpcUrl: "http://127.0.0.1:8899",
        programId: "11111111111111111111111111111111",
        priceAccount: "SysvarC1ock11111111111111111111111111111111",
        configAccount: "SysvarRent111111111111111111111111111111111",
        deploySlot: 1,
      },
    ];
    const base = { ...STALE_HARDHAT, chain: "base", chainId: 8453 };
    const notes = { owner: "ops" };
    writeFileSync(out, JSON.stringify({ evm: [STALE_HARDHAT, base], solana, notes }));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        require.resolve("tsx/cli"),
        "scripts/evm/deploy.ts",
        "--rpc-url",
        rpcUrl,
        "--chain",
        "hardhat",
        "--out",
        out,
      ],
      { cwd: REPO_ROOT, env: { ...process.env, EVM_DEPLOYER_PRIVATE_KEY: "" } },
    );
    const manifest = JSON.parse(readFileSync(out, "utf8")) as DeploymentManifest;
    expect(manifest.solana).to.deep.equal(solana);
    expect(manifest.notes).to.deep.equal(notes);
    expect(manifest.evm).to.have.length(2);
    expect(manifest.evm[0]).to.deep.equal(base);
    const entry = manifest.evm[1];
    expect(JSON.parse(stdout)).to.deep.equal(entry);
    expect(entry?.chain).to.equal("hardhat");
    expect(entry?.chainId).to.equal(HARDHAT_CHAIN_ID);
    expect(entry?.rpcUrl).to.equal(rpcUrl);
    expect(entry?.registry).to.not.equal(deployment.registry);
    expect(entry?.deployBlock).to.be.greaterThan(deployment.deployBlock);
    // The sandbox's own registry comes with it, on the same feed, so sandbox prepares keep a target.
    const sandboxRegistry = entry?.sandbox?.registry;
    expect(sandboxRegistry).to.be.a("string").and.not.equal(entry?.registry);
    const { publicClient } = await connectEvm(rpcUrl, HARDHAT_DEV_PRIVATE_KEY);
    const sandboxFeed = await publicClient.readContract({
      address: sandboxRegistry as `0x${string}`,
      abi: identityRegistryAbi,
      functionName: "priceFeed",
    });
    expect(sandboxFeed).to.equal(entry?.priceFeed);
  });
});
