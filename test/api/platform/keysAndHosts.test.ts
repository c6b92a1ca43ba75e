import { expect } from "chai";
import { createApiKey, revokeApiKey } from "../../../services/partners/apiKeyStore";
import { ExecutionCounter, FIXTURE_PATHS, fixtureRoutes } from "../support/fixtureRoutes";
import { bearer, expectEnvelope, issueKey, startTestApi, type TestApi } from "../support/harness";

const WHOAMI = `/api${FIXTURE_PATHS.whoami}`;

describe("api: partner keys, hosts and scopes over HTTP", () => {
  let api: TestApi;
  let sandbox: { secret: string; keyId: string; partnerId: string };
  let live: { secret: string; keyId: string; partnerId: string };

  before(async () => {
    api = await startTestApi({ extraRoutes: [fixtureRoutes(new ExecutionCounter())] });
    sandbox = await issueKey(api, "sandbox");
    live = await issueKey(api, "production");
  });
  after(async () => api.close());

  describe("host routing", () => {
    it("the sandbox host accepts sandbox keys and rejects production keys", async () => {
      const ok = await api.call({ path: WHOAMI, host: "sandbox.test", headers: bearer(sandbox.secret) });
      expect(ok.status).to.equal(200);
      expect(ok.body).to.nested.include({ "partner.environment": "sandbox", hostEnvironment: "sandbox" });
      const refused = await api.call({ path: WHOAMI, host: "sandbox.test", headers: bearer(live.secret) });
      expectEnvelope(refused, 403, "wrong_environment");
    });

    it("the production host accepts production keys and rejects sandbox keys", async () => {
      const ok = await api.call({ path: WHOAMI, host: "api.test", headers: bearer(live.secret) });
      expect(ok.status).to.equal(200);
      expect(ok.body).to.nested.include({
        "partner.environment": "production",
        hostEnvironment: "production",
      });
      const refused = await api.call({ path: WHOAMI, host: "api.test:443", headers: bearer(sandbox.secret) });
      expectEnvelope(refused, 403, "wrong_environment");
    });

    it("the canonical host accepts both and routes by prefix; public data stays production", async () => {
      const expected = [
        [sandbox, "sandbox"],
        [live, "production"],
      ] as const;
      for (const [key, environment] of expected) {
        const response = await api.call({
          path: WHOAMI,
          host: "canonical.test",
          headers: bearer(key.secret),
        });
        expect(response.status).to.equal(200);
        expect(response.body).to.nested.include({
          "partner.keyId": key.keyId,
          "partner.environment": environment,
          hostEnvironment: "production",
        });
      }
    });

    it("a wrong-environment key is refused before it is counted against its rate limit", async () => {
      const key = await issueKey(api, "production", { rateLimitPerMinute: 1 });
      expectEnvelope(
        await api.call({ path: WHOAMI, host: "sandbox.test", headers: bearer(key.secret) }),
        403,
        "wrong_environment",
      );
      const response = await api.call({ path: WHOAMI, host: "api.test", headers: bearer(key.secret) });
      expect(response.status).to.equal(200);
      expect(response.headers["ratelimit-remaining"]).to.equal("0");
    });
  });

  describe("authentication", () => {
    it("answers 401 unauthorized for a missing, malformed, unknown or non-Bearer key", async () => {
      const unknown = `svc_live_${"A".repeat(43)}`;
      const cases = [{}, bearer("not-a-key"), bearer(unknown), { authorization: `Basic ${live.secret}` }];
      for (const headers of cases) {
        expectEnvelope(await api.call({ path: WHOAMI, headers }), 401, "unauthorized");
      }
    });

    it("stores keys only as hashes: no column holds the raw secret", async () => {
      const { rows } = await api.db.pool.query("SELECT * FROM api_keys WHERE key_id = $1", [live.keyId]);
      const stored = JSON.stringify(rows[0]);
      expect(stored).to.not.contain(live.secret.slice("svc_live_".length));
      expect(rows[0].display_prefix).to.equal(`${live.secret.slice(0, 13)}…`);
    });

    it("rejects a revoked key at once with key_revoked and audits who revoked it and why", async () => {
      const key = await issueKey(api, "production");
      expect((await api.call({ path: WHOAMI, headers: bearer(key.secret) })).status).to.equal(200);
      await revokeApiKey(api.db.pool, key.keyId, { actor: "ops-alice", reason: "partner offboarded" });
      expectEnvelope(await api.call({ path: WHOAMI, headers: bearer(key.secret) }), 401, "key_revoked");
      const { rows } = await api.db.pool.query(
        "SELECT actor, action, reason FROM audit_log WHERE subject = $1",
        [key.keyId],
      );
      expect(rows).to.deep.equal([
        { actor: "ops-alice", action: "api_key.revoke", reason: "partner offboarded" },
      ]);
    });
  });

  describe("scopes", () => {
    it("answers 403 scope_missing naming the scope when the key lacks it", async () => {
      const key = await issueKey(api, "production", { scopes: ["launch:report"] });
      const response = await api.call({ path: WHOAMI, headers: bearer(key.secret) });
      expectEnvelope(response, 403, "scope_missing");
      expect(response.body).to.nested.include({ "error.details.requiredScope": "launch:validate" });
    });

    it("passes a key holding the scope and puts partner_id, environment and scopes on the request", async () => {
      const { record, issued } = await createApiKey(api.db.pool, {
        environment: "production",
        scopes: ["launch:validate"],
        rateLimitPerMinute: 300,
        label: "scoped",
        createdBy: "test",
        partnerId: "ptn_partner_one",
      });
      const response = await api.call({ path: WHOAMI, headers: bearer(issued.secret) });
      expect(response.status).to.equal(200);
      expect(response.body).to.deep.nested.include({
        "partner.keyId": record.keyId,
        "partner.partnerId": "ptn_partner_one",
        "partner.scopes": ["launch:validate"],
      });
    });
  });

  describe("self-serve sandbox keys", () => {
    it("creates a sandbox key with all scopes, shows the key and signing secret once, and the key works", async () => {
      const created = await api.call({
        method: "POST",
        path: "/api/v1/sandbox/keys",
        host: "sandbox.test",
        body: { organization: "Acme Launchpad", email: "dev@acme.example", label: "staging" },
      });
      expect(created.status, created.text).to.equal(201);
      expect(created.headers["cache-control"]).to.equal("no-store");
      const body = created.body as {
        apiKey: string;
        signingSecret: string;
        environment: string;
        keyId: string;
      };
      expect(body.environment).to.equal("sandbox");
      expect(body.apiKey).to.match(/^svc_sbx_[A-Za-z0-9_-]{43}$/);
      expect(body.signingSecret).to.match(/^svc_sigsec_/);
      const { rows } = await api.db.pool.query("SELECT * FROM api_keys WHERE key_id = $1", [body.keyId]);
      expect(JSON.stringify(rows[0])).to.not.contain(body.signingSecret.slice(12));
      const introspection = await api.call({ path: "/api/v1/sandbox/keys", headers: bearer(body.apiKey) });
      expect(introspection.status).to.equal(200);
      expect(introspection.body).to.deep.include({
        keyId: body.keyId,
        emailVerified: false,
        organization: "Acme Launchpad",
      });
      expect(introspection.body).to.nested.include({
        "limits.requestsPerMinute": 60,
        "usage.requestsThisMinute": 1,
      });
    });

    it("refuses bad creation bodies with invalid_request and creation on the production host", async () => {
      for (const body of [
        {},
        { organization: "x" },
        { organization: "x", email: "not-an-email" },
        { organization: "", email: "a@b.co" },
      ]) {
        expectEnvelope(
          await api.call({ method: "POST", path: "/api/v1/sandbox/keys", body }),
          400,
          "invalid_request",
        );
      }
      const onProduction = await api.call({
        method: "POST",
        path: "/api/v1/sandbox/keys",
        host: "api.test",
        body: { organization: "Acme", email: "dev@acme.example" },
      });
      expectEnvelope(onProduction, 403, "sandbox_only");
    });

    it("DELETE /v1/sandbox/keys revokes the calling key; production keys cannot use it", async () => {
      const key = await issueKey(api, "sandbox");
      const deleted = await api.call({
        method: "DELETE",
        path: "/api/v1/sandbox/keys",
        headers: bearer(key.secret),
      });
      expect(deleted.status).to.equal(200);
      expectEnvelope(
        await api.call({ path: "/api/v1/sandbox/keys", headers: bearer(key.secret) }),
        401,
        "key_revoked",
      );
      expectEnvelope(
        await api.call({ method: "DELETE", path: "/api/v1/sandbox/keys", headers: bearer(live.secret) }),
        403,
        "sandbox_only",
      );
    });

    it("answers 503 when the API runs without a master key to seal the signing secret", async () => {
      const bare = await startTestApi({ db: api.db, deps: { masterKey: undefined } });
      try {
        const response = await bare.call({
          method: "POST",
          path: "/api/v1/sandbox/keys",
          body: { organization: "Acme", email: "dev@acme.example" },
        });
        expectEnvelope(response, 503, "service_unavailable");
      } finally {
        await bare.close();
      }
    });
  });
});
