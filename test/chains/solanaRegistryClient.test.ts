// The Solana registry client against the project's Solana JSON-RPC node with the program deployed: quotes
// checked and priced like the program, prepared commit-then-reveal steps signed by a web3.js Keypair,
// commitments, steps, outcomes, settlements, renewal and a stale price (chain time moved with warpTime).
import { randomBytes } from "node:crypto";
import { utils } from "@coral-xyz/anchor";
import {
  ComputeBudgetProgram,
  Connection,
  type Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  VersionedTransaction,
} from "@solana/web3.js";
import { expect } from "chai";
import {
  ChainUnavailableError,
  type PreparedSteps,
  type PreparedTransaction,
  PriceUnavailableError,
  type SolanaTransactionRequest,
} from "../../chains/registryClient";
import { SimulatedSolanaRegistry } from "../../chains/simulated/registryClient";
import {
  commitmentAddress,
  configAddress,
  reservationAddress,
  treasuryAddress,
  walletAddress,
} from "../../chains/solana/addresses";
import { solanaCommitment } from "../../chains/solana/commitment";
import { registryCoder } from "../../chains/solana/idl";
import { feeLamports } from "../../chains/solana/price";
import { SolanaRegistryClient } from "../../chains/solana/registryClient";
import type { SolanaManifestEntry } from "../../config/manifest";
import { normalizeIdentity } from "../../core/fold";
import {
  MAX_COMMITMENT_AGE_SECONDS,
  newReservationId,
  partnerRefOf,
  RENEWAL_WINDOW_SECONDS,
} from "../../core/reservation";
import { devWallet, type Localnet } from "../../scripts/localnet";
import { letWebsocketIdle } from "../scripts/localnet/rpcClient";
import { startQuietLocalnet } from "../support/localChains";

const DAY = 86_400;
/** The deploy defaults: 5 USD for a day at 150 USD per SOL (Pyth form: 150_00000000, exponent -8), 60 s age. */
const DAY_USD_MICROS = 5_000_000n;

