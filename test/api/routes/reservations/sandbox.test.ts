// Reservations in the sandbox, over real HTTP: quote, prepare (simulated, never touching a chain, its commitment and
// reveal aimed at the sandbox's own registry deployment), idempotent replay, status submission rules, sandbox-confirm
// seeding the sandbox hold and the ledger, wallet limits, embed attribution. The sandbox's registries are the
// simulated ones; production data must stay untouched.
import { Keypair, PublicKey, Transaction } from "@solana/web3.js";
import { expect } from "chai";
import { decodeFunctionData } from "viem";
import { registryCatalogue } from "../../../../chains/catalogue";
import { evmCommitment } from "../../../../chains/evm/commitment";
import { SIMULATED_BLOCKHASH } from "../../../../chains/simulated/registryClient";
import type { DeploymentManifest } from "../../../../config/manifest";
import { identityRegistryAbi } from "../../../../contracts/abi/identityRegistry";
import { normalizeIdentity } from "../../../../core/fold";
import { partnerRefOf } from "../../../../core/reservation";
import { allowEmbedLaunchpad } from "../../../../services/reservations/embedLaunchpads";
import {
  bearer,
  expectEnvelope,
  issueKey,
  startTestApi,
  TEST_HOSTS,
  type TestApi,
} from "../../support/harness";
import { OFFLINE_REGISTRY, OFFLINE_SANDBOX_REGISTRY, offlineManifest } from "../../support/offlineManifest";
import { CHAINS } from "../identity/support";

const SANDBOX = TEST_HOSTS.sandbox[0];
const PRODUCTION = TEST_HOSTS.production[0];
const EVM_LAUNCHER = "0x2222222222222222222222222222222222222222";
const EVM_OTHER = "0x3333333333333333333333333333333333333333";
const SOLANA_LAUNCHER = Keypair.generate().publicKey.toBase58();
const PROGRAM_ID = Keypair.generate().publicKey.toBase58();
const SANDBOX_PROGRAM_ID = Keypair.generate().publicKey.toBase58();
const _REGISTRY = OFFLINE_REGISTRY;
const SANDBOX_REGISTRY = OFFLINE_SANDBOX_REGISTRY;

const MANIFEST = offlineManifest({ programId: PROGRAM_ID, sandboxProgramId: SANDBOX_PROGRAM_ID });

interface PreparedBody {
  reservationId: string;
  status: string;
  simulated: boolean;
  kind: string;
  identityKey: string;
  launcher: string;
  partnerRef: string;
  /** A new reservation's commitment, or a renewal. */
  transaction: Record<string, string | number>;
  /** A new reservation's paying reveal; null for a renewal. */
  reveal: {
    transaction: Record<string, string | number>;
    commitment: string;
    minCommitmentAge: { seconds: number } | { slots: number };
    maxCommitmentAgeSeconds: number;
  } | null;
  commit: { commitment: string; transactionHash: string | null; submittedAt: string | null } | null;
  message?: string;
  quote: { amount: string; unit: string; simulated: boolean };
  revenueShare: { partnerId: string; partnerBps: number; serviceBps: number; introductory: boolean };
}

