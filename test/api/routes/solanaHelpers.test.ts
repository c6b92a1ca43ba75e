// The public Solana helper endpoints over HTTP against the local Solana RPC with the program deployed: a wallet
// builds the reserve transaction itself from /v1/solana/reserve-context and /v1/solana/blockhash, signs it with
// a web3.js Keypair, and follows it with /v1/solana/tx-status. Responses are checked against the OpenAPI document.
import { randomBytes } from "node:crypto";
import { AnchorProvider, BN, utils, Wallet } from "@coral-xyz/anchor";
import {
  Connection,
  type Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  type TransactionInstruction,
} from "@solana/web3.js";
import { expect } from "chai";
import { registerSolanaHelperRoutes } from "../../../api/routes/solanaHelpers";
import { registryCatalogue } from "../../../chains/catalogue";
import { configAddress } from "../../../chains/solana/addresses";
import { solanaCommitment } from "../../../chains/solana/commitment";
import type { SolanaManifestEntry } from "../../../config/manifest";
import { RENEWAL_WINDOW_SECONDS } from "../../../core/reservation";
import { devWallet, type Localnet } from "../../../scripts/localnet";
import { registryProgram } from "../../../scripts/solana/registry";
import { letWebsocketIdle } from "../../scripts/localnet/rpcClient";
import { startQuietLocalnet } from "../../support/localChains";
import { expectEnvelope, startTestApi, TEST_HOSTS, type TestApi } from "../support/harness";

const DAY = 86_400;

interface ContextBody {
  programId: string;
  instruction: "reserve" | "renew";
  identity: { nameHash: `0x${string}`; tickerHash: `0x${string}` };
  accounts: Record<string, string>;
  args: { reserve: { name: string; ticker: string; partnerRef: `0x${string}` } };
  commitment: { seeds: string[]; minCommitmentSlots: number; maxCommitmentAgeSeconds: number };
  computeUnitLimit: number;
  tiers: { durationSeconds: number; usd: string; lamports: string | null }[];
  price: { usable: boolean; problem: string | null; priceUsd: number | null };
  reservation: { holder: string; active: boolean; expiresAt: string; renewalOpensAt: string } | null;
  renewal: { applies: boolean; opensAt: string | null };
  wallet: { activeReservations: number; maxActivePerWallet: number };
}

