import { expect } from "chai";
import { normalizeIdentity } from "../../../core/fold";
import { createSecretBox } from "../../../core/secrets/secretBox";
import { admittedSnapshotLoader } from "../../../services/identity/admittedSnapshots";
import {
  type DecisionSnapshot,
  loadDecisionSnapshot,
  loadDecisionSnapshots,
} from "../../../services/identity/recordLoader";
import { revokeApiKey } from "../../../services/partners/apiKeyStore";
import { ensureSigningKeys } from "../../../services/signing/signingKeyStore";
import {
  CHAINS,
  EVM_OTHER,
  EVM_OWNER,
  independentlyVerified,
  mirrorReservation,
  publishedKeys,
  setCheckpoints,
} from "../../api/routes/identity/support";
import { bearer, issueKey, startTestApi, type TestApi } from "../../api/support/harness";

type Decision = Record<string, string | undefined>;

describe("decisions: batched snapshots and concurrent validations", () => {
  let api: TestApi;

  before(async () => {
    api = await startTestApi({ deps: { decisions: { chains: CHAINS } } });
    await setCheckpoints(api.db.pool);
    await ensureSigningKeys(api.db.pool, createSecretBox(api.masterKey));
    await mirrorReservation(api.db.pool, {
      chain: "hardhat",
      name: "Batch Reserved",
      ticker: "BRS",
      launcher: EVM_OWNER,
      expiresInSeconds: 3600,
    });
    await api.db.pool.query(
      `INSERT INTO identity_locks (environment, identity_key, chain, kind, was_reserved, authorized_launcher, applied_at, expires_at)
       VALUES ('production', 'BATCHLOCKED::BLK', 'hardhat', 'bonded', false, NULL, now(), now() + interval '1 day')`,
    );
  });
  after(async () => api.close());

  it("one snapshot query answers each request with its own records, in request order", async () => {
    const reserved = normalizeIdentity("Batch Reserved", "BRS");
    const locked = normalizeIdentity("Batch Locked", "BLK");
    const free = normalizeIdentity("Batch Free", "BFR");
    const requests = [
      { environment: "production" as const, identity: locked, chain: "hardhat", partnerId: null },
      { environment: "production" as const, identity: reserved, chain: "hardhat", partnerId: null },
      { environment: "production" as const, identity: free, chain: null, partnerId: null },
      // The sandbox never sees production's mirror or locks.
      { environment: "sandbox" as const, identity: reserved, chain: "hardhat", partnerId: "ptn_batch" },
      { environment: "production" as const, identity: reserved, chain: "solana", partnerId: null },
    ];
    const batched = await loadDecisionSnapshots(api.db.pool, requests);
    const summary = (snapshot: DecisionSnapshot) => ({
      holds: snapshot.records.holds.map((hold) => `${hold.kind} ${hold.chain} ${hold.launcher}`),
      locks: snapshot.records.locks.map((lock) => `${lock.kind} ${lock.chain}`),
      checkpoints: snapshot.checkpoints.map((entry) => entry.chain),
      hasKid: snapshot.activeKid !== null,
    });
    expect(batched.map(summary)).to.deep.equal([
      { holds: [], locks: ["bonded hardhat"], checkpoints: ["hardhat"], hasKid: true },
      { holds: [`reservation hardhat ${EVM_OWNER}`], locks: [], checkpoints: ["hardhat"], hasKid: true },
      { holds: [], locks: [], checkpoints: ["hardhat", "solana"], hasKid: true },
      { holds: [], locks: [], checkpoints: ["hardhat"], hasKid: true },
      { holds: [], locks: [], checkpoints: ["solana"], hasKid: true },
    ]);
    for (const [index, request] of requests.entries()) {
      expect(batched[index]).to.deep.equal(
        await loadDecisionSnapshot(
          api.db.pool,
          request.environment,
          request.identity,
          request.chain,
          request.partnerId,
        ),
      );
    }
  });

  it("one statement admits each key and reads each snapshot: exact counts, unknown and revoked keys", async () => {
    const live = await issueKey(api, "production", { scopes: ["launch:validate"], rateLimitPerMinute: 10 });
    const sandbox = await issueKey(api, "sandbox", { scopes: ["launch:validate"] });
    const revoked = await issueKey(api, "production", { scopes: ["launch:validate"] });
    await revokeApiKey(api.db.pool, revoked.keyId, { actor: "test", reason: "test" });
    const reserved = normalizeIdentity("Batch Reserved", "BRS");
    const free = normalizeIdentity("Batch Free", "BFR");
    const stranger = await issueKey(api, "sandbox", { scopes: ["launch:validate"] });
    // A sandbox hold of the key's own partner, and one of another partner on the same pair.
    for (const [partnerId, launcher] of [
      [sandbox.partnerId, EVM_OWNER],
      [stranger.partnerId, "0x2222222222222222222222222222222222222222"],
    ]) {
      await api.db.pool.query(
        `INSERT INTO sandbox_holds (identity_key, chain, launcher, starts_at, expires_at, duration_seconds, partner_id, source)
         VALUES ('BATCHRESERVED::BRS', 'hardhat', $1, now(), now() + interval '1 day', 86400, $2, 'partner')`,
        [launcher, partnerId],
      );
    }
    const load = admittedSnapshotLoader(api.db.pool, () => false);
    const nowMs = Date.now();
    const requests = [
      { raw: live.secret, environment: "production" as const, identity: reserved, partnerId: null },
      {
        raw: sandbox.secret,
        environment: "sandbox" as const,
        identity: reserved,
        partnerId: sandbox.partnerId,
      },
      {
        raw: `svc_live_${"A".repeat(43)}`,
        environment: "production" as const,
        identity: free,
        partnerId: null,
      },
      { raw: live.secret, environment: "production" as const, identity: free, partnerId: null },
      { raw: revoked.secret, environment: "production" as const, identity: reserved, partnerId: null },
    ];
    // Issued in one turn of the event loop, so they travel in one batch.
    const answers = await Promise.all(
      requests.map(({ raw, environment, identity }) =>
        load({
          attempt: { raw, nowMs },
          snapshot: { environment, identity, chain: "hardhat", partnerId: null },
        }),
      ),
    );
    expect(
      answers.map(({ authentication }) =>
        authentication === undefined
          ? "unknown"
          : `${authentication.key.keyId} ${authentication.rate?.count}`,
      ),
    ).to.deep.equal([
      `${live.keyId} 1`,
      `${sandbox.keyId} 1`,
      "unknown",
      `${live.keyId} 2`,
      `${revoked.keyId} undefined`,
    ]);
    // The statement reads each sandbox key's own partner's records, as a read for that partner would.
    for (const [index, { environment, identity, partnerId }] of requests.entries()) {
      expect(answers[index]?.snapshot, `snapshot ${index}`).to.deep.equal(
        await loadDecisionSnapshot(api.db.pool, environment, identity, "hardhat", partnerId),
      );
    }
    expect(answers[0]?.snapshot.records.holds).to.have.length(1);
    expect(
      answers[1]?.snapshot.records.holds.map((hold) => hold.launcher),
      "the sandbox key sees its own partner's hold: not the mirror's, not another partner's",
    ).to.deep.equal([EVM_OWNER]);
  });

  it("a burst of concurrent validations: each answer is its own request's, signed, and recorded once", async () => {
    const live = await issueKey(api, "production", { scopes: ["launch:validate"], rateLimitPerMinute: 2000 });
    const cases = [
      {
        name: "Batch Reserved",
        ticker: "BRS",
        launcher: EVM_OWNER,
        expected: "allow",
        reason: "authorized_launcher",
      },
      {
        name: "Batch Reserved",
        ticker: "BRS",
        launcher: EVM_OTHER,
        expected: "block",
        reason: "active_reservation",
      },
      { name: "Batch Locked", ticker: "BLK", launcher: EVM_OTHER, expected: "block", reason: "bonding_lock" },
      { name: "Batch Free", ticker: "BFR", launcher: EVM_OTHER, expected: "allow", reason: "no_conflict" },
    ];
    const requests = Array.from({ length: 48 }, (_, index) => ({
      ...(cases[index % cases.length] as (typeof cases)[number]),
      nonce: `burst-${index}`,
    }));
    const responses = await Promise.all(
      requests.map((request) =>
        api.call({
          method: "POST",
          path: "/api/v1/launches/validate",
          headers: bearer(live.secret),
          body: {
            chain: "hardhat",
            name: request.name,
            ticker: request.ticker,
            launcher: request.launcher,
            nonce: request.nonce,
          },
        }),
      ),
    );
    const keys = await publishedKeys(api, "production");
    responses.forEach((response, index) => {
      const request = requests[index] as (typeof requests)[number];
      const decision = response.body as Decision;
      expect(response.status, response.text).to.equal(200);
      expect(decision).to.include({
        identityKey: normalizeIdentity(request.name, request.ticker).identityKey,
        launcher: request.launcher,
        nonce: request.nonce,
        decision: request.expected,
        reason: request.reason,
      });
      expect(independentlyVerified(decision, keys), `verification of ${request.nonce}`).to.equal(true);
    });
    const { rows } = await api.db.pool.query<{ request_id: string; nonce: string; decision: string }>(
      `SELECT request_id, signed->>'nonce' AS nonce, signed->>'decision' AS decision FROM decisions
       WHERE api_key_id = $1 ORDER BY signed->>'nonce'`,
      [live.keyId],
    );
    const answered = responses
      .map((response) => response.body as Decision)
      .map((decision) => ({
        request_id: decision.requestId,
        nonce: decision.nonce,
        decision: decision.decision,
      }))
      .sort((left, right) => ((left.nonce as string) < (right.nonce as string) ? -1 : 1));
    expect(rows).to.deep.equal(answered);
  });

  it("a field the database cannot store is refused on its own; the requests batched with it are answered", async () => {
    const live = await issueKey(api, "production", { scopes: ["launch:validate"], rateLimitPerMinute: 2000 });
    const good = { chain: "hardhat", name: "Batch Free", ticker: "BFR", launcher: EVM_OTHER };
    const bad = [
      { ...good, chain: "hard\u0000hat" },
      { ...good, launchpad: "pad\u0000" },
      { ...good, nonce: "nonce-\ud800" },
    ];
    const bodies = [good, ...bad, good, good];
    const responses = await Promise.all(
      bodies.map((body) =>
        api.call({ method: "POST", path: "/api/v1/launches/validate", headers: bearer(live.secret), body }),
      ),
    );
    expect(responses.map((response) => response.status)).to.deep.equal([200, 400, 400, 400, 200, 200]);
    expect(responses.map((response) => response.body)).to.have.nested.property(
      "[1].error.details.issues[0].path",
      "chain",
    );
  });
});
