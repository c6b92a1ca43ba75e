// The identity check's `tx` / `reservationTx`, end to end on the local chains with real wallets, the indexers
// stopped: a reservation the mirror has not seen reads `reserved` right after its hash is passed, and validate
// then blocks a copycat; a hash of another identity, a failed one, an unknown one and a malformed one change
// nothing and say why; checks carrying a hash are bounded per client address; a check without one is unchanged.
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { registryCatalogue } from "../../chains/catalogue";
import { normalizeIdentity } from "../../core/fold";
import { manifestChains } from "../../services/mirror/chainCatalogue";
import { bearer, expectEnvelope, startTestApi, type TestApi } from "../api/support/harness";
import type { HttpResponse } from "../api/support/http";
import { type FaultProxy, startFaultProxy } from "../support/faultProxy";
import { type E2e, PRODUCTION_HOST, partnerApi, startE2e, uniquePair } from "./support";

interface ReservationTx {
  hash: string;
  chain: string;
  outcome: string;
  indexed: boolean;
  message: string;
  explorer: unknown;
}

interface Check {
  identityKey: string;
  status: string;
  decision: string;
  adapter: string;
  chain: string;
  reservationTx?: ReservationTx;
}

const EXPLORER = {
  tx: "https://explorer.test/tx/{hash}",
  address: "https://explorer.test/address/{address}",
};

/** The read model as rows, without the time each was written. */
async function mirrorRows(e2e: E2e): Promise<unknown[]> {
  const { rows } = await e2e.db.pool.query(
    `SELECT chain, name_hash, ticker_hash, normalized_name, normalized_ticker, launcher, reserved_at, expires_at,
            duration_seconds, fee_paid::text, partner_ref, tx_hash, block_number::text, reservation_account
       FROM chain_reservations ORDER BY chain, name_hash, ticker_hash`,
  );
  return rows;
}

