// The reconciler with the real registry clients against local chains: transactions signed by real wallets (a viem
// account, a web3.js Keypair) exactly as prepared (a new reservation: its commitment, then its reveal), their
// outcomes read over RPC. The mirror rows are written as the
// indexers write them (EVM: Ponder's row semantics; Solana: the Solana indexer's own apply step).
import { randomBytes } from "node:crypto";
import { Connection, type Keypair, VersionedTransaction } from "@solana/web3.js";
import { expect } from "chai";
import {
  type Account,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hash,
  http,
  keccak256,
  parseEventLogs,
  type TransactionReceipt,
} from "viem";
import { registryCatalogue } from "../../../chains/catalogue";
import type {
  EvmTransactionRequest,
  PreparedSteps,
  PreparedTransaction,
  RegistryCatalogue,
  RegistryClient,
  SolanaTransactionRequest,
} from "../../../chains/registryClient";
import type { EvmManifestEntry, SolanaManifestEntry } from "../../../config/manifest";
import { identityRegistryAbi } from "../../../contracts/abi/identityRegistry";
import { normalizeIdentity } from "../../../core/fold";
import {
  newReservationId,
  partnerRefOf,
  RENEWAL_WINDOW_SECONDS,
  SUBMISSION_GRACE_SECONDS,
} from "../../../core/reservation";
import { mirrorBatch } from "../../../indexer/solana/mirror";
import { solanaRpc } from "../../../indexer/solana/rpc";
import { devWallet, type Localnet, startLocalnet } from "../../../scripts/localnet";
import {
  type ReconcileDeps,
  reconcilePass,
  reconcileReservation,
} from "../../../services/reservations/reconcile";
import type { Reservation } from "../../../services/reservations/record";
import { letWebsocketIdle } from "../../scripts/localnet/rpcClient";
import { viemChainOf } from "../../support/localChains";
import { createTestDatabase, type TestDatabase } from "../../support/testDatabase";
import {
  checkpoint,
  current,
  DAY,
  depsAt,
  eventsOf,
  ledgerOf,
  mirrorHold,
  prepare,
  seconds,
  submit,
} from "./support";

const ZERO_REF = `0x${"0".repeat(64)}`;