describe("chains: Solana registry client on the local Solana RPC", function () {
  this.timeout(120_000);
  let localnet: Localnet;
  let entry: SolanaManifestEntry;
  let client: SolanaRegistryClient;
  let connection: Connection;
  let programId: PublicKey;

  before(async () => {
    // The deploy just published a price, fresh for 60 s of chain time; tests that move chain time refresh it.
    localnet = await startQuietLocalnet({ slotMs: 100 });
    entry = localnet.manifest.solana[0] as SolanaManifestEntry;
    client = new SolanaRegistryClient(entry);
    connection = new Connection(entry.rpcUrl, { commitment: "confirmed", wsEndpoint: entry.wsUrl });
    programId = new PublicKey(entry.programId);
  });

  after(async () => {
    await letWebsocketIdle();
    await localnet?.stop();
  });

  /** What a wallet does with a prepared transaction: sign its message bytes as they are, send, confirm. */
  async function signAndSend(
    keypair: Keypair,
    prepared: PreparedTransaction,
    options: { skipPreflight?: boolean; confirm?: boolean } = {},
  ): Promise<string> {
    const request = prepared as SolanaTransactionRequest;
    expect(request.family).to.equal("solana");
    expect(request.feePayer).to.equal(keypair.publicKey.toBase58());
    const transaction = VersionedTransaction.deserialize(Buffer.from(request.tx, "base64"));
    transaction.sign([keypair]);
    const signature = await connection.sendTransaction(transaction, { skipPreflight: options.skipPreflight });
    if (options.confirm !== false) {
      await connection.confirmTransaction(
        { signature, blockhash: request.recentBlockhash, lastValidBlockHeight: request.lastValidBlockHeight },
        "confirmed",
      );
    }
    return signature;
  }

  /** The slot a confirmed signature landed in. */
  async function landedSlot(signature: string): Promise<number> {
    const [status] = (await connection.getSignatureStatuses([signature])).value;
    if (!status) throw new Error(`no status for ${signature}`);
    return status.slot;
  }

  /** Resolves once transactions sent now land in a slot after `slot`. */
  async function pastSlot(slot: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    while ((await connection.getSlot("processed")) <= slot) {
      if (Date.now() > deadline) throw new Error(`the cluster did not pass slot ${slot}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /**
   * What a creator's wallet does with a prepare: a renewal's one transaction, or the commitment (confirmed), a
   * wait until a slot after the commitment's (the local program's one-slot minimum age), then the paying reveal.
   * `beforeReveal` runs once that slot has come. Resolves with the paying transaction's signature; `options`
   * apply to it.
   */
  async function pay(
    keypair: Keypair,
    steps: PreparedSteps,
    options: Parameters<typeof signAndSend>[2] & {
      beforeReveal?: (commitSignature: string) => Promise<unknown> | unknown;
    } = {},
  ): Promise<string> {
    const { beforeReveal, ...sendOptions } = options;
    if (steps.reveal === null) return signAndSend(keypair, steps.transaction, sendOptions);
    const commitSignature = await signAndSend(keypair, steps.transaction);
    await pastSlot(await landedSlot(commitSignature));
    await beforeReveal?.(commitSignature);
    return signAndSend(keypair, steps.reveal.transaction, sendOptions);
  }

  /** The prepare of a new reservation, whose steps are a commitment and its reveal. */
  function revealOf(steps: PreparedSteps) {
    if (steps.reveal === null) throw new Error("expected a commitment and its reveal");
    return steps.reveal;
  }

  /** The registry instruction of a prepared transaction (the one after the compute budget). */
  function registryInstructionOf(prepared: PreparedTransaction) {
    return Transaction.from(Buffer.from((prepared as SolanaTransactionRequest).tx, "base64")).instructions[1];
  }

  async function prepare(
    keypair: Keypair,
    name: string,
    ticker: string,
    kind: "reserve" | "renew" = "reserve",
  ) {
    const quote = await client.quote(DAY);
    const partnerRef = partnerRefOf(newReservationId());
    const identity = normalizeIdentity(name, ticker);
    const request = {
      identity,
      launcher: keypair.publicKey.toBase58(),
      durationSeconds: DAY,
      partnerRef,
      kind,
      quote,
      secret: kind === "renew" ? null : (`0x${randomBytes(32).toString("hex")}` as const),
    } as const;
    return { quote, partnerRef, identity, request, prepared: await client.prepareTransaction(request) };
  }

  it("quotes the program's fee from its config and price account, valid for its max price age", async () => {
    const quote = await client.quote(DAY);
    expect(quote).to.include({ chain: "solana", durationSeconds: DAY, unit: "lamports", simulated: false });
    expect(quote.usdMicros).to.equal(DAY_USD_MICROS);
    expect(quote.amount).to.equal(feeLamports(DAY_USD_MICROS, 150_00000000n, -8));
    expect(quote.amount).to.equal(33_333_334n); // 5 USD / 150 USD per SOL, rounded up to the lamport
    expect(quote.priceUsd).to.equal(150);
    expect(quote.expiresAt.getTime() - quote.priceUpdatedAt.getTime()).to.equal(60_000);
    expect((await client.quote(2_592_000)).usdMicros).to.equal(80_000_000n);
  });

  it("prepares an unsigned commitment and reveal a Keypair signs; they land and the program charges exactly the quote", async () => {
    const creator = devWallet("creator").solana;
    const { quote, partnerRef, identity, request, prepared } = await prepare(creator, "Chain Fox", "cfox");
    const reveal = revealOf(prepared);
    expect(reveal.commitment).to.equal(
      solanaCommitment({
        identity,
        launcher: creator.publicKey,
        durationSeconds: DAY,
        partnerRef,
        secret: request.secret as `0x${string}`,
      }),
    );
    expect(reveal).to.deep.include({
      minCommitmentAge: { slots: 1 },
      maxCommitmentAgeSeconds: MAX_COMMITMENT_AGE_SECONDS,
    });
    const commitmentAccount = commitmentAddress(programId, creator.publicKey, reveal.commitment);
    for (const step of [prepared.transaction, reveal.transaction]) {
      const unsigned = Transaction.from(Buffer.from((step as SolanaTransactionRequest).tx, "base64"));
      expect(unsigned.feePayer?.toBase58()).to.equal(creator.publicKey.toBase58());
      expect(unsigned.signatures.map((entry) => entry.signature)).to.deep.equal([null]);
      const [budget, instruction] = unsigned.instructions;
      expect(budget?.programId.toBase58()).to.equal(ComputeBudgetProgram.programId.toBase58());
      expect(instruction?.programId.toBase58()).to.equal(entry.programId);
    }
    const commit = registryInstructionOf(prepared.transaction);
    expect(commit?.keys.map((key) => key.pubkey.toBase58())).to.deep.equal(
      [creator.publicKey, commitmentAccount, PublicKey.default].map((key) => key.toBase58()),
    );
    const decodedCommit = registryCoder().instruction.decode(commit?.data as Buffer);
    expect(decodedCommit?.name).to.equal("commit");
    expect(decodedCommit?.data).to.deep.equal({
      commitment: Array.from(Buffer.from(reveal.commitment.slice(2), "hex")),
    });
    const reserve = registryInstructionOf(reveal.transaction);
    expect(reserve?.keys.map((key) => key.pubkey.toBase58())).to.deep.equal(
      [
        creator.publicKey,
        configAddress(programId),
        new PublicKey(entry.priceAccount),
        reservationAddress(programId, identity.nameHash, identity.tickerHash),
        walletAddress(programId, creator.publicKey),
        treasuryAddress(programId),
        PublicKey.default,
        commitmentAccount,
      ].map((key) => key.toBase58()),
    );
    const decoded = registryCoder().instruction.decode(reserve?.data as Buffer);
    expect(decoded?.name).to.equal("reserve");
    expect(decoded?.data).to.include({ name: "CHAINFOX", ticker: "CFOX" });
    expect(decoded?.data).to.deep.include({
      secret: Array.from(Buffer.from((request.secret as string).slice(2), "hex")),
    });

    // The sandbox's builder makes the same commit and reserve instructions, aimed at the chain's sandbox
    // deployment: never at the production program.
    const simulated = await new SimulatedSolanaRegistry(entry).prepareTransaction(request);
    if (simulated?.reveal == null) throw new Error("the sandbox prepared no reveal");
    expect(simulated.reveal.commitment).to.equal(reveal.commitment);
    for (const [sandboxStep, step] of [
      [simulated.transaction, prepared.transaction],
      [simulated.reveal.transaction, reveal.transaction],
    ] as const) {
      const sandboxInstruction = registryInstructionOf(sandboxStep);
      expect(sandboxInstruction?.programId.toBase58()).to.equal(entry.sandbox?.programId);
      expect(sandboxInstruction?.programId.toBase58()).to.not.equal(entry.programId);
      expect(sandboxInstruction?.data).to.deep.equal(registryInstructionOf(step)?.data);
    }

    const treasury = treasuryAddress(programId);
    const before = await connection.getBalance(treasury);
    const signature = await pay(creator, prepared);

    const outcome = await client.transactionOutcome(signature);
    expect(outcome).to.have.property("state", "succeeded");
    expect(await connection.getBalance(treasury)).to.equal(before + Number(quote.amount));
    const settlement = await client.settlementOf(signature);
    expect(settlement).to.deep.include({
      kind: "reserve",
      nameHash: identity.nameHash,
      tickerHash: identity.tickerHash,
      launcher: creator.publicKey.toBase58(),
      feePaid: quote.amount,
    });
    const onChain = await client.reservationOf(identity);
    expect(onChain).to.deep.include({
      launcher: creator.publicKey.toBase58(),
      expiresAt: settlement?.expiresAt,
      active: true,
    });
    // The rest of the account, as the indexer mirrors it (the identity check's `tx` writes rows from it).
    expect(onChain?.account).to.deep.include({
      normalizedName: identity.normalizedName,
      normalizedTicker: identity.normalizedTicker,
      feePaid: quote.amount,
      partnerRef,
    });
    expect(await client.activeReservationCount(creator.publicKey.toBase58())).to.equal(1);
    const context = await client.reserveContext(identity, creator.publicKey);
    expect(context.reservation?.partnerRef).to.equal(partnerRef);
    expect(context.instruction).to.equal("reserve"); // held, but its renewal window is not open yet
  });

  it("reads a commitment from its commit until its reveal closes it, and tells each step by its instruction", async () => {
    const launcher = devWallet("launcher").solana;
    const { prepared } = await prepare(launcher, "Sealed Bee", "SBEE");
    const { commitment } = revealOf(prepared);
    expect(await client.commitmentOf(launcher.publicKey.toBase58(), commitment)).to.equal(null);

    const signature = await pay(launcher, prepared, {
      beforeReveal: async (commitSignature: string) => {
        const slot = await landedSlot(commitSignature);
        const held = await client.commitmentOf(launcher.publicKey.toBase58(), commitment);
        expect(held).to.not.equal(null);
        expect(held?.revealableSlot).to.equal(slot + 1); // the local program's one-slot minimum
        expect(held?.revealableAt).to.deep.equal(held?.committedAt);
        expect(held?.committedAt.getTime()).to.equal(((await connection.getBlockTime(slot)) ?? 0) * 1000);
        // Another launcher's commitment to the same value is a different account.
        const other = devWallet("creator").solana.publicKey.toBase58();
        expect(await client.commitmentOf(other, commitment)).to.equal(null);
        expect(await client.stepOf(commitSignature)).to.equal("commit");
      },
    });
    expect(await client.transactionOutcome(signature)).to.have.property("state", "succeeded");
    expect(await client.stepOf(signature)).to.equal("reserve");
    expect(await client.commitmentOf(launcher.publicKey.toBase58(), commitment)).to.equal(null);
  });

  it("tells no step for an unknown signature, a malformed one, or a transaction that is no registry call", async () => {
    expect(await client.stepOf(utils.bytes.bs58.encode(randomBytes(64)))).to.equal(null);
    expect(await client.stepOf(`0x${"ab".repeat(32)}`)).to.equal(null);
    const operator = devWallet("operator").solana;
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    const transfer = new Transaction({ feePayer: operator.publicKey, blockhash, lastValidBlockHeight }).add(
      SystemProgram.transfer({
        fromPubkey: operator.publicKey,
        toPubkey: devWallet("creator").solana.publicKey,
        lamports: 1,
      }),
    );
    transfer.sign(operator);
    const signature = await connection.sendRawTransaction(transfer.serialize());
    await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight }, "confirmed");
    expect(await client.stepOf(signature)).to.equal(null);
  });

  it("reads a pair never reserved as null and a fresh wallet as holding none", async () => {
    expect(await client.reservationOf(normalizeIdentity("Never Held", "NVR"))).to.equal(null);
    expect(await client.activeReservationCount(devWallet("operator").solana.publicKey.toBase58())).to.equal(
      0,
    );
  });

  it("reports a transaction that failed on-chain as failed, naming the program error", async () => {
    const holder = devWallet("creator").solana;
    await pay(holder, (await prepare(holder, "Taken Owl", "TOWL")).prepared);
    const other = devWallet("launcher").solana;
    const signature = await pay(other, (await prepare(other, "Taken Owl", "TOWL")).prepared, {
      skipPreflight: true,
    });
    const outcome = await client.transactionOutcome(signature);
    expect(outcome).to.have.property("state", "failed");
    expect(outcome.state === "failed" && outcome.error).to.contain("AlreadyReserved (6006)");
    expect(await client.settlementOf(signature)).to.equal(null);
  });

  it("reports a processed but unconfirmed transaction as pending and an unknown signature as not_found", async () => {
    const launcher = devWallet("launcher").solana;
    const { prepared } = await prepare(launcher, "Pending Elk", "PELK");
    try {
      // The commitment is confirmed; its reveal is processed but not confirmed.
      const signature = await pay(launcher, prepared, {
        confirm: false,
        beforeReveal: () =>
          localnet.solana.chain.setFaults({
            freezeBlocks: true,
            commitmentLag: { confirmed: 1, finalized: 1 },
          }),
      });
      expect(await client.transactionOutcome(signature)).to.deep.equal({ state: "pending" });
      localnet.solana.chain.produceBlock();
      expect(await client.transactionOutcome(signature)).to.have.property("state", "succeeded");
    } finally {
      localnet.solana.chain.setFaults({});
    }
    const unknown = utils.bytes.bs58.encode(randomBytes(64));
    expect(await client.transactionOutcome(unknown)).to.deep.equal({ state: "not_found" });
    expect(await client.settlementOf(unknown)).to.equal(null);
    expect(client.isTransactionHash(unknown)).to.equal(true);
    expect(client.isTransactionHash(`0x${"ab".repeat(32)}`)).to.equal(false);
  });

  it("prepares a renewal the holder lands inside the last 12 hours", async () => {
    const operator = devWallet("operator").solana;
    const first = await prepare(operator, "Renew Yak", "RYAK");
    const firstSettlement = await client.settlementOf(await pay(operator, first.prepared));
    localnet.solana.chain.warpTime(DAY - RENEWAL_WINDOW_SECONDS + 60);
    await localnet.refreshPrices(); // the price went stale with the time jump

    const context = await client.reserveContext(first.identity, operator.publicKey);
    expect(context.instruction).to.equal("renew");
    const renewal = await prepare(operator, "Renew Yak", "RYAK", "renew");
    expect(renewal.prepared.reveal).to.equal(null); // a renewal commits to nothing: one paying transaction
    const renew = registryInstructionOf(renewal.prepared.transaction);
    expect(registryCoder().instruction.decode(renew?.data as Buffer)?.name).to.equal("renew");
    expect(renew?.keys).to.have.length(7); // no commitment account
    const signature = await pay(operator, renewal.prepared);

    expect(await client.transactionOutcome(signature)).to.have.property("state", "succeeded");
    expect(await client.stepOf(signature)).to.equal("renew");
    const settlement = await client.settlementOf(signature);
    expect(settlement).to.deep.include({ kind: "renew", feePaid: renewal.quote.amount });
    expect(settlement?.expiresAt.getTime()).to.equal(
      (firstSettlement?.expiresAt.getTime() ?? 0) + DAY * 1000,
    );
  });

  it("refuses to quote on a stale price, and the program refuses the reservation too", async () => {
    const creator = devWallet("creator").solana;
    const { prepared } = await prepare(creator, "Stale Gnu", "SGNU");
    localnet.solana.chain.warpTime(61);
    try {
      await expectStale(creator, prepared);
    } finally {
      await localnet.refreshPrices();
    }
  });

  async function expectStale(creator: Keypair, prepared: PreparedSteps): Promise<void> {
    const error = await client.quote(DAY).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(PriceUnavailableError);
    expect((error as PriceUnavailableError).detail).to.contain("more than 60 s before the chain's clock");
    const context = await client.reserveContext(normalizeIdentity("Stale Gnu", "SGNU"), creator.publicKey);
    expect(context.price).to.include({ ok: false, error: "StalePrice" });
    expect(context.tiers.map((tier) => tier.lamports)).to.deep.equal([null, null, null, null]);

    const signature = await pay(creator, prepared, { skipPreflight: true });
    const outcome = await client.transactionOutcome(signature);
    expect(outcome.state === "failed" && outcome.error).to.contain("StalePrice");
  }

  it("turns an RPC endpoint that does not answer into ChainUnavailableError", async () => {
    const unreachable = new SolanaRegistryClient(
      { ...entry, rpcUrl: "http://127.0.0.1:9" },
      { timeoutMs: 2_000 },
    );
    const creator = devWallet("creator").solana;
    for (const read of [
      () => unreachable.quote(DAY),
      () => unreachable.activeReservationCount(creator.publicKey.toBase58()),
      () => unreachable.transactionOutcome(utils.bytes.bs58.encode(randomBytes(64))),
      () => unreachable.latestBlockhash(),
    ]) {
      expect(await read().catch((e: unknown) => e)).to.be.instanceOf(ChainUnavailableError);
    }
  });
});