describe("api: reservations in the sandbox (simulated registries)", function () {
  this.timeout(60_000);
  let api: TestApi;
  let sandboxKey: { secret: string; partnerId: string };

  before(async () => {
    api = await startTestApi({
      deps: { registries: registryCatalogue(MANIFEST), decisions: { chains: CHAINS } },
    });
    sandboxKey = await issueKey(api, "sandbox");
  });
  after(async () => api?.close());

  const prepare = (
    body: Record<string, unknown>,
    headers: Record<string, string> = {},
    secret = sandboxKey.secret,
  ) =>
    api.call({
      method: "POST",
      path: "/api/v1/reservations/prepare",
      host: SANDBOX,
      headers: { ...bearer(secret), ...headers },
      body,
    });
  const confirm = (reservationId: string, secret = sandboxKey.secret) =>
    api.call({
      method: "POST",
      path: "/api/v1/reservations/sandbox-confirm",
      host: SANDBOX,
      headers: bearer(secret),
      body: { reservationId },
    });
  const countRows = async (sql: string, values: unknown[] = []) =>
    Number((await api.db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`, values)).rows[0]?.n);

  it("quotes a tier at the sandbox's reference price, marked simulated", async () => {
    const response = await api.call({
      path: "/api/v1/reservations/quote?chain=hardhat&durationSeconds=259200",
      host: SANDBOX,
      headers: bearer(sandboxKey.secret),
    });
    expect(response.status, response.text).to.equal(200);
    const body = response.body as {
      tier: { usd: string };
      quote: { amount: string; unit: string; simulated: boolean };
      policy: { maxActivePerWallet: number };
    };
    expect(body.tier.usd).to.equal("12.00");
    expect(body.quote.unit).to.equal("wei");
    expect(body.quote.simulated).to.equal(true);
    expect(BigInt(body.quote.amount) > 0n).to.equal(true);
    expect(body.policy.maxActivePerWallet).to.equal(3);
  });

  it("refuses a quote or prepare without durationSeconds, or with another value, with invalid_request", async () => {
    const noDuration = await api.call({
      path: "/api/v1/reservations/quote?chain=hardhat",
      host: SANDBOX,
      headers: bearer(sandboxKey.secret),
    });
    expectEnvelope(noDuration, 400, "invalid_request");
    const before = await countRows("reservations");
    expectEnvelope(
      await prepare({ chain: "hardhat", name: "No Duration", ticker: "NODU", launcher: EVM_LAUNCHER }),
      400,
      "invalid_request",
    );
    const wrong = await prepare({
      chain: "hardhat",
      name: "Bad Duration",
      ticker: "BADU",
      launcher: EVM_LAUNCHER,
      durationSeconds: 3600,
    });
    expectEnvelope(wrong, 400, "invalid_request");
    expect(JSON.stringify(wrong.body)).to.contain("86400");
    expectEnvelope(
      await prepare({
        chain: "nowhere",
        name: "Bad Chain",
        ticker: "BADC",
        launcher: EVM_LAUNCHER,
        durationSeconds: 86400,
      }),
      400,
      "invalid_request",
    );
    expectEnvelope(
      await prepare({
        chain: "hardhat",
        name: "Bad Wallet",
        ticker: "BADW",
        launcher: SOLANA_LAUNCHER,
        durationSeconds: 86400,
      }),
      400,
      "invalid_request",
    );
    expectEnvelope(
      await prepare({
        chain: "hardhat",
        name: "!!!",
        ticker: "BADN",
        launcher: EVM_LAUNCHER,
        durationSeconds: 86400,
      }),
      400,
      "invalid_request",
    );
    expect(await countRows("reservations")).to.equal(before);
  });

  it("prepares an EVM reservation: folded pair, a commitment then calldata for reserve with the reservation's partnerRef, ledger draft", async () => {
    const response = await prepare({
      chain: "hardhat",
      name: "Moon Cat 3000",
      ticker: "mc4t",
      launcher: EVM_LAUNCHER,
      durationSeconds: 86400,
    });
    expect(response.status, response.text).to.equal(201);
    const body = response.body as PreparedBody;
    expect(body.status).to.equal("pending_payment");
    expect(body.simulated).to.equal(true);
    expect(body.kind).to.equal("reserve");
    expect(body.identityKey).to.equal("MOONCATEOOO::MCAT");
    expect(body.partnerRef).to.equal(partnerRefOf(body.reservationId));
    const reveal = body.reveal;
    if (reveal === null) throw new Error("a new reservation has a reveal");
    expect(body.commit).to.deep.equal({
      commitment: reveal.commitment,
      transactionHash: null,
      submittedAt: null,
    });
    expect(reveal).to.deep.include({ minCommitmentAge: { seconds: 1 }, maxCommitmentAgeSeconds: 86_400 });
    // Both steps go to the sandbox's own registry, never the production one.
    for (const step of [body.transaction, reveal.transaction]) {
      expect(step.family).to.equal("evm");
      expect(String(step.to).toLowerCase()).to.equal(SANDBOX_REGISTRY);
      expect(String(step.from).toLowerCase()).to.equal(EVM_LAUNCHER);
    }
    // First the commitment, which names no pair and pays nothing.
    expect(
      decodeFunctionData({ abi: identityRegistryAbi, data: body.transaction.data as `0x${string}` }),
    ).to.deep.equal({ functionName: "commit", args: [reveal.commitment] });
    expect(body.transaction.value).to.equal("0");
    const call = decodeFunctionData({
      abi: identityRegistryAbi,
      data: reveal.transaction.data as `0x${string}`,
    });
    expect(call.functionName).to.equal("reserve");
    const [name, ticker, durationSeconds, partnerRef, secret] = call.args as readonly [
      string,
      string,
      number,
      `0x${string}`,
      `0x${string}`,
    ];
    expect([name, ticker, durationSeconds, partnerRef]).to.deep.equal([
      "MOONCATEOOO",
      "MCAT",
      86400,
      body.partnerRef,
    ]);
    // The reveal discloses the secret the commitment hid.
    expect(secret).to.match(/^0x[0-9a-f]{64}$/);
    expect(
      evmCommitment({
        identity: normalizeIdentity("Moon Cat 3000", "mc4t"),
        launcher: EVM_LAUNCHER,
        durationSeconds: 86400,
        partnerRef,
        secret,
      }),
    ).to.equal(reveal.commitment);
    // The value covers the quote with headroom; the registry refunds the excess.
    expect(BigInt(reveal.transaction.value as string) >= BigInt(body.quote.amount)).to.equal(true);
    // A partner whose first key is minutes old is in its introductory period: the service keeps the whole fee.
    expect(body.revenueShare).to.include({
      partnerId: sandboxKey.partnerId,
      partnerBps: 0,
      serviceBps: 10000,
      introductory: true,
    });
    const ledger = await api.db.pool.query(
      "SELECT status, partner_id, environment FROM partner_ledger_entries WHERE reservation_id = $1",
      [body.reservationId],
    );
    expect(ledger.rows).to.deep.equal([
      { status: "draft", partner_id: sandboxKey.partnerId, environment: "sandbox" },
    ]);
  });

  it("prepares a Solana reservation: an unsigned commitment and reveal paid by the launcher, with a blockhash no cluster has", async () => {
    const response = await prepare({
      chain: "solana",
      name: "Sol Fox",
      ticker: "SOLF",
      launcher: SOLANA_LAUNCHER,
      durationSeconds: 604800,
    });
    expect(response.status, response.text).to.equal(201);
    const body = response.body as PreparedBody;
    expect(body.quote.unit).to.equal("lamports");
    expect(body.reveal?.minCommitmentAge).to.deep.equal({ slots: 1 });
    const steps = [body.transaction, body.reveal?.transaction];
    const instructions = steps.map((step) => {
      const transaction = Transaction.from(Buffer.from(step?.tx as string, "base64"));
      expect(transaction.feePayer?.toBase58()).to.equal(SOLANA_LAUNCHER);
      expect(transaction.recentBlockhash).to.equal(SIMULATED_BLOCKHASH);
      const programs = transaction.instructions.map((instruction) => instruction.programId.toBase58());
      expect(programs).to.include(SANDBOX_PROGRAM_ID);
      expect(programs).to.not.include(PROGRAM_ID);
      const signers = transaction.instructions.flatMap((instruction) =>
        instruction.keys.filter((key) => key.isSigner).map((key) => key.pubkey.toBase58()),
      );
      expect([...new Set(signers)]).to.deep.equal([SOLANA_LAUNCHER]);
      expect(new PublicKey(step?.feePayer as string).toBase58()).to.equal(SOLANA_LAUNCHER);
      return transaction.instructions.find(
        (instruction) => instruction.programId.toBase58() === SANDBOX_PROGRAM_ID,
      );
    });
    // The reveal names the commitment account the commit creates.
    const [commit, reserve] = instructions;
    expect(reserve?.keys.at(-1)?.pubkey.toBase58()).to.equal(commit?.keys[1]?.pubkey.toBase58());
  });

  it("replays an idempotent prepare with the same transaction and writes it once", async () => {
    const request = {
      chain: "hardhat",
      name: "Replay Me",
      ticker: "RPLY",
      launcher: EVM_LAUNCHER,
      durationSeconds: 86400,
    };
    const first = await prepare(request, { "idempotency-key": "prepare-replay-1" });
    const second = await prepare(request, { "idempotency-key": "prepare-replay-1" });
    expect(first.status).to.equal(201);
    expect(second.status).to.equal(201);
    expect(second.headers["idempotency-replayed"]).to.equal("true");
    expect((second.body as PreparedBody).reservationId).to.equal((first.body as PreparedBody).reservationId);
    expect((second.body as PreparedBody).transaction).to.deep.equal((first.body as PreparedBody).transaction);
    // The same secret too: the replayed reveal opens the commitment the first answer's commit made.
    expect((second.body as PreparedBody).reveal).to.deep.equal((first.body as PreparedBody).reveal);
    expect(await countRows("reservations WHERE identity_key = 'REPLAYME::RPLY'")).to.equal(1);
    const other = await prepare(
      { ...request, durationSeconds: 259200 },
      { "idempotency-key": "prepare-replay-1" },
    );
    expectEnvelope(other, 422, "idempotency_key_reused");
  });

  it("sandbox-confirm seeds the hold: the sandbox check reads reserved for the launcher and blocks others; production sees nothing", async () => {
    const prepared = (
      await prepare({
        chain: "hardhat",
        name: "Confirm Fox",
        ticker: "CFOX",
        launcher: EVM_LAUNCHER,
        durationSeconds: 86400,
      })
    ).body as PreparedBody;
    const confirmed = await confirm(prepared.reservationId);
    expect(confirmed.status, confirmed.text).to.equal(200);
    const body = confirmed.body as { status: string; expiresAt: string; startsAt: string; feePaid: string };
    expect(body.status).to.equal("confirmed");
    expect(new Date(body.expiresAt).getTime() - new Date(body.startsAt).getTime()).to.equal(86_400_000);
    expect(body.feePaid).to.equal(prepared.quote.amount);

    // The partner's own check (its key) sees its sandbox records; a keyless one sees the seeded scenarios only.
    const check = (host: string, launcher: string, headers: Record<string, string> = {}) =>
      api.call({
        path: `/api/v1/identity/check?name=Confirm%20Fox&ticker=CFOX&chain=hardhat&launcher=${launcher}`,
        host,
        headers,
      });
    const own = bearer(sandboxKey.secret);
    const owner = (await check(SANDBOX, EVM_LAUNCHER.toUpperCase().replace("0X", "0x"), own)).body as {
      status: string;
      decision: string;
    };
    expect(owner).to.include({ status: "authorized", decision: "allow" });
    const other = (await check(SANDBOX, EVM_OTHER, own)).body as { status: string; decision: string };
    expect(other.decision).to.equal("block");
    const keyless = (await check(SANDBOX, EVM_OTHER)).body as { status: string; decision: string };
    expect(keyless).to.include({ status: "available", decision: "allow" });
    const production = (await check(PRODUCTION, EVM_OTHER)).body as { decision: string; status: string };
    expect(production.status).to.not.equal("reserved");
    expect(await countRows("chain_reservations")).to.equal(0);
    expect(await countRows("reservations WHERE environment = 'production'")).to.equal(0);

    const ledger = await api.db.pool.query(
      "SELECT status FROM partner_ledger_entries WHERE reservation_id = $1",
      [prepared.reservationId],
    );
    expect(ledger.rows).to.deep.equal([{ status: "accrued" }]);
    // The protection names the hold, not the reservation; a sandbox hold is its partner's own, so it stays scoped.
    const events = await api.db.pool.query<{ type: string; environment: string; scoped: boolean }>(
      `SELECT type, environment, partner_id IS NOT NULL AS scoped FROM domain_events
        WHERE payload::text LIKE $1 OR payload->>'identityKey' = 'CONFIRMFOX::CFOX' ORDER BY id`,
      [`%${prepared.reservationId}%`],
    );
    expect(events.rows).to.deep.equal([
      { type: "reservation.created", environment: "sandbox", scoped: true },
      { type: "identity.protected", environment: "sandbox", scoped: true },
      { type: "revenue.accrued", environment: "sandbox", scoped: true },
    ]);
    // Confirming again changes nothing.
    expect(((await confirm(prepared.reservationId)).body as { status: string }).status).to.equal("confirmed");
    expect(await countRows("sandbox_holds WHERE identity_key = 'CONFIRMFOX::CFOX'")).to.equal(1);
  });

  it("refuses a prepare for a pair held by another wallet, and a fourth active reservation per wallet", async () => {
    const held = await prepare({
      chain: "hardhat",
      name: "Confirm Fox",
      ticker: "CFOX",
      launcher: EVM_OTHER,
      durationSeconds: 86400,
    });
    expectEnvelope(held, 409, "identity_held");
    const sameWallet = await prepare({
      chain: "hardhat",
      name: "Confirm Fox",
      ticker: "CFOX",
      launcher: EVM_LAUNCHER,
      durationSeconds: 86400,
    });
    expectEnvelope(sameWallet, 409, "renewal_not_open");
    const wallet = "0x4444444444444444444444444444444444444444";
    for (const ticker of ["WAA", "WBB", "WCC"]) {
      const prepared = (
        await prepare({
          chain: "hardhat",
          name: `Wallet ${ticker}`,
          ticker,
          launcher: wallet,
          durationSeconds: 86400,
        })
      ).body as PreparedBody;
      expect((await confirm(prepared.reservationId)).status).to.equal(200);
    }
    const fourth = await prepare({
      chain: "hardhat",
      name: "Wallet Four",
      ticker: "WDD",
      launcher: wallet,
      durationSeconds: 86400,
    });
    expectEnvelope(fourth, 409, "reservation_limit_reached");
  });

  it("renews inside the last 12 hours: prepare gives a renew, and sandbox-confirm extends from the current expiry", async () => {
    const prepared = (
      await prepare({
        chain: "hardhat",
        name: "Renew Fox",
        ticker: "RFOX",
        launcher: EVM_LAUNCHER,
        durationSeconds: 86400,
      })
    ).body as PreparedBody;
    const first = (await confirm(prepared.reservationId)).body as { expiresAt: string };
    api.clock.set(new Date(first.expiresAt).getTime() - 3_600_000);
    try {
      const renewal = (
        await prepare({
          chain: "hardhat",
          name: "Renew Fox",
          ticker: "RFOX",
          launcher: EVM_LAUNCHER,
          durationSeconds: 259200,
        })
      ).body as PreparedBody;
      expect(renewal.kind).to.equal("renew");
      expect(renewal.reveal).to.equal(null); // one transaction: a renewal needs no commitment
      expect(renewal.commit).to.equal(null);
      const call = decodeFunctionData({
        abi: identityRegistryAbi,
        data: renewal.transaction.data as `0x${string}`,
      });
      const identity = normalizeIdentity("Renew Fox", "RFOX");
      expect(call.functionName).to.equal("renew");
      expect(call.args).to.deep.equal([identity.nameHash, identity.tickerHash, 259200, renewal.partnerRef]);
      const renewed = (await confirm(renewal.reservationId)).body as { startsAt: string; expiresAt: string };
      expect(renewed.startsAt).to.equal(first.expiresAt);
      expect(new Date(renewed.expiresAt).getTime()).to.equal(
        new Date(first.expiresAt).getTime() + 259_200_000,
      );
    } finally {
      api.clock.set(Date.now());
    }
  });

  it("records a commit and then a reveal hash once: submitted, unchanged on repeat, refused for a second reservation", async () => {
    const a = (
      await prepare({
        chain: "hardhat",
        name: "Hash One",
        ticker: "HONE",
        launcher: EVM_LAUNCHER,
        durationSeconds: 86400,
      })
    ).body as PreparedBody;
    const b = (
      await prepare({
        chain: "hardhat",
        name: "Hash Two",
        ticker: "HTWO",
        launcher: EVM_LAUNCHER,
        durationSeconds: 86400,
      })
    ).body as PreparedBody;
    const submit = (reservationId: string, transactionHash: string) =>
      api.call({
        method: "POST",
        path: "/api/v1/reservations/status",
        host: SANDBOX,
        headers: bearer(sandboxKey.secret),
        body: { reservationId, transactionHash },
      });
    expectEnvelope(await submit(a.reservationId, "0x1234"), 400, "invalid_request");
    // No chain knows a simulated hash: the first reported is the commitment, which keeps it pending_payment.
    const commitHash = `0x${"a0".repeat(32)}`;
    const committed = await submit(a.reservationId, commitHash);
    expect(committed.status, committed.text).to.equal(200);
    expect(committed.body).to.deep.include({
      status: "pending_payment",
      step: "commit",
      transactionHash: null,
      commitOnChain: null, // the simulated registry holds no commitment
    });
    expect((committed.body as PreparedBody).commit).to.include({ transactionHash: commitHash });
    expect((await submit(a.reservationId, commitHash)).body).to.include({
      status: "pending_payment",
      step: "commit",
    });
    const hash = `0x${"ab".repeat(32)}`;
    const first = await submit(a.reservationId, hash);
    expect(first.status, first.text).to.equal(200);
    expect(first.body).to.include({ status: "submitted", step: "reveal", transactionHash: hash });
    expect((await submit(a.reservationId, hash)).body).to.include({
      status: "submitted",
      step: "reveal",
      transactionHash: hash,
    });
    expect((await submit(b.reservationId, `0x${"b0".repeat(32)}`)).body).to.include({ step: "commit" });
    expectEnvelope(await submit(b.reservationId, hash), 409, "transaction_already_used");
    const read = await api.call({
      path: `/api/v1/reservations/status?reservationId=${a.reservationId}`,
      host: SANDBOX,
      headers: bearer(sandboxKey.secret),
    });
    expect(read.body).to.include({ status: "submitted", reservationId: a.reservationId });
  });

  it("hides another partner's reservation (404) and keeps sandbox-confirm to the sandbox (403)", async () => {
    const prepared = (
      await prepare({
        chain: "hardhat",
        name: "Mine Only",
        ticker: "MINE",
        launcher: EVM_LAUNCHER,
        durationSeconds: 86400,
      })
    ).body as PreparedBody;
    const stranger = await issueKey(api, "sandbox");
    const read = await api.call({
      path: `/api/v1/reservations/status?reservationId=${prepared.reservationId}`,
      host: SANDBOX,
      headers: bearer(stranger.secret),
    });
    expectEnvelope(read, 404, "reservation_not_found");
    expectEnvelope(await confirm(prepared.reservationId, stranger.secret), 404, "reservation_not_found");
    const production = await issueKey(api, "production");
    const viaProduction = await api.call({
      method: "POST",
      path: "/api/v1/reservations/sandbox-confirm",
      host: PRODUCTION,
      headers: bearer(production.secret),
      body: { reservationId: prepared.reservationId },
    });
    expectEnvelope(viaProduction, 403, "sandbox_only");
  });

  it("embed prepare: only an allowlisted launchpad, attributed to its partner, with a ledger draft", async () => {
    const body = {
      launchpad: "moonpad",
      chain: "hardhat",
      name: "Embed Cat",
      ticker: "ECAT",
      launcher: EVM_LAUNCHER,
      durationSeconds: 86400,
    };
    const refused = await api.call({
      method: "POST",
      path: "/api/v1/embed/reservations/prepare",
      host: SANDBOX,
      body,
    });
    expectEnvelope(refused, 403, "launchpad_not_allowed");
    await allowEmbedLaunchpad(api.db.pool, "moonpad", sandboxKey.partnerId, {
      actor: "test",
      reason: "embed test",
    });
    const allowed = await api.call({
      method: "POST",
      path: "/api/v1/embed/reservations/prepare",
      host: SANDBOX,
      body,
    });
    expect(allowed.status, allowed.text).to.equal(201);
    const prepared = allowed.body as PreparedBody & { launchpad: string };
    expect(prepared.launchpad).to.equal("moonpad");
    expect(prepared.revenueShare.partnerId).to.equal(sandboxKey.partnerId);
    const ledger = await api.db.pool.query(
      "SELECT status, launchpad FROM partner_ledger_entries WHERE reservation_id = $1",
      [prepared.reservationId],
    );
    expect(ledger.rows).to.deep.equal([{ status: "draft", launchpad: "moonpad" }]);
    const settle = await api.call({
      method: "POST",
      path: "/api/v1/embed/reservations/settle",
      host: SANDBOX,
      body: { reservationId: prepared.reservationId, transactionHash: `0x${"cd".repeat(32)}` },
    });
    expectEnvelope(settle, 409, "reservation_not_confirmed");
  });
});

describe("api: a sandbox prepare on a chain without a sandbox registry deployment", function () {
  this.timeout(60_000);
  let api: TestApi;

  before(async () => {
    const productionOnly: DeploymentManifest = {
      evm: MANIFEST.evm.map(({ sandbox: _sandbox, ...entry }) => entry),
      solana: MANIFEST.solana.map(({ sandbox: _sandbox, ...entry }) => entry),
    };
    api = await startTestApi({
      deps: { registries: registryCatalogue(productionOnly), decisions: { chains: CHAINS } },
    });
  });
  after(async () => api?.close());

  it("returns no transaction at all (never one for the production registry), says why, and still confirms", async () => {
    const { secret } = await issueKey(api, "sandbox");
    for (const [chain, launcher] of [
      ["hardhat", EVM_LAUNCHER],
      ["solana", SOLANA_LAUNCHER],
    ] as const) {
      const response = await api.call({
        method: "POST",
        path: "/api/v1/reservations/prepare",
        host: SANDBOX,
        headers: bearer(secret),
        body: { chain, name: "No Sandbox Registry", ticker: "NSR", launcher, durationSeconds: 86400 },
      });
      expect(response.status, response.text).to.equal(201);
      const body = response.body as PreparedBody;
      expect(body.simulated).to.equal(true);
      expect(body.transaction).to.equal(null);
      expect(body.reveal).to.equal(null);
      expect(body.message).to.contain("no sandbox registry");
      const confirmed = await api.call({
        method: "POST",
        path: "/api/v1/reservations/sandbox-confirm",
        host: SANDBOX,
        headers: bearer(secret),
        body: { reservationId: body.reservationId },
      });
      expect(confirmed.status, confirmed.text).to.equal(200);
    }
  });
});
