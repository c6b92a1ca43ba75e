// The EVM registry client against a real Hardhat node with the registry deployed: quotes, reads, prepared
// commit-then-reveal steps signed by a viem account, commitments, steps, outcomes, settlements and a stale feed.
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import {
  type Account,
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeFunctionData,
  type Hash,
  http,
  keccak256,
  parseEventLogs,
} from "viem";
import { feeWei } from "../../chains/evm/fee";
import { EvmRegistryClient } from "../../chains/evm/registryClient";
import {
  ChainUnavailableError,
  type EvmTransactionRequest,
  type PreparedSteps,
  type PreparedTransaction,
  PriceUnavailableError,
} from "../../chains/registryClient";
import type { EvmManifestEntry } from "../../config/manifest";
import { identityRegistryAbi } from "../../contracts/abi/identityRegistry";
import { normalizeIdentity } from "../../core/fold";
import {
  MAX_COMMITMENT_AGE_SECONDS,
  newReservationId,
  partnerRefOf,
  RENEWAL_WINDOW_SECONDS,
} from "../../core/reservation";
import { devWallet, type Localnet } from "../../scripts/localnet";
import { startQuietLocalnet, viemChainOf } from "../support/localChains";

const DAY = 86_400;
/** The deploy defaults: 5 USD for a day, 3,000 USD per ETH with 8 feed decimals, 4,500 s price age. */
const DAY_USD_MICROS = 5_000_000n;
const ETH_ANSWER = 3_000_00000000n;