describe("e2e: the identity check indexes a reservation transaction it is given (`tx` / `reservationTx`)", function () {
  this.timeout(180_000);
  let e2e: E2e;
  let partner: ReturnType<typeof partnerApi>;

  const checkPath = (chain: string | undefined, pair: { name: string; ticker: string }, tx?: string) =>
    `/api/v1/identity/check?name=${encodeURIComponent(pair.name)}&ticker=${pair.ticker}${chain ? `&chain=${chain}` : ""}${tx === undefined ? "" : `&tx=${encodeURIComponent(tx)}`}`;
  const getCheck = (chain: string | undefined, pair: { name: string; ticker: string }, tx?: string) =>
    e2e.api.call({ path: checkPath(chain, pair, tx), host: PRODUCTION_HOST });
  const checked = async (chain: string, pair: { name: string; ticker: string }, tx?: string) => {
    const response = await getCheck(chain, pair, tx);
    expect(response.status, response.text).to.equal(200);
    return response.body as Check;
  };

  before(async () => {
    e2e = await startE2e();
    partner = partnerApi(e2e);
    // From here the mirror follows nothing: what it holds next, the checks with a hash put there. It reads fresh
    // for the freshness bound (60 s) after its last confirmation, so the checks below answer from it (`index`).
    await e2e.stopIndexers();
  });
  after(async () => e2e?.stop());

  it("EVM: a reservation mined while the indexer is stopped reads reserved once its hash is passed; validate blocks a copycat", async () => {
    const pair = uniquePair("Txmirror");
    const creator = await e2e.evm.newWallet();
    const copycat = await e2e.evm.newWallet();
    const hash = await e2e.evm.reserveDirectly(creator, pair.name, pair.ticker);

    const before = await checked("hardhat", pair);
    expect(before).to.include({ status: "available", adapter: "index" }); // the mirror has not seen it
    expect(before).to.not.have.property("reservationTx");

    const answer = await checked("hardhat", pair, hash);
    expect(answer).to.include({ status: "reserved", decision: "allow_authorized_only", adapter: "index" });
    expect(answer.reservationTx).to.deep.include({
      hash,
      chain: "hardhat",
      outcome: "indexed",
      indexed: true,
    });
    expect(answer.reservationTx?.explorer, "a local chain has no explorer").to.equal(null);

    // The mirror row is the registry's record, and stays: checks without the hash read it too.
    const identity = normalizeIdentity(pair.name, pair.ticker);
    const record = await e2e.evm.registry.reservationOf(identity);
    const { rows } = await e2e.db.pool.query(
      "SELECT launcher, expires_at, tx_hash, reservation_account, duration_seconds FROM chain_reservations WHERE chain = 'hardhat' AND name_hash = $1",
      [identity.nameHash],
    );
    expect(rows).to.have.length(1);
    expect(rows[0]).to.deep.include({
      launcher: creator.address.toLowerCase(),
      tx_hash: hash.toLowerCase(),
      reservation_account: null,
      duration_seconds: 86_400,
    });
    expect((rows[0].expires_at as Date).getTime()).to.equal(record?.expiresAt.getTime());
    expect(await checked("hardhat", pair)).to.include({ status: "reserved", adapter: "index" });

    const copy = await partner.validate({ chain: "hardhat", ...pair, launcher: copycat.address });
    expect(copy.status, copy.text).to.equal(200);
    expect(copy.body).to.include({ decision: "block" });
    const own = await partner.validate({ chain: "hardhat", ...pair, launcher: creator.address });
    expect(own.body).to.include({ decision: "allow" });

    // Idempotent: the same hash again (GET, then POST) leaves the row exactly as it is.
    const rowsBefore = await mirrorRows(e2e);
    const again = await e2e.api.call({
      method: "POST",
      path: "/api/v1/identity/check",
      host: PRODUCTION_HOST,
      body: { ...pair, chain: "hardhat", reservationTx: hash },
    });
    expect(again.status, again.text).to.equal(200);
    expect((again.body as Check).reservationTx).to.include({ outcome: "indexed", indexed: true });
    expect(await mirrorRows(e2e)).to.deep.equal(rowsBefore);
  });

  it("Solana: a reservation the indexer has not seen is mirrored with its reservation account", async () => {
    const pair = uniquePair("Solmirror");
    const creator = await e2e.solana.newWallet();
    const copycat = await e2e.solana.newWallet();
    const signature = await e2e.solana.reserveDirectly(creator, pair.name, pair.ticker);
    expect(await checked("solana", pair)).to.include({ status: "available" });

    const answer = await checked("solana", pair, signature);
    expect(answer.reservationTx, JSON.stringify(answer)).to.include({ outcome: "indexed", indexed: true });
    expect(answer).to.include({ status: "reserved", adapter: "index" });
    const identity = normalizeIdentity(pair.name, pair.ticker);
    const record = await e2e.solana.registry.reservationOf(identity);
    const { rows } = await e2e.db.pool.query(
      "SELECT launcher, tx_hash, reservation_account FROM chain_reservations WHERE chain = 'solana' AND name_hash = $1",
      [identity.nameHash],
    );
    expect(rows).to.deep.equal([
      { launcher: creator.address, tx_hash: signature, reservation_account: record?.account?.address },
    ]);
    const copy = await partner.validate({ chain: "solana", ...pair, launcher: copycat.address });
    expect(copy.body).to.include({ decision: "block" });
  });

  it("Solana: a confirmed reservation not yet finalized is not mirrored (a fork could still drop it), then is", async () => {
    const pair = uniquePair("Solfinal");
    const creator = await e2e.solana.newWallet();
    const rowsBefore = await mirrorRows(e2e);
    // The local RPC's fault mode: `finalized` trails `confirmed` by far more than this test takes.
    e2e.localnet.solana.chain.setFaults({ commitmentLag: { finalized: 10_000 } });
    try {
      const signature = await e2e.solana.reserveDirectly(creator, pair.name, pair.ticker);
      const early = await checked("solana", pair, signature);
      expect(early.reservationTx).to.include({ outcome: "not_final", indexed: false });
      expect(early).to.include({ status: "available" });
      expect(await mirrorRows(e2e)).to.deep.equal(rowsBefore);
      e2e.localnet.solana.chain.setFaults({});
      const final = await checked("solana", pair, signature);
      expect(final.reservationTx).to.include({ outcome: "indexed", indexed: true });
      expect(final).to.include({ status: "reserved" });
    } finally {
      e2e.localnet.solana.chain.setFaults({});
    }
  });

  it("a foreign identity's hash, a failed one, an unknown one and the commit step change nothing and say why", async () => {
    const rowsBefore = await mirrorRows(e2e);
    const pair = uniquePair("Txasked");
    const other = uniquePair("Txother");
    const creator = await e2e.evm.newWallet();
    const copycat = await e2e.evm.newWallet();
    const foreign = await e2e.evm.reserveDirectly(creator, other.name, other.ticker);
    // Another wallet's reserve of a held pair: its commitment lands, its reveal reverts (PairReserved).
    const failed = await e2e.evm.reserveDirectly(copycat, other.name, other.ticker);
    const unknown = `0x${randomBytes(32).toString("hex")}`;
    // The commit step of a new reservation of the asked pair: a registry call that reserves nothing (yet).
    const steps = await e2e.evm.registry.prepareTransaction({
      identity: normalizeIdentity(pair.name, pair.ticker),
      launcher: creator.address,
      durationSeconds: 86_400,
      partnerRef: `0x${"0".repeat(64)}`,
      kind: "reserve",
      quote: await e2e.evm.registry.quote(86_400),
      secret: `0x${randomBytes(32).toString("hex")}`,
    });
    if (steps === null) throw new Error("the EVM registry built no transaction");
    const commit = await creator.signAndSend(steps.transaction);
    const mirrorAfterSetup = await mirrorRows(e2e);
    expect(mirrorAfterSetup, "the indexers are stopped").to.deep.equal(rowsBefore);

    const cases: [string, string][] = [
      [foreign, "other_identity"],
      [failed, "failed"],
      [unknown, "not_found"],
      [commit, "not_a_reservation"],
    ];
    for (const [hash, outcome] of cases) {
      const answer = await checked("hardhat", pair, hash);
      expect(answer.reservationTx, outcome).to.include({ hash, outcome, indexed: false });
      expect(answer.reservationTx?.message).to.contain("nothing changed");
      expect(answer).to.include({ status: "available" });
    }
    // The other identity's own hash is not mirrored through this identity either.
    expect(await checked("hardhat", other)).to.include({ status: "available" });
    expect(await mirrorRows(e2e)).to.deep.equal(rowsBefore);
  });

  it("a malformed hash, or one without `chain`, is a 400 that says what to send; nothing changes", async () => {
    const rowsBefore = await mirrorRows(e2e);
    const pair = uniquePair("Txbad");
    const malformed = await getCheck("hardhat", pair, "0x1234");
    expectEnvelope(malformed, 400, "invalid_request");
    expect(malformed.text).to.contain("0x and 64 hex digits");
    const notSolana = await getCheck("solana", pair, `0x${"ab".repeat(32)}`);
    expectEnvelope(notSolana, 400, "invalid_request");
    expect(notSolana.text).to.contain("Solana transaction signature");
    const noChain = await getCheck(undefined, pair, `0x${"ab".repeat(32)}`);
    expectEnvelope(noChain, 400, "invalid_request");
    expect(noChain.text).to.contain("needs `chain`");
    const post = await e2e.api.call({
      method: "POST",
      path: "/api/v1/identity/check",
      host: PRODUCTION_HOST,
      body: { ...pair, chain: "hardhat", reservationTx: "not-a-hash" },
    });
    expectEnvelope(post, 400, "invalid_request");
    expect((post.body as { error: { details: unknown } }).error.details).to.deep.include({
      in: "body",
      issues: [
        {
          path: "reservationTx",
          message:
            "`reservationTx` must be an EVM transaction hash: 0x and 64 hex digits, as hardhat names it.",
        },
      ],
    });
    expect(await mirrorRows(e2e)).to.deep.equal(rowsBefore);
  });

  it("the sandbox host never looks a transaction up nor mirrors it", async () => {
    const rowsBefore = await mirrorRows(e2e);
    const pair = uniquePair("Txsandbox");
    const creator = await e2e.evm.newWallet();
    const hash = await e2e.evm.reserveDirectly(creator, pair.name, pair.ticker);
    const response = await e2e.api.call({ path: checkPath("hardhat", pair, hash), host: "sandbox.test" });
    expect(response.status, response.text).to.equal(200);
    expect((response.body as Check).reservationTx).to.include({
      outcome: "sandbox_not_indexed",
      indexed: false,
    });
    expect(await mirrorRows(e2e)).to.deep.equal(rowsBefore);
    expect(await checked("hardhat", pair)).to.include({ status: "available" });
  });

  describe("through a chain RPC that fails, and with explorer templates", () => {
    let proxied: TestApi;
    let proxy: FaultProxy;
    before(async () => {
      const { manifest } = e2e.localnet;
      const [entry] = manifest.evm;
      if (entry === undefined) throw new Error("the localnet has an EVM chain");
      const { hostname, port } = new URL(entry.rpcUrl);
      proxy = await startFaultProxy({ host: hostname, port: Number(port) });
      const evm = [{ ...entry, rpcUrl: proxy.urlThrough(entry.rpcUrl), explorer: EXPLORER }];
      proxied = await startTestApi({
        db: e2e.db,
        deps: {
          masterKey: e2e.api.masterKey,
          registries: registryCatalogue({ ...manifest, evm }, { now: e2e.clock.nowMs }),
          decisions: { chains: manifestChains(manifest) },
          now: e2e.clock.nowMs,
        },
      });
    });
    after(async () => {
      await proxied?.close();
      await proxy?.close();
    });

    it("RPC frozen or cut: the check answers from the mirror in bounded time, changes nothing, says the chain could not be asked", async () => {
      const pair = uniquePair("Txdown");
      const creator = await e2e.evm.newWallet();
      const hash = await e2e.evm.reserveDirectly(creator, pair.name, pair.ticker);
      const rowsBefore = await mirrorRows(e2e);
      const ask = () => proxied.call({ path: checkPath("hardhat", pair, hash), host: PRODUCTION_HOST });
      for (const fault of ["freeze", "cut"] as const) {
        proxy[fault]();
        const started = Date.now();
        const response = await ask();
        expect(response.status, response.text).to.equal(200);
        expect(Date.now() - started, fault).to.be.below(6_000);
        const answer = response.body as Check;
        expect(answer).to.include({ status: "available", adapter: "index" }); // the mirror's answer, fail closed
        expect(answer.reservationTx, fault).to.include({ outcome: "chain_unavailable", indexed: false });
        expect(answer.reservationTx?.message).to.contain("could not be asked");
        expect(answer.reservationTx?.message, "no RPC detail is shown").to.not.contain("127.0.0.1");
        expect(await mirrorRows(e2e)).to.deep.equal(rowsBefore);
        proxy.restore();
      }
      // Back up: the same hash indexes, and the answer links the chain's explorer.
      const answer = (await ask()).body as Check;
      expect(answer).to.include({ status: "reserved" });
      const registry = (e2e.evm.registry.guardTarget as { registry: string }).registry;
      expect(answer.reservationTx).to.deep.include({
        outcome: "indexed",
        explorer: {
          transaction: `https://explorer.test/tx/${hash}`,
          reservation: `https://explorer.test/address/${registry}`,
        },
      });
    });
  });

  describe("bounded per client address", () => {
    let limited: TestApi;
    before(async () => {
      // A second API on the same database and chains, with the keyless limits on.
      limited = await startTestApi({
        db: e2e.db,
        deps: {
          masterKey: e2e.api.masterKey,
          registries: e2e.registries,
          decisions: { chains: manifestChains(e2e.localnet.manifest) },
          keylessRateLimitPerMinute: 100,
          publicWriteRateLimitPerMinute: 3,
        },
      });
    });
    after(async () => limited?.close());

    it("checks carrying a hash count in the keyless-write window (429 past it, keys included); plain checks keep theirs", async () => {
      const pair = uniquePair("Txrate");
      const unknown = () => `0x${randomBytes(32).toString("hex")}`;
      const ask = (tx?: string, headers: Record<string, string> = {}): Promise<HttpResponse> =>
        limited.call({ path: checkPath("hardhat", pair, tx), host: PRODUCTION_HOST, headers });
      for (let call = 0; call < 3; call++) {
        const response = await ask(unknown());
        expect(response.status, response.text).to.equal(200);
        expect(response.headers["ratelimit-remaining"]).to.equal(String(2 - call));
      }
      const refused = await ask(unknown());
      expectEnvelope(refused, 429, "rate_limited");
      expect(Number(refused.headers["retry-after"])).to.be.at.least(1);
      const keyed = await ask(unknown(), bearer(e2e.key.secret));
      expectEnvelope(keyed, 429, "rate_limited");
      // The plain check is in its own (keyless read) window, untouched.
      const plain = await ask();
      expect(plain.status, plain.text).to.equal(200);
      expect(plain.body).to.not.have.property("reservationTx");
      expect(plain.headers["ratelimit-remaining"]).to.equal("95"); // 4 keyless checks with a hash, then this one
    });
  });
});