describe("api: Solana helper endpoints", function () {
  this.timeout(120_000);
  let localnet: Localnet;
  let entry: SolanaManifestEntry;
  let api: TestApi;
  let connection: Connection;

  before(async () => {
    // The deploy just published a price, fresh for 60 s of chain time; tests that move chain time refresh it.
    localnet = await startQuietLocalnet({ slotMs: 100 });
    entry = localnet.manifest.solana[0] as SolanaManifestEntry;
    connection = new Connection(entry.rpcUrl, { commitment: "confirmed", wsEndpoint: entry.wsUrl });
    api = await startTestApi({
      extraRoutes: [registerSolanaHelperRoutes],
      deps: { registries: registryCatalogue(localnet.manifest) },
    });
  });

  after(async () => {
    await api?.close();
    await letWebsocketIdle();
    await localnet?.stop();
  });

  const get = (path: string) => api.call({ path: `/api/v1/solana/${path}` });

  async function context(name: string, ticker: string, launcher: Keypair): Promise<ContextBody> {
    const query = new URLSearchParams({ name, ticker, launcher: launcher.publicKey.toBase58() });
    const response = await get(`reserve-context?${query}`);
    expect(response.status, response.text).to.equal(200);
    return response.body as ContextBody;
  }

  /** Signs and sends one instruction with the helper's blockhash; resolves once confirmed. */
  async function signSend(
    keypair: Keypair,
    instruction: TransactionInstruction,
    options: { skipPreflight?: boolean } = {},
  ): Promise<string> {
    const blockhash = await get("blockhash");
    expect(blockhash.status, blockhash.text).to.equal(200);
    const recent = blockhash.body as { blockhash: string; lastValidBlockHeight: number };
    const transaction = new Transaction({ feePayer: keypair.publicKey, ...recent }).add(instruction);
    transaction.sign(keypair);
    const signature = await connection.sendRawTransaction(transaction.serialize(), options);
    await connection.confirmTransaction({ signature, ...recent }, "confirmed");
    return signature;
  }

  /**
   * A wallet's own build: the Anchor client over the IDL, the context's accounts, the helper's blockhash. A new
   * reservation is the wallet's own commitment (its secret, the commitment account from the context's seeds), then,
   * in a later slot, the reveal.
   */
  async function buildSignSend(
    keypair: Keypair,
    body: ContextBody,
    options: { skipPreflight?: boolean } = {},
  ): Promise<string> {
    const program = registryProgram(
      new AnchorProvider(connection, new Wallet(keypair), { commitment: "confirmed" }),
      body.programId,
    );
    const accounts = Object.fromEntries(
      Object.entries(body.accounts).map(([name, address]) => [name, new PublicKey(address)]),
    ) as Parameters<ReturnType<typeof program.methods.reserve>["accountsStrict"]>[0];
    if (body.instruction === "renew") {
      const { commitment: _none, ...renewAccounts } = accounts;
      return signSend(
        keypair,
        await program.methods.renew(new BN(DAY)).accountsStrict(renewAccounts).instruction(),
      );
    }
    const secret = `0x${randomBytes(32).toString("hex")}` as const;
    const { partnerRef } = body.args.reserve;
    const commitment = solanaCommitment({
      identity: body.identity,
      launcher: keypair.publicKey,
      durationSeconds: DAY,
      partnerRef,
      secret,
    });
    expect(body.commitment.seeds.slice(0, 2)).to.deep.equal(["commitment", keypair.publicKey.toBase58()]);
    const commitmentAccount = PublicKey.findProgramAddressSync(
      [Buffer.from("commitment"), keypair.publicKey.toBuffer(), Buffer.from(commitment.slice(2), "hex")],
      new PublicKey(body.programId),
    )[0];
    const bytes = (hex: string) => Array.from(Buffer.from(hex.slice(2), "hex"));
    const committed = await signSend(
      keypair,
      await program.methods
        .commit(bytes(commitment))
        .accountsStrict({
          launcher: keypair.publicKey,
          commitment: commitmentAccount,
          systemProgram: SystemProgram.programId,
        })
        .instruction(),
    );
    const landed = (await connection.getSignatureStatus(committed)).value?.slot ?? 0;
    while ((await connection.getSlot("processed")) < landed + body.commitment.minCommitmentSlots) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const reveal = await program.methods
      .reserve(
        body.args.reserve.name,
        body.args.reserve.ticker,
        new BN(DAY),
        bytes(partnerRef),
        bytes(secret),
      )
      .accountsStrict({ ...accounts, commitment: commitmentAccount })
      .instruction();
    return signSend(keypair, reveal, options);
  }

  const txStatus = async (signature: string) => {
    const response = await get(`tx-status?signature=${signature}`);
    expect(response.status, response.text).to.equal(200);
    return response.body as { state: string; slot: number | null; error: string | null; chain: string };
  };

  it("quotes a tier in lamports and SOL, on the only Solana chain or the one named", async () => {
    const response = await get(`quote?durationSeconds=${DAY}`);
    expect(response.status, response.text).to.equal(200);
    expect(response.body).to.include({
      chain: "solana",
      durationSeconds: DAY,
      usd: "5.00",
      lamports: "33333334",
      sol: "0.033333334",
      priceUsd: 150,
    });
    const body = response.body as { priceUpdatedAt: string; expiresAt: string };
    expect(Date.parse(body.expiresAt) - Date.parse(body.priceUpdatedAt)).to.equal(60_000);
    expect((await get("quote?durationSeconds=2592000&chain=solana")).body).to.include({ usd: "80.00" });
  });

  it("refuses a chain that is not Solana, a duration that is not a tier and a malformed signature with 400", async () => {
    const notSolana = await get(`quote?durationSeconds=${DAY}&chain=hardhat`);
    expectEnvelope(notSolana, 400, "invalid_request");
    expect((notSolana.body as { error: { message: string } }).error.message).to.contain("use one of: solana");
    expectEnvelope(await get("quote?durationSeconds=100"), 400, "invalid_request");
    expectEnvelope(await get("quote"), 400, "invalid_request");
    expectEnvelope(await get("tx-status?signature=not-a-signature"), 400, "invalid_request");
    const pda = configAddress(new PublicKey(entry.programId)).toBase58();
    const offCurve = await get(`reserve-context?name=Fox&ticker=FOX&launcher=${pda}`);
    expectEnvelope(offCurve, 400, "invalid_request");
    expect((offCurve.body as { error: { message: string } }).error.message).to.contain("cannot sign");
    const tooLong = await get(`reserve-context?name=Fox&ticker=FOX&launcher=${"z".repeat(44)}`);
    expectEnvelope(tooLong, 400, "invalid_request");
    const keypair = devWallet("creator").solana.publicKey.toBase58();
    expectEnvelope(
      await get(`reserve-context?name=!!!&ticker=FOX&launcher=${keypair}`),
      400,
      "invalid_request",
    );
  });

  it("gives a wallet every account and argument to build reserve itself; the transaction lands", async () => {
    const creator = devWallet("creator").solana;
    const before = await context("Helper Fox", "hfox", creator);
    expect(before).to.deep.include({ programId: entry.programId, instruction: "reserve", reservation: null });
    expect(before.args.reserve).to.include({ name: "HELPERFOX", ticker: "HFOX" });
    expect(before.accounts).to.include({
      launcher: creator.publicKey.toBase58(),
      config: entry.configAccount,
      priceUpdate: entry.priceAccount,
    });
    expect(before.tiers.map((tier) => [tier.durationSeconds, tier.usd, tier.lamports])).to.deep.equal([
      [86_400, "5.00", "33333334"],
      [259_200, "12.00", "80000000"],
      [604_800, "25.00", "166666667"],
      [2_592_000, "80.00", "533333334"],
    ]);
    expect(before.price).to.include({ usable: true, priceUsd: 150, problem: null });
    expect(before.renewal).to.deep.equal({ applies: false, opensAt: null });

    const signature = await buildSignSend(creator, before);
    const status = await txStatus(signature);
    expect(status).to.include({ chain: "solana", state: "succeeded", error: null });
    expect(status.slot).to.be.a("number");

    const after = await context("Helper  fox!", "HFOX", creator);
    expect(after.instruction).to.equal("reserve"); // held by this wallet, but its renewal window is not open yet
    expect(after.reservation).to.include({ holder: creator.publicKey.toBase58(), active: true });
    expect(after.renewal.opensAt).to.equal(after.reservation?.renewalOpensAt);
    expect(after.wallet).to.deep.equal({ activeReservations: 1, maxActivePerWallet: 3 });
  });

  it("reports a failed transaction with the program's error and an unknown signature as not_found", async () => {
    const holder = devWallet("creator").solana;
    await buildSignSend(holder, await context("Helper Owl", "HOWL", holder));
    const other = devWallet("launcher").solana;
    const signature = await buildSignSend(other, await context("Helper Owl", "HOWL", other), {
      skipPreflight: true,
    });
    const status = await txStatus(signature);
    expect(status.state).to.equal("failed");
    expect(status.error).to.contain("AlreadyReserved");
    expect(await txStatus(utils.bytes.bs58.encode(randomBytes(64)))).to.include({
      state: "not_found",
      slot: null,
    });
  });

  it("says renew once the holder's window is open, and the renewal lands", async () => {
    const operator = devWallet("operator").solana;
    await buildSignSend(operator, await context("Helper Yak", "HYAK", operator));
    localnet.solana.chain.warpTime(DAY - RENEWAL_WINDOW_SECONDS + 60);
    await localnet.refreshPrices();

    const open = await context("Helper Yak", "HYAK", operator);
    expect(open.instruction).to.equal("renew");
    expect(open.renewal.applies).to.equal(true);
    expect((await context("Helper Yak", "HYAK", devWallet("launcher").solana)).instruction).to.equal(
      "reserve",
    );
    expect(await txStatus(await buildSignSend(operator, open))).to.include({ state: "succeeded" });
    const renewed = await context("Helper Yak", "HYAK", operator);
    expect(
      Date.parse(renewed.reservation?.expiresAt ?? "") - Date.parse(open.reservation?.expiresAt ?? ""),
    ).to.equal(DAY * 1000);
  });

  it("answers a stale price with 503 price_unavailable, and the context says why", async () => {
    localnet.solana.chain.warpTime(61);
    try {
      const quote = await get(`quote?durationSeconds=${DAY}`);
      expectEnvelope(quote, 503, "price_unavailable");
      const stale = await context("Stale Fox", "SFOX", devWallet("creator").solana);
      expect(stale.price).to.include({ usable: false, problem: "StalePrice", priceUsd: null });
      expect(stale.tiers.every((tier) => tier.lamports === null)).to.equal(true);
    } finally {
      await localnet.refreshPrices();
    }
  });

  it("on the sandbox host reads the sandbox's own deployment; a chain without one answers 409", async () => {
    const sandboxHost = TEST_HOSTS.sandbox[0];
    const deployment = entry.sandbox;
    if (deployment === undefined) throw new Error("the localnet deploys the sandbox's program");
    const query = new URLSearchParams({
      name: "Sandbox Pad",
      ticker: "SPAD",
      launcher: devWallet("creator").solana.publicKey.toBase58(),
    });
    const path = `/api/v1/solana/reserve-context?${query}`;
    const sandbox = await api.call({ path, host: sandboxHost });
    expect(sandbox.status, sandbox.text).to.equal(200);
    const sandboxContext = sandbox.body as ContextBody;
    expect(sandboxContext.programId).to.equal(deployment.programId);
    expect(Object.values(sandboxContext.accounts)).to.include(deployment.configAccount);
    expect(Object.values(sandboxContext.accounts)).to.not.include(entry.configAccount);
    const production = (await api.call({ path })).body as ContextBody;
    expect(production.programId).to.equal(entry.programId);
    for (const helper of [`quote?durationSeconds=${DAY}`, "blockhash"]) {
      const answer = await api.call({ path: `/api/v1/solana/${helper}`, host: sandboxHost });
      expect(answer.status, answer.text).to.equal(200);
    }

    const { sandbox: _none, ...withoutSandbox } = entry;
    const bare = await startTestApi({
      db: api.db,
      extraRoutes: [registerSolanaHelperRoutes],
      deps: { registries: registryCatalogue({ ...localnet.manifest, solana: [withoutSandbox] }) },
    });
    try {
      for (const helper of [`reserve-context?${query}`, `quote?durationSeconds=${DAY}`, "blockhash"]) {
        expectEnvelope(
          await bare.call({ path: `/api/v1/solana/${helper}`, host: sandboxHost }),
          409,
          "sandbox_deployment_missing",
        );
      }
      // The production host of the same service still reads production.
      expect((await bare.call({ path: "/api/v1/solana/blockhash" })).status).to.equal(200);
    } finally {
      await bare.close();
    }
  });

  it("answers 503 service_unavailable without registries and when the chain's RPC does not answer", async () => {
    const unconfigured = await startTestApi({ db: api.db, extraRoutes: [registerSolanaHelperRoutes] });
    const unreachable = await startTestApi({
      db: api.db,
      extraRoutes: [registerSolanaHelperRoutes],
      deps: {
        registries: registryCatalogue(
          { ...localnet.manifest, solana: [{ ...entry, rpcUrl: "http://127.0.0.1:9" }] },
          { timeoutMs: 2_000 },
        ),
      },
    });
    try {
      expectEnvelope(
        await unconfigured.call({ path: "/api/v1/solana/blockhash" }),
        503,
        "service_unavailable",
      );
      expectEnvelope(
        await unreachable.call({ path: "/api/v1/solana/blockhash" }),
        503,
        "service_unavailable",
      );
      expectEnvelope(
        await unreachable.call({ path: `/api/v1/solana/quote?durationSeconds=${DAY}` }),
        503,
        "service_unavailable",
      );
    } finally {
      await unconfigured.close();
      await unreachable.close();
    }
  });
});