describe("reservations: reconciler against local chains", function () {
  this.timeout(180_000);
  let localnet: Localnet;
  let db: TestDatabase;
  let registries: RegistryCatalogue;
  let evm: EvmManifestEntry;
  let solana: SolanaManifestEntry;
  let connection: Connection;
  /** A little ahead of the database clock: rows the test writes with now() are never in the reconciler's future. */
  const now = () => new Date(Date.now() + 5_000);
  let deps: ReconcileDeps;

  before(async () => {
    localnet = await startLocalnet({ evmPort: 0, solanaPort: 0, slotMs: 100, manifestPath: null });
    evm = localnet.manifest.evm[0] as EvmManifestEntry;
    solana = localnet.manifest.solana[0] as SolanaManifestEntry;
    registries = registryCatalogue(localnet.manifest);
    connection = new Connection(solana.rpcUrl, { commitment: "confirmed", wsEndpoint: solana.wsUrl });
    db = await createTestDatabase();
    deps = depsAt(db.pool, now, registries);
  });

  after(async () => {
    await letWebsocketIdle();
    await localnet?.stop();
    await db?.close();
  });

  beforeEach(() => localnet.refreshPrices());

  const registry = (chain: string) => registries.production.get(chain) as RegistryClient;

  /** A pass with both mirrors fresh up to now (the indexers are keeping up). */
  async function pass() {
    const at = now();
    await checkpoint(db.pool, evm.chain, "evm", at);
    await checkpoint(db.pool, solana.chain, "solana", at);
    return reconcilePass({ ...deps, now: () => at });
  }

  /** What prepare records: the registry client's transaction for a new reservation id, and the row. */
  async function prepareOn(
    chain: string,
    launcher: string,
    name: string,
    ticker: string,
    kind: "reserve" | "renew",
  ) {
    const client = registry(chain);
    const reservationId = newReservationId();
    const quote = await client.quote(DAY);
    const prepared = await client.prepareTransaction({
      identity: normalizeIdentity(name, ticker),
      launcher,
      durationSeconds: DAY,
      partnerRef: partnerRefOf(reservationId),
      kind,
      quote,
      secret: kind === "renew" ? null : `0x${randomBytes(32).toString("hex")}`,
    });
    if (prepared === null) throw new Error(`registry ${chain} built no transaction`);
    const reservation = await prepare(db.pool, {
      reservationId,
      name,
      ticker,
      chain,
      family: client.family,
      launcher: client.family === "evm" ? launcher.toLowerCase() : launcher,
      kind,
      quoteAmount: quote.amount,
      steps: prepared,
      preparedAt: new Date(),
    });
    return { reservation, prepared };
  }

  describe("EVM (Hardhat)", () => {
    const chain = () => viemChainOf(evm);
    const publicClient = () => createPublicClient({ chain: chain(), transport: http() });

    /** The wallet signs exactly the prepared request; with `revertGas` a transaction that reverts still lands. */
    async function signAndSend(
      account: Account,
      prepared: PreparedTransaction,
      revertGas?: bigint,
    ): Promise<Hash> {
      const request = prepared as EvmTransactionRequest;
      const wallet = createWalletClient({ account, chain: chain(), transport: http() });
      const signed = await wallet.signTransaction(
        await wallet.prepareTransactionRequest({
          to: request.to as `0x${string}`,
          data: request.data,
          value: BigInt(request.value),
          ...(revertGas === undefined ? {} : { gas: revertGas }),
        }),
      );
      await publicClient()
        .sendRawTransaction({ serializedTransaction: signed })
        .catch((error: unknown) => {
          if (revertGas === undefined) throw error;
        });
      return keccak256(signed);
    }

    const mined = (hash: Hash) => publicClient().waitForTransactionReceipt({ hash });

    /**
     * The wallet pays a prepare: a renewal's one transaction, or the commitment (mined) and then the reveal, which
     * needs no wait (the next block is stamped at least the local registry's one-second minimum age later).
     * Resolves with the paying transaction's hash; `revertGas` applies to it.
     */
    async function pay(account: Account, steps: PreparedSteps, revertGas?: bigint): Promise<Hash> {
      if (steps.reveal === null) return signAndSend(account, steps.transaction, revertGas);
      expect((await mined(await signAndSend(account, steps.transaction))).status).to.equal("success");
      return signAndSend(account, steps.reveal.transaction, revertGas);
    }

    /** The mirror row Ponder's handlers and trigger produce for a Reserved or Renewed event. */
    async function indexReceipt(reservation: Reservation, receipt: TransactionReceipt): Promise<void> {
      const [event] = parseEventLogs({
        abi: identityRegistryAbi,
        eventName: ["Reserved", "Renewed"],
        logs: receipt.logs,
      });
      if (event === undefined) throw new Error("no registry event in the receipt");
      if (event.eventName === "Reserved") {
        const block = await publicClient().getBlock({ blockNumber: receipt.blockNumber });
        await mirrorHold(db.pool, reservation, {
          launcher: event.args.launcher.toLowerCase(),
          reservedAt: new Date(Number(block.timestamp) * 1000),
          expiresAt: new Date(Number(event.args.expiresAt) * 1000),
          durationSeconds: event.args.durationSeconds,
          feePaid: event.args.feeWei,
          partnerRef: event.args.partnerRef === ZERO_REF ? null : event.args.partnerRef,
          txHash: receipt.transactionHash,
          blockNumber: Number(receipt.blockNumber),
        });
        return;
      }
      await db.pool.query(
        `UPDATE chain_reservations SET expires_at = $4, duration_seconds = duration_seconds + $5,
           fee_paid = fee_paid + $6, tx_hash = $7, block_number = $8
         WHERE chain = $1 AND name_hash = $2 AND ticker_hash = $3`,
        [
          reservation.chain,
          reservation.nameHash,
          reservation.tickerHash,
          new Date(Number(event.args.expiresAt) * 1000),
          event.args.durationSeconds,
          event.args.feeWei.toString(),
          receipt.transactionHash,
          Number(receipt.blockNumber),
        ],
      );
    }

    it("confirms a reserve at the fee the registry charged, then a renewal at its own fee, not the running total", async () => {
      const account = devWallet("creator").evm;
      const reserve = await prepareOn(evm.chain, account.address, "Worker Heron", "WHRN", "reserve");
      const hash = await pay(account, reserve.prepared);
      const receipt = await mined(hash);
      await submit(db.pool, reserve.reservation, hash, new Date());
      await indexReceipt(reserve.reservation, receipt);
      const reserveFee = (await registry(evm.chain).settlementOf(hash))?.feePaid as bigint;

      const confirmed = await reconcileReservation(deps, reserve.reservation.reservationId);
      expect(confirmed).to.include({ status: "confirmed", feePaid: reserveFee });
      expect(await ledgerOf(db.pool, reserve.reservation.reservationId)).to.include({
        status: "accrued",
        feeAmount: reserveFee.toString(),
      });

      // Into the renewal window; the feed went stale with the time jump.
      await createTestClient({ mode: "hardhat", chain: chain(), transport: http() }).increaseTime({
        seconds: DAY - RENEWAL_WINDOW_SECONDS + 60,
      });
      await localnet.refreshPrices();
      const renewal = await prepareOn(evm.chain, account.address, "Worker Heron", "WHRN", "renew");
      const renewHash = await pay(account, renewal.prepared);
      const renewReceipt = await mined(renewHash);
      await submit(db.pool, renewal.reservation, renewHash, new Date());
      await indexReceipt(renewal.reservation, renewReceipt);
      const renewFee = (await registry(evm.chain).settlementOf(renewHash))?.feePaid as bigint;

      expect(await pass()).to.include({ confirmed: 1, extended: 1 });

      const renewed = await current(db.pool, renewal.reservation);
      const previousEnd = confirmed?.expiresAt as Date;
      expect(renewed).to.include({ status: "confirmed", feePaid: renewFee });
      expect(renewed.startsAt).to.deep.equal(previousEnd);
      expect(renewed.expiresAt).to.deep.equal(seconds(previousEnd, DAY));
      expect(await ledgerOf(db.pool, renewal.reservation.reservationId)).to.include({
        status: "accrued",
        feeAmount: renewFee.toString(),
      });
      const mirrorTotal = await db.pool.query("SELECT fee_paid FROM chain_reservations WHERE tx_hash = $1", [
        renewHash,
      ]);
      expect(mirrorTotal.rows[0]?.fee_paid).to.equal((reserveFee + renewFee).toString());
      expect(
        (await eventsOf(db.pool, renewal.reservation.reservationId)).map((event) => event.type),
      ).to.deep.equal(["identity.extended", "revenue.accrued"]);
      // The reserve's own window follows the chain.
      expect((await current(db.pool, reserve.reservation)).expiresAt).to.deep.equal(renewed.expiresAt);
    });

    it("fails a transaction that reverted on-chain with the registry's error and voids the ledger draft", async () => {
      const holder = devWallet("launcher").evm;
      const held = await prepareOn(evm.chain, holder.address, "Taken Crane", "TCRN", "reserve");
      await mined(await pay(holder, held.prepared));
      const other = devWallet("operator").evm;
      const late = await prepareOn(evm.chain, other.address, "Taken Crane", "TCRN", "reserve");
      const hash = await pay(other, late.prepared, 500_000n);
      await mined(hash);
      await submit(db.pool, late.reservation, hash, new Date());

      expect(await pass()).to.include({ failed: 1 });

      const failed = await current(db.pool, late.reservation);
      expect(failed.status).to.equal("failed");
      expect(failed.statusReason)
        .to.contain(`Transaction ${hash} failed on-chain`)
        .and.contain("PairReserved");
      expect(await ledgerOf(db.pool, late.reservation.reservationId)).to.include({ status: "void" });
      expect(await eventsOf(db.pool, late.reservation.reservationId)).to.deep.equal([]);
    });

    it("fails a transaction that succeeded without reserving anything (a plain transfer)", async () => {
      const account = devWallet("operator").evm;
      const { reservation } = await prepareOn(evm.chain, account.address, "Transfer Ibis", "TIBS", "reserve");
      const wallet = createWalletClient({ account, chain: chain(), transport: http() });
      const hash = await wallet.sendTransaction({ to: devWallet("deployer").evm.address, value: 1n });
      await mined(hash);
      await submit(db.pool, reservation, hash, new Date());

      expect(await pass()).to.include({ failed: 1 });
      expect((await current(db.pool, reservation)).statusReason).to.match(
        /succeeded but made no reserve of TRANSFERIBIS::TIBS/,
      );
    });

    it("fails a transaction no node knows only after the submission grace period", async () => {
      const { reservation } = await prepareOn(
        evm.chain,
        devWallet("creator").evm.address,
        "Ghost Rail",
        "GRAL",
        "reserve",
      );
      const submittedAt = new Date();
      await submit(db.pool, reservation, `0x${randomBytes(32).toString("hex")}`, submittedAt);
      const passAt = async (at: Date) => {
        await checkpoint(db.pool, evm.chain, "evm", at);
        return reconcilePass({ ...deps, now: () => at });
      };

      expect(await passAt(seconds(submittedAt, 10))).to.include({ failed: 0 });
      expect(await current(db.pool, reservation)).to.include({ status: "submitted" });
      expect(await passAt(seconds(submittedAt, SUBMISSION_GRACE_SECONDS + 10))).to.include({ failed: 1 });
      expect((await current(db.pool, reservation)).statusReason).to.match(/did not settle/);
    });
  });

  describe("Solana (local RPC)", () => {
    /** The wallet signs the prepared message bytes as they are and sends them. */
    async function signAndSend(keypair: Keypair, prepared: PreparedTransaction, skipPreflight = false) {
      const request = prepared as SolanaTransactionRequest;
      const transaction = VersionedTransaction.deserialize(Buffer.from(request.tx, "base64"));
      transaction.sign([keypair]);
      const signature = await connection.sendTransaction(transaction, { skipPreflight });
      await connection.confirmTransaction(
        { signature, blockhash: request.recentBlockhash, lastValidBlockHeight: request.lastValidBlockHeight },
        "confirmed",
      );
      return signature;
    }

    /**
     * The wallet pays a prepare: a renewal's one transaction, or the commitment (confirmed), a wait until a slot
     * after its slot (the local program's one-slot minimum age), then the reveal. Resolves with the paying
     * transaction's signature; `skipPreflight` applies to it.
     */
    async function pay(keypair: Keypair, steps: PreparedSteps, skipPreflight = false): Promise<string> {
      if (steps.reveal === null) return signAndSend(keypair, steps.transaction, skipPreflight);
      const commit = await signAndSend(keypair, steps.transaction);
      const slot = (await connection.getSignatureStatuses([commit])).value[0]?.slot ?? 0;
      const deadline = Date.now() + 10_000;
      while ((await connection.getSlot("processed")) <= slot) {
        if (Date.now() > deadline) throw new Error(`the cluster did not pass slot ${slot}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return signAndSend(keypair, steps.reveal.transaction, skipPreflight);
    }

    /** The Solana indexer's own mirroring of one transaction, read from the RPC as a pass reads it. */
    async function indexSignature(signature: string): Promise<void> {
      const context = {
        pool: db.pool,
        rpc: solanaRpc(solana.rpcUrl),
        chain: solana.chain,
        programId: solana.programId,
        commitment: "confirmed" as const,
      };
      await mirrorBatch(context, [signature]);
    }

    it("confirms a reserve by its partnerRef with nobody posting the signature; a failed transaction fails", async () => {
      const creator = devWallet("creator").solana;
      const { reservation, prepared } = await prepareOn(
        solana.chain,
        creator.publicKey.toBase58(),
        "Solar Kite",
        "SKIT",
        "reserve",
      );
      const signature = await pay(creator, prepared);
      await indexSignature(signature);
      const fee = (await registry(solana.chain).settlementOf(signature))?.feePaid as bigint;

      expect(await pass()).to.include({ confirmed: 1 });
      expect(await current(db.pool, reservation)).to.include({ status: "confirmed", feePaid: fee });
      expect(await ledgerOf(db.pool, reservation.reservationId)).to.include({
        status: "accrued",
        feeAmount: fee.toString(),
      });

      const other = devWallet("launcher").solana;
      const late = await prepareOn(solana.chain, other.publicKey.toBase58(), "Solar Kite", "SKIT", "reserve");
      const failedSignature = await pay(other, late.prepared, true);
      await submit(db.pool, late.reservation, failedSignature, new Date());

      expect(await pass()).to.include({ failed: 1 });
      const failed = await current(db.pool, late.reservation);
      expect(failed.status).to.equal("failed");
      expect(failed.statusReason).to.contain("AlreadyReserved");
      expect(await ledgerOf(db.pool, late.reservation.reservationId)).to.include({ status: "void" });
    });
  });
});
