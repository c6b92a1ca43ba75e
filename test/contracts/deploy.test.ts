// The deploy library and CLI against a real `hardhat node` process over HTTP, as the localnet uses them.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect } from "chai";
import { getAddress, keccak256, toHex, zeroAddress } from "viem";
import { DEFAULT_MAX_PRICE_AGE_SECONDS } from "../../chains/evm/settings";
import type { DeploymentManifest } from "../../config/manifest";
import { identityRegistryAbi } from "../../contracts/abi/identityRegistry";
import { DEFAULT_TIER_PRICES_USD_MICROS } from "../../core/reservation";
import { REPO_ROOT } from "../../scripts/evm/artifacts";
import { connectEvm } from "../../scripts/evm/clients";
import {
  DEFAULT_MAX_ANSWER_USD,
  DEFAULT_MIN_ANSWER_USD,
  DeploymentError,
  deployIdentityRegistry,
  type EvmDeployment,
  HARDHAT_CHAIN_ID,
  HARDHAT_DEV_PRIVATE_KEY,
  manifestEntry,
  requireFeedFor,
} from "../../scripts/evm/deploy";
import { refreshLocalPrice } from "../../scripts/evm/set-price";
import { type HardhatNode, startHardhatNode } from "../../scripts/localnet/evm/hardhatNode";

/** A hardhat entry from an earlier deployment: the CLI replaces it. */
const STALE_HARDHAT = {
  chain: "hardhat",
  chainId: 31337,
  rpcUrl: "http://127.0.0.1:1",
  registry: `0x${"1".repeat(40)}`,
  priceFeed: `0x${"2".repeat(40)}`,
  deployBlock: 0,
};

/** Any address: the registry stores its sequencer feed without calling it. */
const SEQUENCER_FEED = getAddress(`0x${"5e".repeat(20)}`);

/** Hardhat's second development account (public, local chains only). */
const SECOND_DEV_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

