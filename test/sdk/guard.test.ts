// The launch guard against a running service over real HTTP: it launches only on a verified allow that
// matches the request, and every other answer, fault or tampering resolves to launch: false with a reason.
import { expect } from "chai";
import { createSecretBox } from "../../core/secrets/secretBox";
import { createLaunchGuard, type Fetch, type LaunchVerdict } from "../../sdk/src";
import { revokeSigningKey, rotateSigningKey } from "../../services/signing/signingKeyStore";
import {
  CHAINS,
  EVM_OTHER,
  EVM_OWNER,
  mirrorReservation,
  SOL_OTHER,
  setCheckpoints,
} from "../api/routes/identity/support";
import { issueKey, startTestApi } from "../api/support/harness";
import {
  editedJson,
  LAUNCHPAD,
  OPERATOR,
  observedFetch,
  type SdkFixture,
  startSdkFixture,
  startSilentServer,
} from "./support";

const isValidate = (url: string) => url.endsWith("/api/v1/launches/validate");
const isKeys = (url: string) => url.includes("/api/v1/keys");

function refused(verdict: LaunchVerdict, reason: string): void {
  expect(verdict, JSON.stringify(verdict)).to.include({ launch: false, reason });
}

describe("sdk: createLaunchGuard against a running service", function () {
  this.timeout(30_000);
  let fx: SdkFixture;
  let counter = 0;
  /** A pair never asked about before, so no idempotent replay or earlier state interferes. */
  const fresh = (chain = "hardhat", launcher = EVM_OTHER) => ({
    chain,
    name: `Guarded ${++counter} Coin`,
    ticker: "GRD",
    launcher,
  });

  before(async () => {
    fx = await startSdkFixture();
    await mirrorReservation(fx.api.db.pool, {
      chain: "hardhat",
      name: "Held Coin",
      ticker: "HELD",
      launcher: EVM_OWNER,
      expiresInSeconds: 3600,
    });
  });
  after(async () => fx?.api.close());

  describe("decisions", () => {
    it("allow: launch with the verified decision, which matches the request", async () => {
      const verdict = await fx.guard().check({ ...fresh(), nonce: "n-allow-1" });
      expect(verdict.launch, JSON.stringify(verdict)).to.equal(true);
      expect(verdict.decision).to.include({
        decision: "allow",
        launchpadId: LAUNCHPAD,
        chain: "hardhat",
        nonce: "n-allow-1",
        environment: "production",
      });
    });

    it("allow on Solana for a base58 launcher; the authorized launcher of a held pair in another case", async () => {
      expect((await fx.guard().check(fresh("solana", SOL_OTHER))).launch).to.equal(true);
      const owner = await fx.guard().check({
        chain: "hardhat",
        name: "held coin",
        ticker: "held",
        launcher: EVM_OWNER.toLowerCase(),
      });
      expect(owner.launch, JSON.stringify(owner)).to.equal(true);
    });

    it("block: another launcher of a held pair is refused, with the verified decision to show why", async () => {
      const verdict = await fx.guard().check({
        chain: "hardhat",
        name: "Held Coin",
        ticker: "HELD",
        launcher: EVM_OTHER,
      });
      refused(verdict, "blocked");
      expect(verdict.decision).to.include({ decision: "block", reason: "active_reservation" });
    });

    it("recheck_required (index behind): refused, even for the authorized launcher", async () => {
      await setCheckpoints(fx.api.db.pool, 600, [CHAINS[0] as (typeof CHAINS)[number]]);
      try {
        const verdict = await fx.guard().check({
          chain: "hardhat",
          name: "Held Coin",
          ticker: "HELD",
          launcher: EVM_OWNER,
        });
        refused(verdict, "recheck_required");
        expect(verdict.decision?.reason).to.equal("index_behind");
      } finally {
        await setCheckpoints(fx.api.db.pool);
      }
    });
  });

  describe("verification failures", () => {
    it("a tampered signature or a tampered field: bad_signature", async () => {
      const flipSignature = observedFetch(async (call, response) =>
        isValidate(call.url)
          ? editedJson(response, (body) => {
              const signature = body.signature as string;
              body.signature = (signature[0] === "A" ? "B" : "A") + signature.slice(1);
            })
          : response,
      );
      refused(await fx.guard({ fetch: flipSignature.fetch }).check(fresh()), "bad_signature");

      const blockToAllow = observedFetch(async (call, response) =>
        isValidate(call.url)
          ? editedJson(response, (body) => {
              body.decision = "allow";
            })
          : response,
      );
      const verdict = await fx.guard({ fetch: blockToAllow.fetch }).check({
        chain: "hardhat",
        name: "Held Coin",
        ticker: "HELD",
        launcher: EVM_OTHER,
      });
      refused(verdict, "bad_signature");
    });

    it("no signature: no_signature", async () => {
      const strip = observedFetch(async (call, response) =>
        isValidate(call.url)
          ? editedJson(response, (body) => {
              delete body.signature;
            })
          : response,
      );
      refused(await fx.guard({ fetch: strip.fetch }).check(fresh()), "no_signature");
    });

    it("a key the cache does not know: fetched once more; still unknown: unknown_key, no other key tried", async () => {
      const observed = observedFetch(async (call, response) =>
        isValidate(call.url)
          ? editedJson(response, (body) => {
              body.keyId = "live-19990101-deadbeef";
            })
          : response,
      );
      refused(await fx.guard({ fetch: observed.fetch }).check(fresh()), "unknown_key");
      expect(observed.calls.filter((call) => isKeys(call.url))).to.have.length(2);
    });

    it("a rotation since the keys were cached: the new key is fetched once and the decision launches", async () => {
      const observed = observedFetch();
      const guard = fx.guard({ fetch: observed.fetch });
      const first = await guard.check(fresh());
      expect(first.launch).to.equal(true);
      await guard.check(fresh());
      expect(
        observed.calls.filter((call) => isKeys(call.url)),
        "cached",
      ).to.have.length(1);

      await rotateSigningKey(fx.api.db.pool, createSecretBox(fx.api.masterKey), "production", OPERATOR);
      const after = await guard.check(fresh());
      expect(after.launch, JSON.stringify(after)).to.equal(true);
      expect(after.decision?.keyId).to.not.equal(first.decision?.keyId);
      expect(observed.calls.filter((call) => isKeys(call.url))).to.have.length(2);
    });

    it("a decision signed by a key revoked since: revoked_key", async () => {
      const request = { ...fresh(), nonce: "n-before-revoke" };
      const before = await fx.guard().check(request);
      expect(before.launch).to.equal(true);
      await revokeSigningKey(
        fx.api.db.pool,
        createSecretBox(fx.api.masterKey),
        before.decision?.keyId as string,
        OPERATOR,
      );
      // The same nonce is the same idempotency key: the service replays the decision it signed before.
      const observed = observedFetch();
      const verdict = await fx.guard({ fetch: observed.fetch }).check(request);
      refused(verdict, "revoked_key");
    });

    it("an expired decision (the service's clock 10 minutes behind): expired", async () => {
      fx.api.clock.set(Date.now() - 600_000);
      try {
        refused(await fx.guard().check(fresh()), "expired");
      } finally {
        fx.api.clock.unpin();
      }
    });

    it("clock skew: issued 2 minutes ahead is not_yet_valid; 20 s ahead is within the 30 s tolerance", async () => {
      try {
        fx.api.clock.set(Date.now() + 120_000);
        refused(await fx.guard().check(fresh()), "not_yet_valid");
        fx.api.clock.set(Date.now() + 20_000);
        expect((await fx.guard().check(fresh())).launch).to.equal(true);
        fx.api.clock.set(Date.now() + 20_000);
        refused(await fx.guard({ skewSeconds: 5 }).check(fresh()), "not_yet_valid");
      } finally {
        fx.api.clock.unpin();
      }
    });

    it("a decision of the wrong environment (a sandbox key behind a production guard): unknown_key", async () => {
      const sandbox = await issueKey(fx.api, "sandbox", { partnerId: fx.live.partnerId });
      const verdict = await fx.guard({ apiKey: sandbox.secret }).check(fresh());
      refused(verdict, "unknown_key");
    });

    it("a decision for another request (launcher, chain, launchpad, nonce): refused by the match", async () => {
      // A decision relabelled without its signature changing fails the signature first; a genuine decision
      // for another request is what a replay looks like, so the guard is handed one.
      const other = await fx.guard().check({ ...fresh(), nonce: "n-other" });
      const replay = observedFetch(async (call, response) =>
        isValidate(call.url) ? new Response(JSON.stringify(other.decision), { status: 200 }) : response,
      ).fetch;
      refused(await fx.guard({ fetch: replay }).check({ ...fresh(), nonce: "n-mine" }), "nonce_mismatch");
      refused(
        await fx.guard({ fetch: replay, launchpadId: "pad-elsewhere" }).check(fresh()),
        "launchpad_mismatch",
      );
      refused(
        await fx.guard({ fetch: replay }).check({ ...fresh(), launcher: EVM_OWNER, nonce: "n-other" }),
        "launcher_mismatch",
      );
    });
  });

  describe("transport failures", () => {
    it("a service that never answers: timeout, within the deadline", async () => {
      const silent = await startSilentServer();
      try {
        const started = Date.now();
        const verdict = await fx.guard({ baseUrl: silent.url, timeoutMs: 400 }).check(fresh());
        refused(verdict, "timeout");
        // Not before the deadline; and the guard's own deadline ends it (the server never would).
        expect(Date.now() - started).to.be.within(350, 5_000);
      } finally {
        await silent.close();
      }
    });

    it("503 (signer unavailable): retried with the same Idempotency-Key until the deadline, then refused", async () => {
      const keyless = await startTestApi({
        db: fx.api.db,
        deps: { decisions: { chains: CHAINS }, masterKey: undefined },
      });
      try {
        const observed = observedFetch();
        const started = Date.now();
        const verdict = await createLaunchGuard({
          baseUrl: keyless.url,
          apiKey: fx.live.secret,
          launchpadId: LAUNCHPAD,
          environment: "production",
          // Long enough for a second attempt when a loaded embedded database slows the first answer.
          timeoutMs: 3000,
          fetch: observed.fetch,
        }).check(fresh());
        expect(verdict).to.include({ launch: false, reason: "service_unavailable", status: 503 });
        expect(verdict).to.include({ errorCode: "service_unavailable" });
        expect(Date.now() - started, "ended by the deadline").to.be.below(10_000);
        const keys = observed.calls.map((call) => call.headers["idempotency-key"]);
        expect(keys.length).to.be.greaterThan(1);
        expect(new Set(keys).size).to.equal(1);
      } finally {
        await keyless.close();
      }
    });

    it("a retry the deadline cuts short: the 503 before it is the verdict, not a timeout", async () => {
      let validates = 0;
      const hangsAfterA503: Fetch = async (url, init) => {
        if (!isValidate(url)) return fetch(url, init);
        validates += 1;
        if (validates === 1) {
          return new Response('{"error":{"code":"service_unavailable","message":"x","details":null}}', {
            status: 503,
          });
        }
        // The retry never answers; only the guard's deadline ends it.
        return new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
        });
      };
      const verdict = await fx.guard({ fetch: hangsAfterA503, timeoutMs: 600 }).check(fresh());
      expect(verdict).to.include({ launch: false, reason: "service_unavailable", status: 503 });
      expect(validates).to.equal(2);
    });

    it("a lost answer is retried and replayed (one decision recorded); Retry-After is honoured", async () => {
      const observed = observedFetch(async (call, response, index) => {
        if (index === 0) throw new TypeError("fetch failed (connection reset)");
        if (index === 1 && isValidate(call.url)) {
          return new Response('{"error":{"code":"service_unavailable","message":"x","details":null}}', {
            status: 503,
            headers: { "retry-after": "1" },
          });
        }
        return response;
      });
      const started = Date.now();
      const verdict = await fx.guard({ fetch: observed.fetch }).check(fresh());
      expect(verdict.launch, JSON.stringify(verdict)).to.equal(true);
      expect(Date.now() - started, "waited for Retry-After").to.be.at.least(1000);
      const validates = observed.calls.filter((call) => isValidate(call.url));
      expect(validates).to.have.length(3);
      expect(new Set(validates.map((call) => call.headers["idempotency-key"])).size).to.equal(1);
      const { rows } = await fx.api.db.pool.query(
        "SELECT count(*)::int AS n FROM decisions WHERE request_id = $1",
        [verdict.decision?.requestId],
      );
      expect(rows[0].n).to.equal(1);
    });

    it("a Retry-After beyond the deadline: refused at once, not after a useless wait", async () => {
      const observed = observedFetch(
        async () => new Response("", { status: 503, headers: { "retry-after": "30" } }),
      );
      const started = Date.now();
      refused(await fx.guard({ fetch: observed.fetch }).check(fresh()), "service_unavailable");
      expect(Date.now() - started, "no 30 s wait").to.be.below(10_000);
      expect(observed.calls).to.have.length(1);
    });

    it("malformed JSON in a 200: malformed_response", async () => {
      const observed = observedFetch(async (call, response) =>
        isValidate(call.url) ? new Response("{not json", { status: 200 }) : response,
      );
      refused(await fx.guard({ fetch: observed.fetch }).check(fresh()), "malformed_response");
    });

    it("unreadable keys: keys_unavailable", async () => {
      const observed = observedFetch(async (call, response) =>
        isKeys(call.url) ? new Response("<html>", { status: 200 }) : response,
      );
      refused(await fx.guard({ fetch: observed.fetch }).check(fresh()), "keys_unavailable");
    });

    it("429: rate_limited at once (not retried)", async () => {
      const limited = await issueKey(fx.api, "production", {
        rateLimitPerMinute: 1,
        partnerId: fx.live.partnerId,
      });
      const observed = observedFetch();
      const guard = fx.guard({ apiKey: limited.secret, fetch: observed.fetch });
      await guard.check(fresh());
      const verdict = await guard.check(fresh());
      expect(verdict).to.include({
        launch: false,
        reason: "rate_limited",
        status: 429,
        errorCode: "rate_limited",
      });
      expect(observed.calls.filter((call) => isValidate(call.url))).to.have.length(2);
    });

    it("a bad key: unauthorized; nothing listening: network_error", async () => {
      refused(await fx.guard({ apiKey: "svc_live_nope" }).check(fresh()), "unauthorized");
      refused(
        await fx.guard({ baseUrl: "http://127.0.0.1:1", timeoutMs: 500 }).check(fresh()),
        "network_error",
      );
    });

    it("never throws: a fetch that throws anything, or answers nonsense, is a refusal", async () => {
      const weird = [
        async () => {
          throw "not even an Error";
        },
        async () => null as unknown as Response,
      ];
      for (const fetch of weird) {
        const verdict = await fx.guard({ fetch, timeoutMs: 300 }).check(fresh());
        expect(verdict.launch).to.equal(false);
      }
    });

    it("misconfiguration throws at creation, not at check time", () => {
      expect(() => fx.guard({ environment: "staging" as never })).to.throw(/environment/);
      expect(() => fx.guard({ timeoutMs: 0 })).to.throw(/timeoutMs/);
      expect(() => fx.guard({ launchpadId: "" })).to.throw(/launchpadId/);
    });
  });

  it("a signing key rotation during a stream of guarded checks: no false refusal", async () => {
    const observed = observedFetch();
    const guard = fx.guard({ fetch: observed.fetch });
    const verdicts: LaunchVerdict[] = [];
    const box = createSecretBox(fx.api.masterKey);
    const batch = () =>
      Promise.all(Array.from({ length: 8 }, () => guard.check(fresh()).then((v) => verdicts.push(v))));
    for (let round = 0; round < 6; round++) {
      // A rotation in flight alongside a batch of checks, twice.
      await Promise.all([
        batch(),
        round === 1 || round === 3 ? rotateSigningKey(fx.api.db.pool, box, "production", OPERATOR) : null,
      ]);
    }
    expect(verdicts.filter((verdict) => !verdict.launch)).to.deep.equal([]);
    expect(new Set(verdicts.map((verdict) => verdict.decision?.keyId)).size).to.be.at.least(3);
    expect(observed.calls.filter((call) => isKeys(call.url)).length).to.be.at.most(5);
  });
});
