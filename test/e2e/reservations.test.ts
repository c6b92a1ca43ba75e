// Reservations end to end on the local chains: the API prepares, a real wallet (a viem account on Hardhat, a
// web3.js Keypair on the Solana RPC) signs exactly what prepare returned and sends it, the indexers mirror the
// chain and the worker (or POST status) confirms from the mirror. Then what protection means: the check reads
// reserved, validate signs allow for the launcher and block for anyone else. Also the refusals (a fourth
// reservation, by the API and by the chain), failures, a stale price, renewal and expiry by moving chain time,
// idempotent prepare and the embed pair. One environment for the file (starting it is most of the run time).
import { createHmac } from "node:crypto";
import { Connection } from "@solana/web3.js";
import { expect } from "chai";
import type { PreparedTransaction } from "../../chains/registryClient";
import { RENEWAL_WINDOW_SECONDS } from "../../core/reservation";
import { createServiceClient, payReservation } from "../../sdk/src";
import { allowEmbedLaunchpad } from "../../services/reservations/embedLaunchpads";
import { independentlyVerified, publishedKeys } from "../api/routes/identity/support";
import { Conformance } from "../api/support/conformance";
import { bearer, expectEnvelope } from "../api/support/harness";
import { eventsOf, ledgerOf } from "../services/reservations/support";
import { Receiver } from "../services/webhooks/support";
import {
  type ChainDriver,
  DAY,
  type E2e,
  PRODUCTION_HOST,
  partnerApi,
  prepared,
  startE2e,
  uniquePair,
  waitUntil,
} from "./support";

/** The registries' own names for each refusal (EVM custom error / Solana program error). */
const CHAIN_ERRORS = {
  evm: { walletLimit: "WalletLimitReached", stalePrice: "StalePrice" },
  solana: { walletLimit: "TooManyActiveReservations", stalePrice: "StalePrice" },
} as const;

type Decision = Record<string, string | undefined>;