describe("EVM deploy library and CLI on a hardhat node over HTTP", () => {
  let node: HardhatNode;
  let rpcUrl: string;
  let deployment: EvmDeployment;

  before(async () => {
    node = await startHardhatNode({ port: 0 });
    rpcUrl = node.rpcUrl;
    deployment = await deployIdentityRegistry({ rpcUrl, deployerPrivateKey: HARDHAT_DEV_PRIVATE_KEY });
  });

  after(async () => {
    await node?.stop();
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
    // Local chain defaults: a one-second commitment age, ETH/USD bounds at the feed's 8 decimals, no sequencer.
    const bounds = [DEFAULT_MIN_ANSWER_USD * 10n ** 8n, DEFAULT_MAX_ANSWER_USD * 10n ** 8n] as const;
    expect(await publicClient.readContract({ ...read, functionName: "minCommitmentAge" })).to.equal(1);
    expect(await publicClient.readContract({ ...read, functionName: "priceBounds" })).to.deep.equal(bounds);
    expect(await publicClient.readContract({ ...read, functionName: "sequencerUptimeFeed" })).to.equal(
      zeroAddress,
    );
    expect(await publicClient.readContract({ ...read, functionName: "sequencerGracePeriod" })).to.equal(0);
    expect(manifestEntry("hardhat", { rpcUrl }, deployment)).to.deep.include({
      minAnswer: bounds[0].toString(),
      maxAnswer: bounds[1].toString(),
      sequencerUptimeFeed: zeroAddress,
      sequencerGracePeriodSeconds: 0,
      minCommitmentAgeSeconds: 1,
    });
    // deployBlock is the registry's creation block: code exists there and not one block earlier.
    const codeAt = (blockNumber: number) =>
      publicClient.getCode({ address: deployment.registry, blockNumber: BigInt(blockNumber) });
    expect(await codeAt(deployment.deployBlock)).to.match(/^0x[0-9a-f]{100,}$/);
    expect(await codeAt(deployment.deployBlock - 1)).to.equal(undefined);
  });

  it("takes a committed, then revealed reservation signed by another wallet, visible from the deploy block", async () => {
    const { publicClient, walletClient } = await connectEvm(rpcUrl, SECOND_DEV_KEY);
    const registry = { address: deployment.registry, abi: identityRegistryAbi } as const;
    const fee = await publicClient.readContract({ ...registry, functionName: "quote", args: [86_400] });
    const reveal = [
      "Http Moon",
      "hmoon",
      86_400,
      keccak256(toHex("partner")),
      keccak256(toHex("secret")),
    ] as const;
    const [name, ticker, duration, partnerRef, secret] = reveal;
    const commitment = await publicClient.readContract({
      ...registry,
      functionName: "makeCommitment",
      args: [name, ticker, walletClient.account.address, duration, partnerRef, secret],
    });
    const commitHash = await walletClient.writeContract({
      ...registry,
      functionName: "commit",
      args: [commitment],
    });
    expect((await publicClient.waitForTransactionReceipt({ hash: commitHash })).status).to.equal("success");
    // An automining node stamps each block at least one second after the last: the commitment has matured.
    const hash = await walletClient.writeContract({
      ...registry,
      functionName: "reserve",
      args: reveal,
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
        "--min-commitment-age",
        "5",
        "--min-answer",
        "1",
        "--max-answer",
        "99999999999999999999999",
        "--sequencer-uptime-feed",
        SEQUENCER_FEED,
        "--sequencer-grace-period",
        "1800",
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
    // The settings given as flags are in the entry and on both registries.
    expect(entry).to.deep.include({
      minAnswer: "1",
      maxAnswer: "99999999999999999999999",
      sequencerUptimeFeed: SEQUENCER_FEED,
      sequencerGracePeriodSeconds: 1800,
      minCommitmentAgeSeconds: 5,
    });
    for (const address of [entry?.registry, sandboxRegistry] as `0x${string}`[]) {
      const read = { address, abi: identityRegistryAbi } as const;
      expect(await publicClient.readContract({ ...read, functionName: "minCommitmentAge" })).to.equal(5);
      expect(await publicClient.readContract({ ...read, functionName: "priceBounds" })).to.deep.equal([
        1n,
        99999999999999999999999n,
      ]);
      expect(await publicClient.readContract({ ...read, functionName: "sequencerUptimeFeed" })).to.equal(
        SEQUENCER_FEED,
      );
      expect(await publicClient.readContract({ ...read, functionName: "sequencerGracePeriod" })).to.equal(
        1800,
      );
    }
  });
});

/** A JSON-RPC endpoint that claims to be Base (chain 8453) and answers nothing else. */
async function startFakeChain(chainIdHex: string): Promise<Server> {
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on("end", () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      const reply =
        method === "eth_chainId"
          ? { jsonrpc: "2.0", id, result: chainIdHex }
          : { jsonrpc: "2.0", id, error: { code: -32601, message: `${method} is not served here` } };
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

describe("EVM deploy refuses the test-only LocalPriceFeed off local chains", () => {
  let server: Server;
  let rpcUrl: string;

  before(async () => {
    server = await startFakeChain("0x2105");
    rpcUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => {
    server?.close();
  });

  it("allows a LocalPriceFeed only on 31337 and 1337, and any chain with a feed", () => {
    expect(() => requireFeedFor(31337, undefined)).to.not.throw();
    expect(() => requireFeedFor(1337, undefined)).to.not.throw();
    expect(() => requireFeedFor(8453, SEQUENCER_FEED)).to.not.throw();
    expect(() => requireFeedFor(8453, undefined)).to.throw(DeploymentError, /--price-feed/);
  });

  it("the library refuses before compiling or sending anything", async () => {
    let refused: unknown;
    try {
      await deployIdentityRegistry({ rpcUrl, deployerPrivateKey: HARDHAT_DEV_PRIVATE_KEY });
    } catch (error) {
      refused = error;
    }
    expect(refused).to.be.instanceOf(DeploymentError);
    expect((refused as Error).message).to.match(/Chain 8453 is not a local chain.*--price-feed/);
  });

  it("npm run deploy:evm without --price-feed exits 1 with a message naming the flag, writing no manifest", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "evm-manifest-")), "base.json");
    let failure: { code?: number; stderr?: string } | undefined;
    try {
      await promisify(execFile)(
        process.execPath,
        [
          require.resolve("tsx/cli"),
          "scripts/evm/deploy.ts",
          "--rpc-url",
          rpcUrl,
          "--chain",
          "base",
          "--out",
          out,
        ],
        { cwd: REPO_ROOT, env: { ...process.env, EVM_DEPLOYER_PRIVATE_KEY: HARDHAT_DEV_PRIVATE_KEY } },
      );
    } catch (error) {
      failure = error as { code?: number; stderr?: string };
    }
    expect(failure?.code).to.equal(1);
    expect(failure?.stderr).to.match(/Chain 8453 is not a local chain.*--price-feed <address>/);
    expect(() => readFileSync(out)).to.throw(/ENOENT/);
  });
});