describe("chains: EVM registry client on a Hardhat node", function () {
  this.timeout(120_000);
  let localnet: Localnet;
  let entry: EvmManifestEntry;
  let client: EvmRegistryClient;

  before(async () => {
    localnet = await startQuietLocalnet();
    entry = localnet.manifest.evm[0] as EvmManifestEntry;
    client = new EvmRegistryClient(entry);
  });

  after(async () => {
    await localnet?.stop();
  });

  const chain = () => viemChainOf(entry);
  const publicClient = () => createPublicClient({ chain: chain(), transport: http() });
  const testClient = () => createTestClient({ mode: "hardhat", chain: chain(), transport: http() });

  /**
   * What a creator's wallet does with a prepared request: sign exactly it and send it. With `revertGas` the
   * gas limit is fixed (no estimation) and the node's error for a reverting transaction is ignored: Hardhat
   * mines the transaction and then answers the send with the revert.
   */
  async function signAndSend(
    account: Account,
    prepared: PreparedTransaction,
    revertGas?: bigint,
  ): Promise<Hash> {
    const request = prepared as EvmTransactionRequest;
    expect(request.family).to.equal("evm");
    expect(request.from).to.equal(account.address);
    const wallet = createWalletClient({ account, chain: chain(), transport: http() });
    const signed = await wallet.signTransaction(
      await wallet.prepareTransactionRequest({
        to: request.to as `0x${string}`,
        data: request.data,
        value: BigInt(request.value),
        ...(revertGas === undefined ? {} : { gas: revertGas }),
      }),
    );
    const sent = publicClient().sendRawTransaction({ serializedTransaction: signed });
    if (revertGas === undefined) return sent;
    await sent.catch(() => undefined);
    return keccak256(signed);
  }

  /**
   * What a creator's wallet does with a prepare: a renewal's one transaction, or the commitment (mined) and then
   * the paying reveal; no wait between them, since the next block is stamped at least the local registry's one-second
   * minimum commitment age later. `beforeReveal` runs once the commitment is mined. Resolves with the paying
   * transaction's hash; `revertGas` applies to it.
   */
  async function pay(
    account: Account,
    steps: PreparedSteps,
    options: { revertGas?: bigint; beforeReveal?: (commitHash: Hash) => Promise<unknown> } = {},
  ): Promise<Hash> {
    if (steps.reveal === null) return signAndSend(account, steps.transaction, options.revertGas);
    const commitHash = await signAndSend(account, steps.transaction);
    expect((await mined(commitHash)).status).to.equal("success");
    await options.beforeReveal?.(commitHash);
    return signAndSend(account, steps.reveal.transaction, options.revertGas);
  }

  /** The prepare of a new reservation, whose steps are a commitment and its reveal. */
  function revealOf(steps: PreparedSteps) {
    if (steps.reveal === null) throw new Error("expected a commitment and its reveal");
    return steps.reveal;
  }

  async function prepare(
    account: Account,
    name: string,
    ticker: string,
    kind: "reserve" | "renew" = "reserve",
  ) {
    const quote = await client.quote(DAY);
    const partnerRef = partnerRefOf(newReservationId());
    const identity = normalizeIdentity(name, ticker);
    const secret = kind === "renew" ? null : (`0x${randomBytes(32).toString("hex")}` as const);
    const prepared = await client.prepareTransaction({
      identity,
      launcher: account.address.toLowerCase(),
      durationSeconds: DAY,
      partnerRef,
      kind,
      quote,
      secret,
    });
    return { quote, partnerRef, identity, secret, prepared };
  }

  async function mined(hash: Hash) {
    return publicClient().waitForTransactionReceipt({ hash });
  }

  it("quotes the registry's fee from its own feed, valid until the registry's staleness bound", async () => {
    const quote = await client.quote(DAY);
    expect(quote).to.include({ chain: "hardhat", durationSeconds: DAY, unit: "wei", simulated: false });
    expect(quote.usdMicros).to.equal(DAY_USD_MICROS);
    expect(quote.amount).to.equal(feeWei(DAY_USD_MICROS, ETH_ANSWER, 8));
    expect(quote.priceUsd).to.equal(3_000);
    expect(quote.expiresAt.getTime() - quote.priceUpdatedAt.getTime()).to.equal(4_500_000);
    expect((await client.quote(2_592_000)).usdMicros).to.equal(80_000_000n);
  });

  it("prices from the registry's own feed when the manifest names another address", async () => {
    const misnamed = new EvmRegistryClient({ ...entry, priceFeed: devWallet("operator").evm.address });
    expect(await misnamed.quote(DAY)).to.deep.equal(await client.quote(DAY));
  });

  it("prepares a commitment and its paying reveal that a viem account signs; the registry charges exactly the quote", async () => {
    const account = devWallet("creator").evm;
    const { quote, partnerRef, identity, secret, prepared } = await prepare(account, "Chain Fox", "cfox");
    const commit = prepared.transaction as EvmTransactionRequest;
    const reveal = revealOf(prepared);
    const request = reveal.transaction as EvmTransactionRequest;
    expect(commit).to.include({
      chainId: entry.chainId,
      to: entry.registry,
      from: account.address,
      value: "0",
    });
    expect(decodeFunctionData({ abi: identityRegistryAbi, data: commit.data })).to.deep.equal({
      functionName: "commit",
      args: [reveal.commitment],
    });
    expect(reveal.commitment).to.equal(
      await publicClient().readContract({
        address: entry.registry as `0x${string}`,
        abi: identityRegistryAbi,
        functionName: "makeCommitment",
        args: ["Chain Fox", "cfox", account.address, DAY, partnerRef, secret as `0x${string}`],
      }),
    );
    expect(reveal).to.deep.include({
      minCommitmentAge: { seconds: 1 },
      maxCommitmentAgeSeconds: MAX_COMMITMENT_AGE_SECONDS,
    });
    expect(request).to.include({ chainId: entry.chainId, to: entry.registry, from: account.address });
    expect(BigInt(request.value)).to.equal((quote.amount * 10_200n + 9_999n) / 10_000n);
    expect(decodeFunctionData({ abi: identityRegistryAbi, data: request.data })).to.deep.equal({
      functionName: "reserve",
      args: ["CHAINFOX", "CFOX", DAY, partnerRef, secret],
    });
    let before = 0n; // read once the commitment is mined: what follows is the reveal's alone

    const hash = await pay(account, prepared, {
      beforeReveal: async () => {
        before = await publicClient().getBalance({ address: account.address });
      },
    });
    const receipt = await mined(hash);

    expect(await client.transactionOutcome(hash)).to.deep.equal({
      state: "succeeded",
      blockNumber: Number(receipt.blockNumber),
    });
    const settlement = await client.settlementOf(hash);
    expect(settlement).to.deep.include({
      kind: "reserve",
      nameHash: identity.nameHash,
      tickerHash: identity.tickerHash,
      launcher: account.address.toLowerCase(),
      feePaid: quote.amount,
    });
    // The headroom came back: the wallet paid the fee and gas only.
    const after = await publicClient().getBalance({ address: account.address });
    expect(before - after).to.equal(quote.amount + receipt.gasUsed * receipt.effectiveGasPrice);
    const [reserved] = parseEventLogs({
      abi: identityRegistryAbi,
      eventName: "Reserved",
      logs: receipt.logs,
    });
    expect(reserved?.args.partnerRef).to.equal(partnerRef);

    const onChain = await client.reservationOf(identity);
    expect(onChain?.launcher.toLowerCase()).to.equal(account.address.toLowerCase());
    expect(onChain?.active).to.equal(true);
    expect(onChain?.expiresAt.getTime()).to.equal(settlement?.expiresAt.getTime());
    expect(await client.activeReservationCount(account.address)).to.equal(1);
  });

  it("reads a commitment from its commit until its reveal consumes it, and tells each step by its calldata", async () => {
    const account = devWallet("launcher").evm;
    const { prepared } = await prepare(account, "Sealed Bee", "SBEE");
    const { commitment } = revealOf(prepared);
    expect(await client.commitmentOf(account.address, commitment)).to.equal(null);

    const hash = await pay(account, prepared, {
      beforeReveal: async (commitHash) => {
        const receipt = await mined(commitHash);
        const block = await publicClient().getBlock({ blockNumber: receipt.blockNumber });
        const committedAt = new Date(Number(block.timestamp) * 1000);
        expect(await client.commitmentOf(account.address.toLowerCase(), commitment)).to.deep.equal({
          committedAt,
          revealableAt: new Date(committedAt.getTime() + 1000), // the local registry's one-second minimum
          revealableSlot: null,
        });
        // Another launcher's commitment to the same value is a different one.
        expect(await client.commitmentOf(devWallet("creator").evm.address, commitment)).to.equal(null);
        expect(await client.stepOf(commitHash)).to.equal("commit");
      },
    });
    expect((await mined(hash)).status).to.equal("success");
    expect(await client.stepOf(hash)).to.equal("reserve");
    expect(await client.commitmentOf(account.address, commitment)).to.equal(null);
  });

  it("tells no step for an unknown hash, a malformed one, or a transaction that is no registry call", async () => {
    expect(await client.stepOf(`0x${"cd".repeat(32)}`)).to.equal(null);
    expect(await client.stepOf("0xabc")).to.equal(null);
    const account = devWallet("operator").evm;
    const wallet = createWalletClient({ account, chain: chain(), transport: http() });
    const transfer = await wallet.sendTransaction({ to: devWallet("creator").evm.address, value: 1n });
    await mined(transfer);
    expect(await client.stepOf(transfer)).to.equal(null);
  });

  it("reads a pair never reserved as null and a fresh wallet as holding none", async () => {
    expect(await client.reservationOf(normalizeIdentity("Never Held", "NVR"))).to.equal(null);
    expect(await client.activeReservationCount(devWallet("operator").evm.address)).to.equal(0);
  });

  it("reports a transaction that reverted on-chain as failed, naming the registry's error", async () => {
    const holder = devWallet("creator").evm;
    await mined(await pay(holder, (await prepare(holder, "Taken Owl", "TOWL")).prepared));
    const other = devWallet("launcher").evm;
    const hash = await pay(other, (await prepare(other, "Taken Owl", "TOWL")).prepared, {
      revertGas: 300_000n,
    });
    const receipt = await mined(hash);
    expect(receipt.status).to.equal("reverted");

    const outcome = await client.transactionOutcome(hash);
    expect(outcome).to.include({ state: "failed", blockNumber: Number(receipt.blockNumber) });
    expect(outcome.state === "failed" && outcome.error).to.contain("PairReserved");
    expect(await client.settlementOf(hash)).to.equal(null);
  });

  it("reports a sent but unmined transaction as pending and an unknown hash as not_found", async () => {
    const account = devWallet("launcher").evm;
    const { prepared } = await prepare(account, "Pending Elk", "PELK");
    try {
      // The commitment is mined; its reveal waits in the mempool.
      const hash = await pay(account, prepared, {
        revertGas: 300_000n,
        beforeReveal: () => testClient().setAutomine(false),
      });
      expect(await client.transactionOutcome(hash)).to.deep.equal({ state: "pending" });
      expect(await client.settlementOf(hash)).to.equal(null);
      expect(await client.stepOf(hash)).to.equal("reserve"); // read from the pending transaction's calldata
      await testClient().mine({ blocks: 1 });
      expect(await client.transactionOutcome(hash)).to.have.property("state", "succeeded");
    } finally {
      await testClient().setAutomine(true);
    }
    expect(await client.transactionOutcome(`0x${"ab".repeat(32)}`)).to.deep.equal({ state: "not_found" });
    expect(client.isTransactionHash(`0x${"ab".repeat(32)}`)).to.equal(true);
    expect(client.isTransactionHash("0xabc")).to.equal(false);
  });

  it("prepares a renewal the holder lands inside the last 12 hours", async () => {
    const account = devWallet("operator").evm;
    const first = await prepare(account, "Renew Yak", "RYAK");
    const firstHash = await pay(account, first.prepared);
    await mined(firstHash);
    const firstSettlement = await client.settlementOf(firstHash);
    await testClient().increaseTime({ seconds: DAY - RENEWAL_WINDOW_SECONDS + 60 });
    await testClient().mine({ blocks: 1 });
    await localnet.refreshPrices(); // the feed went stale with the time jump

    const renewal = await prepare(account, "Renew Yak", "RYAK", "renew");
    expect(renewal.prepared.reveal).to.equal(null); // a renewal commits to nothing: one paying transaction
    expect(
      decodeFunctionData({
        abi: identityRegistryAbi,
        data: (renewal.prepared.transaction as EvmTransactionRequest).data,
      }),
    ).to.have.property("functionName", "renew");
    const hash = await pay(account, renewal.prepared);
    await mined(hash);

    expect(await client.transactionOutcome(hash)).to.have.property("state", "succeeded");
    expect(await client.stepOf(hash)).to.equal("renew");
    const settlement = await client.settlementOf(hash);
    expect(settlement).to.deep.include({ kind: "renew", feePaid: renewal.quote.amount });
    expect(settlement?.expiresAt.getTime()).to.equal(
      (firstSettlement?.expiresAt.getTime() ?? 0) + DAY * 1000,
    );
  });

  it("refuses to quote on a stale feed, and the registry refuses the reservation too", async () => {
    const account = devWallet("creator").evm;
    const { prepared } = await prepare(account, "Stale Gnu", "SGNU");
    await testClient().increaseTime({ seconds: 4_501 });
    await testClient().mine({ blocks: 1 });
    try {
      const error = await client.quote(DAY).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(PriceUnavailableError);
      expect((error as PriceUnavailableError).detail).to.contain("at most 4500 s old");

      const hash = await pay(account, prepared, { revertGas: 300_000n });
      await mined(hash);
      const outcome = await client.transactionOutcome(hash);
      expect(outcome.state === "failed" && outcome.error).to.contain("StalePrice");
    } finally {
      await localnet.refreshPrices();
    }
    expect((await client.quote(DAY)).amount).to.be.a("bigint");
  });

  it("turns an RPC endpoint that does not answer into ChainUnavailableError", async () => {
    const unreachable = new EvmRegistryClient(
      { ...entry, rpcUrl: "http://127.0.0.1:9" },
      { timeoutMs: 2_000 },
    );
    for (const read of [
      () => unreachable.quote(DAY),
      () => unreachable.activeReservationCount(devWallet("creator").evm.address),
      () => unreachable.transactionOutcome(`0x${"ab".repeat(32)}`),
    ]) {
      expect(await read().catch((e: unknown) => e)).to.be.instanceOf(ChainUnavailableError);
    }
  });
});
