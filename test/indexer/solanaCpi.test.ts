// Reservations the registry makes while another program invokes it (a multisig, a launchpad: the test-only
// cpi_caller), with logs the runtime truncated, or with accounts loaded from an address lookup table, reach the
// mirror: the real Solana indexer against the local Solana RPC, and the API deciding from that mirror.
import {
  AddressLookupTableProgram,
  type Keypair,
  PublicKey,
  SystemProgram,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { expect } from "chai";
import { registryCatalogue } from "../../chains/catalogue";
import { ChainUnavailableError, type RegistryClient } from "../../chains/registryClient";
import { foldedHash, foldV1 } from "../../core/fold";
import { type SolanaIndexer, startSolanaIndexer } from "../../indexer/solana";
import { reservationAddress } from "../../scripts/solana/registry";
import { bearer, issueKey, startTestApi, TEST_HOSTS, type TestApi } from "../api/support/harness";
import { deployCpiCaller, TRUNCATING_FILLER_LINES, throughCaller } from "../programs/support/cpiCaller";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";
import { indexedNumber, mirrorRows, waitFor } from "./support/readModel";
import { SOLANA_DAY, type SolanaTestChain, startSolanaTestChain } from "./support/solanaChain";

const CHAIN = "solana";
const FAST_RETRY = { attempts: 12, initialDelayMs: 20, maxDelayMs: 200, timeoutMs: 2_000 };

describe("Solana indexer: reservations made through another program", function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let chain: SolanaTestChain;
  let indexer: SolanaIndexer;
  let api: TestApi;
  let registry: RegistryClient;
  let key: string;
  let caller: PublicKey;
  /** Seconds the test moved the chain's clock; the API's clock follows it. */
  let warped = 0;

  before(async () => {
    [database, chain] = await Promise.all([createTestDatabase(), startSolanaTestChain(CHAIN)]);
    caller = await deployCpiCaller(chain.provider);
    indexer = await startSolanaIndexer({
      pool: database.pool,
      manifestEntry: chain.entry,
      commitment: "confirmed",
      pollIntervalMs: 100,
      retry: FAST_RETRY,
      log: () => undefined,
    });
    const registries = registryCatalogue({ evm: [], solana: [chain.entry] });
    registry = registries.production.get(CHAIN) as RegistryClient;
    api = await startTestApi({
      db: database,
      deps: {
        registries,
        decisions: { chains: [{ chain: CHAIN, family: "solana" }] },
        now: () => Date.now() + warped * 1000,
      },
    });
    key = (await issueKey(api, "production", { rateLimitPerMinute: 2_000 })).secret;
    await indexer.caughtUp;
  });

  // Chain time runs on while a test waits; the program refuses prices older than 60 s of it.
  beforeEach(() => chain.refreshPrice());

  after(async () => {
    await api?.close();
    await indexer?.stop();
    await chain?.stop();
    await database?.close();
  });

  /**
   * Sends the registry's `kind` instruction for the pair through cpi_caller, signed by `launcher` (a reserve is the
   * reveal: its commitment went directly, before).
   */
  async function throughAnotherProgram(
    kind: "reserve" | "renew",
    launcher: Keypair,
    name: string,
    ticker: string,
    fillerLines = 0,
  ): Promise<string> {
    const instruction = await chain.instruction(kind, launcher, name, ticker);
    return chain.send(launcher, [throughCaller(caller, instruction, fillerLines)]);
  }

  /** The mirror's row of the pair once it shows `signature`, with the checkpoint past that transaction's slot. */
  async function mirroredBy(signature: string, name: string) {
    const row = await waitFor(
      async () => (await mirrorRows(database.pool, CHAIN)).find((each) => each.tx_hash === signature),
      (found) => found !== undefined,
    );
    await waitFor(
      () => indexedNumber(database.pool, CHAIN),
      (indexed) => indexed >= BigInt(row?.block_number ?? 0),
    );
    expect(row?.name_hash).to.equal(foldedHash(foldV1(name)));
    return row as NonNullable<typeof row>;
  }

  async function check(name: string, ticker: string) {
    const response = await api.call({
      path: `/api/v1/identity/check?chain=${CHAIN}&name=${encodeURIComponent(name)}&ticker=${ticker}`,
      host: TEST_HOSTS.production[0],
    });
    expect(response.status, response.text).to.equal(200);
    return response.body as { status: string; adapter: string };
  }

  async function validate(name: string, ticker: string, launcher: PublicKey): Promise<string> {
    const response = await api.call({
      method: "POST",
      path: "/api/v1/launches/validate",
      headers: bearer(key),
      body: { chain: CHAIN, name, ticker, launcher: launcher.toBase58() },
    });
    expect(response.status, response.text).to.equal(200);
    return (response.body as { decision: string }).decision;
  }

  it("mirrors a reserve and a renew made through another program: reserved, blocked for another launcher, past the first expiry too", async () => {
    const holder = chain.newLauncher();
    const copycat = chain.newLauncher();
    const reserved = await throughAnotherProgram("reserve", holder, "Relay Cat", "RCAT");
    const row = await mirroredBy(reserved, "Relay Cat");
    expect(row).to.include({ launcher: holder.publicKey.toBase58(), duration_seconds: SOLANA_DAY });
    expect(await check("Relay Cat", "RCAT")).to.include({ status: "reserved", adapter: "index" });
    expect(await validate("Relay Cat", "RCAT", copycat.publicKey)).to.equal("block");
    expect(await validate("Relay Cat", "RCAT", holder.publicKey)).to.equal("allow");

    // Into the renewal window, renew through the caller, then past the first expiry: the renewal holds the pair.
    await warp(SOLANA_DAY - 3600);
    const renewed = await throughAnotherProgram("renew", holder, "Relay Cat", "RCAT");
    const renewedRow = await mirroredBy(renewed, "Relay Cat");
    expect(renewedRow.duration_seconds).to.equal(2 * SOLANA_DAY);
    expect(renewedRow.expires_at.getTime()).to.equal(row.expires_at.getTime() + SOLANA_DAY * 1000);
    await warp(2 * 3600);
    await waitFor(
      () => indexedNumber(database.pool, CHAIN),
      (indexed) => indexed >= BigInt(chain.rpc.chain.ledger.head.slot),
    );
    expect(await check("Relay Cat", "RCAT")).to.include({ status: "reserved", adapter: "index" });
    expect(await validate("Relay Cat", "RCAT", copycat.publicKey)).to.equal("block");
  });

  it("mirrors a reserve whose logs the runtime truncated before the registry's event", async () => {
    const holder = chain.newLauncher();
    const signature = await throughAnotherProgram(
      "reserve",
      holder,
      "Muted Cat",
      "MCAT",
      TRUNCATING_FILLER_LINES,
    );
    const logs = (await chain.provider.connection.getTransaction(signature, { commitment: "confirmed" }))
      ?.meta?.logMessages;
    expect(logs).to.include("Log truncated");
    expect(logs?.some((line) => line.startsWith("Program data:"))).to.equal(false);
    expect((await mirroredBy(signature, "Muted Cat")).launcher).to.equal(holder.publicKey.toBase58());
    expect(await check("Muted Cat", "MCAT")).to.include({ status: "reserved", adapter: "index" });
    expect(await validate("Muted Cat", "MCAT", chain.newLauncher().publicKey)).to.equal("block");
  });

  it("mirrors a reserve whose reservation account is loaded from an address lookup table (v0)", async () => {
    const holder = chain.newLauncher();
    const connection = chain.provider.connection;
    const reservation = reservationAddress(
      new PublicKey(chain.entry.programId),
      foldedHash(foldV1("Table Cat")),
      foldedHash("TCAT"),
    );
    const [create, table] = AddressLookupTableProgram.createLookupTable({
      authority: holder.publicKey,
      payer: holder.publicKey,
      recentSlot: await connection.getSlot("confirmed"),
    });
    const extend = AddressLookupTableProgram.extendLookupTable({
      lookupTable: table,
      authority: holder.publicKey,
      payer: holder.publicKey,
      addresses: [reservation],
    });
    await chain.send(holder, [create, extend]);
    chain.rpc.chain.produceBlock(); // extended addresses activate a slot later
    const lookup = (await connection.getAddressLookupTable(table)).value;
    const message = new TransactionMessage({
      payerKey: holder.publicKey,
      recentBlockhash: (await connection.getLatestBlockhash()).blockhash,
      instructions: [throughCaller(caller, await chain.instruction("reserve", holder, "Table Cat", "TCAT"))],
    }).compileToV0Message(lookup ? [lookup] : []);
    expect(message.addressTableLookups).to.have.length(1);
    const transaction = new VersionedTransaction(message);
    transaction.sign([holder]);
    const signature = await connection.sendTransaction(transaction);
    await connection.confirmTransaction(
      { signature, ...(await connection.getLatestBlockhash()) },
      "confirmed",
    );
    const landed = await connection.getTransaction(signature, {
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    });
    expect(landed?.meta?.loadedAddresses?.writable.map(String)).to.deep.equal([reservation.toBase58()]);
    expect((await mirroredBy(signature, "Table Cat")).launcher).to.equal(holder.publicKey.toBase58());
    expect(await check("Table Cat", "TCAT")).to.include({ status: "reserved", adapter: "index" });
  });

  it("removes the row of a reservation account that no longer holds a reservation once a transaction writes it", async () => {
    const holder = chain.newLauncher();
    const signature = await throughAnotherProgram("reserve", holder, "Gone Cat", "GCAT");
    await mirroredBy(signature, "Gone Cat");
    const programId = new PublicKey(chain.entry.programId);
    const account = reservationAddress(programId, foldedHash(foldV1("Gone Cat")), foldedHash("GCAT"));
    // What a program version that closes reservations would leave: the account gone (litesvm stands in for it).
    chain.rpc.chain.svm.setAccount({
      address: account.toBase58() as never,
      data: new Uint8Array(0),
      executable: false,
      lamports: 0n as never,
      programAddress: SystemProgram.programId.toBase58() as never,
      space: 0n,
    });
    // A transaction of the program's history that writes the account: it is mirrored as it now is, absent.
    const touch = SystemProgram.transfer({
      fromPubkey: holder.publicKey,
      toPubkey: account,
      lamports: 1_000_000,
    });
    touch.keys.push({ pubkey: programId, isSigner: false, isWritable: false });
    const closing = await chain.send(holder, [touch]);
    const slot =
      (await chain.provider.connection.getTransaction(closing, { commitment: "confirmed" }))?.slot ?? 0;
    // Past the slot: the local RPC reports its open head block at every commitment, so a checkpoint at the
    // transaction's own slot may predate the transaction; one past it does not.
    await waitFor(
      () => indexedNumber(database.pool, CHAIN),
      (indexed) => indexed > BigInt(slot),
    );
    const names = (await mirrorRows(database.pool, CHAIN)).map((row) => row.normalized_name);
    expect(names).to.not.include("GONECAT");
    expect(await check("Gone Cat", "GCAT")).to.include({ status: "available", adapter: "index" });
  });

  it("the registry client reads the settlement of a reserve made through another program, and does not guess when the logs were truncated", async () => {
    const holder = chain.newLauncher();
    const signature = await throughAnotherProgram("reserve", holder, "Paid Cat", "PCAT");
    const settlement = await registry.settlementOf(signature);
    const account = await chain.program.account.reservation.fetch(
      reservationAddress(
        new PublicKey(chain.entry.programId),
        foldedHash(foldV1("Paid Cat")),
        foldedHash("PCAT"),
      ),
    );
    expect(settlement).to.deep.equal({
      kind: "reserve",
      nameHash: foldedHash(foldV1("Paid Cat")),
      tickerHash: foldedHash("PCAT"),
      launcher: holder.publicKey.toBase58(),
      expiresAt: new Date(Number(account.expiresAt.toString()) * 1000),
      feePaid: BigInt(account.feeLamports.toString()),
    });

    const muted = await throughAnotherProgram("reserve", holder, "Hush Cat", "HCAT", TRUNCATING_FILLER_LINES);
    const answer = await registry.settlementOf(muted).catch((error: unknown) => error);
    expect(answer).to.be.instanceOf(ChainUnavailableError);
    expect(String(answer)).to.match(/truncated/);
  });

  /** Moves the chain's clock and the API's together, with a fresh price for the next reserve or renew. */
  async function warp(seconds: number): Promise<void> {
    chain.rpc.chain.warpTime(seconds);
    warped += seconds;
    await chain.refreshPrice();
  }
});