describe("e2e: reservations on the local chains with real wallets", function () {
  this.timeout(120_000);
  let e2e: E2e;
  let partner: ReturnType<typeof partnerApi>;

  const receiver = new Receiver();
  let signingSecret: string;

  before(async () => {
    await receiver.start();
    e2e = await startE2e();
    partner = partnerApi(e2e);
    // The partner's webhook endpoint: the worker delivers every event of these reservations to it.
    const registered = await e2e.api.call({
      method: "POST",
      path: "/api/v1/webhooks",
      headers: bearer(e2e.key.secret),
      body: { url: receiver.url("/partner") },
    });
    expect(registered.status, registered.text).to.equal(201);
    signingSecret = (registered.body as { signingSecret: string }).signingSecret;
  });
  after(async () => {
    await e2e?.stop();
    await receiver.stop();
  });

  const drivers = () => [e2e.evm, e2e.solana];

  /**
   * Prepare, then pay through the SDK's payReservation (commit, report, wait until the registry accepts the reveal,
   * reveal, report): the reservation as confirmed (through the indexer).
   */
  async function reserveAndConfirm(driver: ChainDriver, word: string) {
    const wallet = await driver.newWallet();
    const pair = uniquePair(word);
    const reservation = await prepared(partner, { chain: driver.chain, ...pair, launcher: wallet.address });
    const client = createServiceClient({ baseUrl: e2e.api.url, apiKey: e2e.key.secret });
    const solana = new Connection(e2e.localnet.manifest.solana[0]?.rpcUrl ?? "", "confirmed");
    const paid = await payReservation(client, reservation as Parameters<typeof payReservation>[1], {
      send: (transaction) => wallet.signAndSend(transaction as PreparedTransaction),
      currentSlot: () => solana.getSlot("processed"),
      pollMs: 50,
    });
    expect(paid.step).to.equal("reveal");
    const hash = paid.transactionHash as string;
    const afterCommit = await partner.status(reservation.reservationId);
    expect(afterCommit.commit?.transactionHash, "the commit was reported first").to.be.a("string");
    const confirmed = await partner.statusBecomes(reservation.reservationId, "confirmed");
    return { wallet, pair, hash, confirmed };
  }

  async function verifiedDecision(body: Parameters<typeof partner.validate>[0]): Promise<Decision> {
    const response = await partner.validate(body);
    expect(response.status, response.text).to.equal(200);
    const decision = response.body as Decision;
    expect(
      independentlyVerified(decision, await publishedKeys(e2e.api, "production")),
      "signature verified by the spec's rules",
    ).to.equal(true);
    return decision;
  }

  for (const family of ["evm", "solana"] as const) {
    const driver = () => (family === "evm" ? e2e.evm : e2e.solana);

    describe(family === "evm" ? "EVM (Hardhat, viem account)" : "Solana (local RPC, web3.js Keypair)", () => {
      it("quote, idempotent prepare, the wallet signs and sends, POST status, confirmed through the indexer; check reserved; validate allow / signed block", async () => {
        const { chain, registry } = driver();
        const wallet = await driver().newWallet();
        const other = await driver().newWallet();
        const pair = uniquePair("Heron");

        const quote = await partner.quote(chain);
        expect(quote.status, quote.text).to.equal(200);
        expect(quote.body).to.nested.include({ "quote.simulated": false, "policy.maxActivePerWallet": 3 });

        const body = { chain, ...pair, launcher: wallet.address };
        const idempotency = { "idempotency-key": `e2e-${chain}-${pair.ticker}` };
        const reservation = await prepared(partner, body, idempotency);
        expect(reservation).to.include({ status: "pending_payment", kind: "reserve", simulated: false });
        const replay = await partner.prepare(body, idempotency);
        expect(replay.status).to.equal(201);
        expect(replay.headers["idempotency-replayed"]).to.equal("true");
        expect(replay.body).to.deep.include({
          reservationId: reservation.reservationId,
          transaction: reservation.transaction,
        });

        const hash = await wallet.pay(reservation);
        const submitted = await partner.submit(reservation.reservationId, hash);
        expect(submitted.status, submitted.text).to.equal(200);
        expect(submitted.body).to.include({ transactionHash: hash });
        const confirmed = await partner.statusBecomes(reservation.reservationId, "confirmed");
        const settlement = await registry.settlementOf(hash);
        expect(confirmed.feePaid).to.equal(settlement?.feePaid.toString());
        expect(confirmed.expiresAt).to.equal(settlement?.expiresAt.toISOString());
        expect(await ledgerOf(e2e.db.pool, reservation.reservationId)).to.include({
          status: "accrued",
          feeAmount: confirmed.feePaid,
        });
        expect(
          (await eventsOf(e2e.db.pool, reservation.reservationId)).map((event) => event.type),
        ).to.deep.equal(["reservation.created", "identity.protected", "revenue.accrued"]);

        expect(await partner.check(chain, pair.name, pair.ticker)).to.include({ status: "reserved" });
        const allow = await verifiedDecision({ chain, ...pair, launcher: wallet.address });
        expect(allow).to.include({ decision: "allow", reason: "authorized_launcher" });
        const block = await verifiedDecision({ chain, ...pair, launcher: other.address });
        expect(block).to.include({ decision: "block", reason: "active_reservation" });
      });

      it("a fourth active reservation is refused by prepare (409) and by the registry itself", async () => {
        const { chain, registry } = driver();
        const wallet = await driver().newWallet();
        for (const word of ["Gull", "Tern", "Skua"]) {
          const reservation = await prepared(partner, {
            chain,
            ...uniquePair(word),
            launcher: wallet.address,
          });
          await wallet.pay(reservation);
        }
        expect(await registry.activeReservationCount(wallet.address)).to.equal(3);

        const fourth = uniquePair("Puffin");
        expectEnvelope(
          await partner.prepare({ chain, ...fourth, launcher: wallet.address }),
          409,
          "reservation_limit_reached",
        );
        const direct = await driver().reserveDirectly(wallet, fourth.name, fourth.ticker);
        const outcome = await registry.transactionOutcome(direct);
        expect(outcome.state).to.equal("failed");
        expect(outcome.state === "failed" && outcome.error).to.contain(CHAIN_ERRORS[family].walletLimit);
        expect(await registry.activeReservationCount(wallet.address)).to.equal(3);
      });

      it("a transaction that fails on-chain makes its reservation failed, with the registry's error", async () => {
        const { chain } = driver();
        const wallet = await driver().newWallet();
        const pair = uniquePair("Plover");
        const reservation = await prepared(partner, { chain, ...pair, launcher: wallet.address });
        let hash: string;
        let error: string;
        if (family === "evm") {
          // The wallet pays less than the fee.
          const value = BigInt(reservation.quote.amount) / 2n;
          hash = await wallet.pay(reservation, { value, landEvenIfFailing: true });
          error = "InsufficientPayment";
        } else {
          // Another creator's transaction for the same pair lands first.
          const rival = await driver().newWallet();
          const first = await prepared(partner, { chain, ...pair, launcher: rival.address });
          await rival.pay(first);
          hash = await wallet.pay(reservation, { landEvenIfFailing: true });
          error = "AlreadyReserved";
        }
        expect((await partner.submit(reservation.reservationId, hash)).status).to.equal(200);
        const failed = await partner.statusBecomes(reservation.reservationId, "failed");
        expect(failed.transactionHash).to.equal(hash);
        expect(failed.statusReason).to.contain(hash).and.contain(error);
        expect(await ledgerOf(e2e.db.pool, reservation.reservationId)).to.include({ status: "void" });
      });

      it("embed prepare (allowlisted launchpad, no key) then settle on production accrues the ledger", async () => {
        const { chain } = driver();
        const launchpad = `e2e-pad-${chain}`;
        await allowEmbedLaunchpad(e2e.db.pool, launchpad, e2e.key.partnerId, { actor: "e2e", reason: "e2e" });
        const wallet = await driver().newWallet();
        const response = await e2e.api.call({
          method: "POST",
          path: "/api/v1/embed/reservations/prepare",
          host: PRODUCTION_HOST,
          body: { launchpad, chain, ...uniquePair("Embed"), launcher: wallet.address, durationSeconds: DAY },
        });
        expect(response.status, response.text).to.equal(201);
        const reservation = response.body as Awaited<ReturnType<typeof prepared>>;
        expect(reservation).to.include({ launchpad, simulated: false });
        expect(reservation.revenueShare).to.include({ partnerId: e2e.key.partnerId });
        expect(await ledgerOf(e2e.db.pool, reservation.reservationId)).to.include({ status: "draft" });

        const hash = await wallet.pay(reservation);
        const settle = () =>
          e2e.api.call({
            method: "POST",
            path: "/api/v1/embed/reservations/settle",
            host: PRODUCTION_HOST,
            body: { reservationId: reservation.reservationId, transactionHash: hash },
          });
        // 409 reservation_not_confirmed until the mirror shows the settlement.
        const settled = await waitUntil(settle, (answer) => answer.status !== 409, "embed settle");
        expect(settled.status, settled.text).to.equal(200);
        expect(settled.body).to.include({ status: "confirmed", launchpad });
        // The worker may confirm from the mirror (by partnerRef) before the settle names the hash: then the
        // reservation is answered as confirmed, without the hash the settle sent.
        expect((settled.body as { transactionHash: string | null }).transactionHash).to.be.oneOf([
          hash,
          null,
        ]);
        expect((settled.body as { settledAt: string | null }).settledAt).to.be.a("string");
        const ledger = await e2e.db.pool.query(
          "SELECT status, launchpad, partner_id FROM partner_ledger_entries WHERE reservation_id = $1",
          [reservation.reservationId],
        );
        expect(ledger.rows).to.deep.equal([{ status: "accrued", launchpad, partner_id: e2e.key.partnerId }]);
      });
    });
  }

  describe("moving chain time (both chains, the service's clock with them)", () => {
    it("a stale price fails quote and prepare (503 price_unavailable) and the reservation on-chain", async () => {
      const before = await Promise.all(
        drivers().map(async (driver) => ({
          driver,
          wallet: await driver.newWallet(),
          quote: await driver.registry.quote(DAY),
        })),
      );
      // Past both registries' price age bounds (EVM 4,500 s, Solana 60 s), with no new price published.
      await e2e.warp(4_600, { refreshPrices: false });
      try {
        for (const { driver, wallet, quote } of before) {
          const pair = uniquePair("Stale");
          expectEnvelope(await partner.quote(driver.chain), 503, "price_unavailable");
          expectEnvelope(
            await partner.prepare({ chain: driver.chain, ...pair, launcher: wallet.address }),
            503,
            "price_unavailable",
          );
          // A wallet that still pays the last good quote: the registry refuses the stale price itself.
          const hash = await driver.reserveDirectly(wallet, pair.name, pair.ticker, quote);
          const outcome = await driver.registry.transactionOutcome(hash);
          expect(outcome.state).to.equal("failed");
          expect(outcome.state === "failed" && outcome.error).to.contain(
            CHAIN_ERRORS[driver.family].stalePrice,
          );
        }
      } finally {
        await e2e.localnet.refreshPrices();
      }
      for (const driver of drivers()) expect((await partner.quote(driver.chain)).status).to.equal(200);
    });

    it("renews inside the last 12 hours: a renew transaction, confirmed, the window extended from the old end", async () => {
      const firsts = await Promise.all(drivers().map((driver) => reserveAndConfirm(driver, "Renew")));
      for (const [index, driver] of drivers().entries()) {
        const { wallet, pair } = firsts[index] as (typeof firsts)[number];
        expectEnvelope(
          await partner.prepare({ chain: driver.chain, ...pair, launcher: wallet.address }),
          409,
          "renewal_not_open",
        );
      }

      await e2e.warp(DAY - RENEWAL_WINDOW_SECONDS + 600);
      for (const [index, driver] of drivers().entries()) {
        const { wallet, pair, confirmed: first } = firsts[index] as (typeof firsts)[number];
        const renewal = await prepared(partner, { chain: driver.chain, ...pair, launcher: wallet.address });
        expect(renewal.kind).to.equal("renew");
        const hash = await wallet.pay(renewal);
        expect((await partner.submit(renewal.reservationId, hash)).status).to.equal(200);
        const renewed = await partner.statusBecomes(renewal.reservationId, "confirmed");
        const end = Date.parse(first.expiresAt as string);
        expect(renewed.startsAt).to.equal(first.expiresAt);
        expect(Date.parse(renewed.expiresAt as string)).to.equal(end + DAY * 1000);
        expect((await eventsOf(e2e.db.pool, renewal.reservationId)).map((event) => event.type)).to.deep.equal(
          ["identity.extended", "revenue.accrued"],
        );
        // The original reservation's window follows the chain.
        await waitUntil(
          () => partner.status(first.reservationId),
          (current) => current.expiresAt === renewed.expiresAt,
          "original window extended",
        );
      }
    });

    it("expires when chain time passes the end: status expired, reservation.expired, the check no longer reserved", async () => {
      const held = await Promise.all(drivers().map((driver) => reserveAndConfirm(driver, "Expire")));
      await e2e.warp(DAY + 600);
      for (const [index, driver] of drivers().entries()) {
        const { pair, confirmed } = held[index] as (typeof held)[number];
        await partner.statusBecomes(confirmed.reservationId, "expired");
        const types = (await eventsOf(e2e.db.pool, confirmed.reservationId)).map((event) => event.type);
        expect(types).to.include("reservation.expired");
        expect(await partner.check(driver.chain, pair.name, pair.ticker)).to.include({
          status: "expired",
          decision: "allow",
        });
      }
    });
  });

  describe("webhooks", () => {
    it("the on-chain reservations' events reach the partner's endpoint, signed, each matching its schema", async () => {
      const wanted = [
        "reservation.created",
        "identity.protected",
        "revenue.accrued",
        "identity.extended",
        "reservation.expired",
      ];
      const received = () =>
        Promise.resolve(
          receiver.at("/partner").map((request) => JSON.parse(request.rawBody) as { type: string }),
        );
      await waitUntil(
        received,
        (envelopes) => wanted.every((type) => envelopes.some((envelope) => envelope.type === type)),
        "every reservation event type delivered",
      );
      const conformance = new Conformance((await e2e.api.call({ path: "/api/v1/openapi" })).body as never);
      for (const request of receiver.at("/partner")) {
        const [t, v1] = String(request.headers["x-service-signature"]).split(",");
        const expected = createHmac("sha256", signingSecret)
          .update(`${t?.slice(2)}.${request.rawBody}`)
          .digest("hex");
        expect(v1, "v1 = HMAC-SHA256(secret, t.body)").to.equal(`v1=${expected}`);
        const envelope = JSON.parse(request.rawBody) as { type: string; data: Record<string, unknown> };
        conformance.checkWebhookEvent(envelope);
        const reservation = envelope.data.reservation as { revenueShare: { partnerId: string } } | undefined;
        if (reservation !== undefined) expect(reservation.revenueShare.partnerId).to.equal(e2e.key.partnerId);
      }
    });
  });
});
