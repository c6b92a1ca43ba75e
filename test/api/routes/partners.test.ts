// The partner journey over real HTTP: the public access request, sandbox sign-up mailing a one-time token (read
// back from DATA_DIR/mail's .eml files, and over SMTP from a local SMTP server), verification (single use,
// expiring, stored hashed), production requests, rotation keeping partner_id (the old key 401 key_revoked,
// the partner's webhooks and ledger seen by the new key, production keys refused), and the calling key's
// request logs and usage (never key material; one partner never sees another's).
import { expect } from "chai";
import { createMailer } from "../../../services/mail";
import { prepare } from "../../services/reservations/support";
import { bearer, expectEnvelope, issueKey, startTestApi, TEST_HOSTS, type TestApi } from "../support/harness";
import type { HttpResponse } from "../support/http";
import { emlMessages, LocalSmtpServer, tokenMailedTo } from "../support/mailbox";

const SANDBOX = TEST_HOSTS.sandbox[0];
const HOUR_MS = 3_600_000;

interface Created {
  apiKey: string;
  signingSecret: string;
  keyId: string;
  partnerId: string;
  revokedKeyId?: string;
}

describe("api: partners (onboarding, verification, rotation, logs and usage)", function () {
  this.timeout(60_000);
  let api: TestApi;

  before(async () => {
    api = await startTestApi({ deps: { webhooks: { allowLocalReceivers: true } } });
  });
  after(async () => api.close());
  afterEach(() => api.clock.unpin());

  const signUp = async (email: string, organization = "Acme Launchpad"): Promise<Created> => {
    const response = await api.call({
      method: "POST",
      path: "/api/v1/sandbox/keys",
      host: SANDBOX,
      body: { organization, email },
    });
    expect(response.status, response.text).to.equal(201);
    return response.body as Created;
  };
  const verify = (token: string) =>
    api.call({ method: "POST", path: "/api/v1/partners/verify-email", body: { token } });
  const introspect = (key: string) => api.call({ path: "/api/v1/sandbox/keys", headers: bearer(key) });
  const rotate = (key: string, body: Record<string, unknown>, host: string = SANDBOX) =>
    api.call({
      method: "POST",
      path: "/api/v1/sandbox/keys",
      host,
      headers: { ...bearer(key), "x-service-rotate": "1" },
      body,
    });
  const verifiedPartner = async (email: string): Promise<Created> => {
    const created = await signUp(email);
    expect((await verify(tokenMailedTo(emlMessages(api.mailDir), email))).status).to.equal(200);
    return created;
  };

  describe("POST /v1/partners/request", () => {
    it("stores the request, acknowledges it with its id and refuses bad input without storing", async () => {
      const response = await api.call({
        method: "POST",
        path: "/api/v1/partners/request",
        body: { organization: "Moon Pad", email: "bd@moonpad.example", intendedUse: "Launch validation" },
      });
      expect(response.status, response.text).to.equal(201);
      const { requestId } = response.body as { requestId: string };
      expect(requestId).to.match(/^par_[0-9a-f]{16}$/);
      const { rows } = await api.db.pool.query(
        "SELECT * FROM partner_access_requests WHERE request_id = $1",
        [requestId],
      );
      expect(rows[0]).to.include({ organization: "Moon Pad", email: "bd@moonpad.example", status: "open" });
      for (const body of [
        {},
        { organization: "x", email: "not-an-email", intendedUse: "y" },
        { organization: "x", email: "a@b.co", intendedUse: "y".repeat(2001) },
        { organization: "x", email: "a@b.co", intendedUse: "y", extra: 1 },
      ]) {
        expectEnvelope(
          await api.call({ method: "POST", path: "/api/v1/partners/request", body }),
          400,
          "invalid_request",
        );
      }
      const count = await api.db.pool.query("SELECT count(*)::int AS n FROM partner_access_requests");
      expect(count.rows[0].n).to.equal(1);
    });

    it("is a keyless write limited per client address: past the public-write limit 429, nothing stored", async () => {
      const limited = await startTestApi({ db: api.db, deps: { publicWriteRateLimitPerMinute: 2 } });
      try {
        const ask = (organization: string) =>
          limited.call({
            method: "POST",
            path: "/api/v1/partners/request",
            body: { organization, email: "bd@flood.example", intendedUse: "Launch validation" },
          });
        expect((await ask("Flood 1")).status).to.equal(201);
        expect((await ask("Flood 2")).status).to.equal(201);
        const refused = await ask("Flood 3");
        expectEnvelope(refused, 429, "rate_limited");
        expect(refused.headers["retry-after"]).to.match(/^[1-9][0-9]*$/);
        const { rows } = await api.db.pool.query<{ organization: string }>(
          "SELECT organization FROM partner_access_requests WHERE email = 'bd@flood.example' ORDER BY organization",
        );
        expect(rows.map((row) => row.organization)).to.deep.equal(["Flood 1", "Flood 2"]);
      } finally {
        await limited.close();
      }
    });
  });

  describe("email verification", () => {
    it("sign-up mails a one-time token as an .eml file; the token verifies the contact once", async () => {
      const created = await signUp("dev@verify.example");
      const messages = emlMessages(api.mailDir);
      const token = tokenMailedTo(messages, "dev@verify.example");
      const mail = messages.find((text) => text.includes(token)) as string;
      expect(mail).to.contain("/api/v1/partners/verify-email");
      expect(mail, "the mail never carries the key").to.not.contain(created.apiKey);
      // Stored hashed: no column of the token table holds it.
      const stored = await api.db.pool.query("SELECT * FROM email_verification_tokens");
      expect(JSON.stringify(stored.rows)).to.not.contain(token.slice(4));
      expect((await introspect(created.apiKey)).body).to.include({ emailVerified: false });

      const verified = await verify(token);
      expect(verified.status, verified.text).to.equal(200);
      expect(verified.body).to.include({ partnerId: created.partnerId, emailVerified: true });
      expect((await introspect(created.apiKey)).body).to.include({ emailVerified: true });

      const again = await verify(token);
      expectEnvelope(again, 400, "verification_token_invalid");
      expect(again.body).to.have.nested.property("error.details.reason", "used");
    });

    it("refuses an expired token and an unknown or malformed one, verifying nothing", async () => {
      const created = await signUp("late@verify.example");
      const token = tokenMailedTo(emlMessages(api.mailDir), "late@verify.example");
      api.clock.set(Date.now() + 24 * HOUR_MS + 1000);
      const expired = await verify(token);
      expectEnvelope(expired, 400, "verification_token_invalid");
      expect(expired.body).to.have.nested.property("error.details.reason", "expired");
      api.clock.unpin();
      for (const bad of [`evt_${"A".repeat(43)}`, "evt_short", "x"]) {
        const response = await verify(bad);
        expectEnvelope(response, 400, "verification_token_invalid");
        expect(response.body).to.have.nested.property("error.details.reason", "unknown");
      }
      expect((await introspect(created.apiKey)).body).to.include({ emailVerified: false });
    });

    it("resend mails a new token to the key's contact, which verifies it", async () => {
      const created = await signUp("resend@verify.example");
      const first = tokenMailedTo(emlMessages(api.mailDir), "resend@verify.example");
      const resent = await api.call({
        method: "POST",
        path: "/api/v1/partners/verify-email/resend",
        headers: bearer(created.apiKey),
      });
      expect(resent.status, resent.text).to.equal(202);
      const second = tokenMailedTo(emlMessages(api.mailDir), "resend@verify.example");
      expect(second).to.not.equal(first);
      expect((await verify(second)).status).to.equal(200);
    });
  });

  describe("partner mail over SMTP", () => {
    it("sends the verification mail through an SMTP server; a dead server refuses sign-up and stores nothing", async () => {
      const smtp = new LocalSmtpServer();
      const url = await smtp.start();
      const viaSmtp = await startTestApi({
        db: api.db,
        deps: {
          mail: {
            mailer: createMailer(
              { smtpUrl: url, directory: "/nonexistent", from: "t@localhost" },
              () => undefined,
            ),
            publicUrl: "http://canonical.test",
          },
        },
      });
      try {
        const response = await viaSmtp.call({
          method: "POST",
          path: "/api/v1/sandbox/keys",
          body: { organization: "Smtp Ltd", email: "ops@smtp.example" },
        });
        expect(response.status, response.text).to.equal(201);
        expect(smtp.messages).to.have.length(1);
        const token = tokenMailedTo(smtp.messages, "ops@smtp.example");
        expect((await verify(token)).body).to.include({ emailVerified: true });
      } finally {
        await smtp.stop();
      }
      const keysBefore = await api.db.pool.query("SELECT count(*)::int AS n FROM api_keys");
      const refused = await viaSmtp.call({
        method: "POST",
        path: "/api/v1/sandbox/keys",
        body: { organization: "Smtp Ltd", email: "ops2@smtp.example" },
      });
      await viaSmtp.close();
      expectEnvelope(refused, 503, "mail_unavailable");
      const keysAfter = await api.db.pool.query("SELECT count(*)::int AS n FROM api_keys");
      expect(keysAfter.rows[0].n).to.equal(keysBefore.rows[0].n);
    });
  });

  describe("POST /v1/partners/production-request", () => {
    it("needs a verified contact, records one open request per partner, and refuses production keys", async () => {
      const unverified = await signUp("unverified@prod.example");
      expectEnvelope(
        await api.call({
          method: "POST",
          path: "/api/v1/partners/production-request",
          headers: bearer(unverified.apiKey),
          body: { message: "please" },
        }),
        403,
        "email_not_verified",
      );
      const partner = await verifiedPartner("ready@prod.example");
      const ask = () =>
        api.call({
          method: "POST",
          path: "/api/v1/partners/production-request",
          headers: bearer(partner.apiKey),
          body: { message: "We launch 200 tokens a day" },
        });
      const first = await ask();
      expect(first.status, first.text).to.equal(201);
      expect(first.body).to.include({ partnerId: partner.partnerId, status: "open" });
      const second = await ask();
      expect(second.status).to.equal(200);
      expect((second.body as { requestId: string }).requestId).to.equal(
        (first.body as { requestId: string }).requestId,
      );
      const live = await issueKey(api, "production");
      expectEnvelope(
        await api.call({
          method: "POST",
          path: "/api/v1/partners/production-request",
          host: TEST_HOSTS.production[0],
          headers: bearer(live.secret),
          body: {},
        }),
        403,
        "forbidden",
      );
      expectEnvelope(
        await api.call({ method: "POST", path: "/api/v1/partners/production-request", body: {} }),
        401,
        "unauthorized",
      );
    });
  });

  describe("rotation (POST /v1/sandbox/keys with X-Service-Rotate: 1)", () => {
    it("needs the key's contact email, verified; refuses other emails and an unverified contact", async () => {
      const unverified = await signUp("rot-unverified@example.com");
      expectEnvelope(
        await rotate(unverified.apiKey, { email: "rot-unverified@example.com" }),
        403,
        "email_not_verified",
      );
      const partner = await verifiedPartner("rot-owner@example.com");
      expectEnvelope(await rotate(partner.apiKey, { email: "attacker@example.com" }), 403, "email_mismatch");
      // Another partner's verified contact is not this key's.
      expectEnvelope(
        await rotate(unverified.apiKey, { email: "rot-owner@example.com" }),
        403,
        "email_mismatch",
      );
      expectEnvelope(
        await rotate(partner.apiKey, { email: "rot-owner@example.com", organization: "X" }),
        400,
        "invalid_request",
      );
      const noKey = await api.call({
        method: "POST",
        path: "/api/v1/sandbox/keys",
        host: SANDBOX,
        headers: { "x-service-rotate": "1" },
        body: { email: "rot-owner@example.com" },
      });
      expectEnvelope(noKey, 401, "unauthorized");
      // Nothing changed: the key still works.
      expect((await introspect(partner.apiKey)).status).to.equal(200);
    });

    it("issues a new key of the same partner; the old one answers 401 key_revoked; webhooks and ledger follow", async () => {
      const partner = await verifiedPartner("Rotate.Me@Example.com");
      const webhook = await api.call({
        method: "POST",
        path: "/api/v1/webhooks",
        headers: bearer(partner.apiKey),
        body: { url: "http://127.0.0.1:9/hooks" },
      });
      expect(webhook.status, webhook.text).to.equal(201);
      const reservation = await prepare(api.db.pool, {
        environment: "sandbox",
        partnerId: partner.partnerId,
        preparedAt: new Date(),
      });

      const rotated = await rotate(partner.apiKey, { email: "rotate.me@example.com", label: "rotated" });
      expect(rotated.status, rotated.text).to.equal(201);
      const next = rotated.body as Created;
      expect(next.partnerId).to.equal(partner.partnerId);
      expect(next.revokedKeyId).to.equal(partner.keyId);
      expect(next.apiKey)
        .to.match(/^svc_sbx_/)
        .and.not.equal(partner.apiKey);
      expect(next.signingSecret).to.not.equal(partner.signingSecret);

      expectEnvelope(await introspect(partner.apiKey), 401, "key_revoked");
      expectEnvelope(await rotate(partner.apiKey, { email: "rotate.me@example.com" }), 401, "key_revoked");
      const introspection = await introspect(next.apiKey);
      expect(introspection.body).to.include({
        partnerId: partner.partnerId,
        emailVerified: true,
        label: "rotated",
      });

      const hooks = await api.call({ path: "/api/v1/webhooks", headers: bearer(next.apiKey) });
      expect(hooks.status, hooks.text).to.equal(200);
      expect(JSON.stringify(hooks.body)).to.contain((webhook.body as { id: string }).id);
      const status = await api.call({
        path: `/api/v1/reservations/status?reservationId=${reservation.reservationId}`,
        headers: bearer(next.apiKey),
      });
      expect(status.status, status.text).to.equal(200);
      const ledger = await api.db.pool.query(
        "SELECT partner_id FROM partner_ledger_entries WHERE reservation_id = $1",
        [reservation.reservationId],
      );
      expect(ledger.rows[0].partner_id).to.equal(next.partnerId);

      const audit = await api.db.pool.query(
        "SELECT actor, details FROM audit_log WHERE action = 'api_key.rotate' AND subject = $1",
        [partner.keyId],
      );
      expect(audit.rows[0].details).to.include({ newKeyId: next.keyId });
      const notice = emlMessages(api.mailDir).find((text) => text.includes(next.keyId));
      expect(notice?.toLowerCase(), "the rotation notice goes to the verified contact").to.contain(
        "to: rotate.me@example.com",
      );
    });

    it("refuses to rotate a production key (403 rotation_not_allowed) and leaves it working", async () => {
      const live = await issueKey(api, "production");
      // The sandbox host refuses the key itself; the canonical host admits it and refuses the rotation.
      expectEnvelope(
        await rotate(live.secret, { email: "ops@live.example" }, SANDBOX),
        403,
        "wrong_environment",
      );
      expectEnvelope(
        await rotate(live.secret, { email: "ops@live.example" }, TEST_HOSTS.base[0]),
        403,
        "rotation_not_allowed",
      );
      const keys = await api.db.pool.query("SELECT revoked_at FROM api_keys WHERE key_id = $1", [live.keyId]);
      expect(keys.rows[0].revoked_at).to.equal(null);
    });
  });

  describe("GET /v1/sandbox/logs and /v1/sandbox/usage", () => {
    const logsOf = (key: string) =>
      api.call({ path: "/api/v1/sandbox/logs?limit=1000", headers: bearer(key) });
    const until = async (condition: () => Promise<boolean>, what: string) => {
      for (let attempt = 0; attempt < 200; attempt += 1) {
        if (await condition()) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`gave up waiting for ${what}`);
    };
    const requestIds = (response: HttpResponse) =>
      (response.body as { requests: { requestId: string }[] }).requests.map((line) => line.requestId);

    it("lists the calling key's requests (id, status, latency) and never a key, a query string or a body", async () => {
      const alice = await signUp("alice@logs.example", "Alice");
      const bob = await signUp("bob@logs.example", "Bob");
      const seen = await introspect(alice.apiKey);
      const requestId = seen.headers["x-request-id"] as string;
      expect(requestId).to.match(/^req_[0-9a-f]{16}$/);
      // A key pasted into a query string or a body must not land in the log.
      const leaky = await api.call({
        path: `/api/v1/sandbox/logs?limit=5&key=${alice.apiKey}`,
        headers: bearer(alice.apiKey),
      });
      expectEnvelope(leaky, 400, "invalid_request");
      await api.call({
        method: "POST",
        path: "/api/v1/webhooks",
        headers: bearer(alice.apiKey),
        body: { url: `http://127.0.0.1:9/${alice.apiKey}` },
      });
      await api.call({ path: "/api/v1/webhooks", headers: bearer(bob.apiKey) });

      await until(async () => requestIds(await logsOf(alice.apiKey)).length >= 4, "alice's log lines");
      const logs = await logsOf(alice.apiKey);
      expect(logs.status, logs.text).to.equal(200);
      const lines = (logs.body as { requests: Record<string, unknown>[] }).requests;
      const line = lines.find((entry) => entry.requestId === requestId);
      expect(line).to.include({ method: "GET", path: "/api/v1/sandbox/keys", status: 200 });
      expect(line?.latencyMs).to.be.a("number");
      expect(lines.find((entry) => entry.status === 400)).to.include({ path: "/api/v1/sandbox/logs" });
      expect(logs.text).to.not.contain(alice.apiKey);
      expect(logs.text).to.not.contain(alice.apiKey.slice(8));
      for (const table of ["api_request_log", "api_usage_daily"]) {
        const { rows } = await api.db.pool.query(`SELECT * FROM ${table}`);
        expect(JSON.stringify(rows), table).to.not.contain(alice.apiKey.slice(8));
      }
      // Bob's log holds only Bob's requests.
      await until(async () => requestIds(await logsOf(bob.apiKey)).length >= 1, "bob's log line");
      const bobs = (await logsOf(bob.apiKey)).body as { keyId: string; requests: { requestId: string }[] };
      expect(bobs.keyId).to.equal(bob.keyId);
      expect(bobs.requests.map((entry) => entry.requestId)).to.not.include(requestId);
      const aliceIds = new Set(requestIds(logs));
      expect(bobs.requests.some((entry) => aliceIds.has(entry.requestId))).to.equal(false);
    });

    it("counts the key's requests per day and route, 429s included, and nobody else's", async () => {
      const carol = await signUp("carol@usage.example", "Carol");
      const dave = await signUp("dave@usage.example", "Dave");
      // 60 per minute: a past minute is pinned, so the 61st and 62nd calls are 429s and the real minute
      // stays free for the reads below.
      const pinned = Date.now() - 2 * 60_000;
      api.clock.set(pinned);
      const statuses: number[] = [];
      for (let call = 0; call < 62; call += 1) statuses.push((await introspect(carol.apiKey)).status);
      expect(statuses.filter((status) => status === 429)).to.have.length(2);
      api.clock.unpin();
      await api.call({ path: "/api/v1/webhooks", headers: bearer(dave.apiKey) });
      const usageOf = async (key: string) =>
        (await api.call({ path: "/api/v1/sandbox/usage", headers: bearer(key) })).body as {
          totals: { requests: number; rateLimited: number };
          usage: { day: string; route: string; requests: number; rateLimited: number }[];
        };
      await until(async () => (await usageOf(carol.apiKey)).totals.requests >= 62, "carol's counts");
      const usage = await usageOf(carol.apiKey);
      const introspections = usage.usage.find((row) => row.route === "GET /v1/sandbox/keys");
      expect(introspections).to.include({ requests: 62, rateLimited: 2 });
      expect(introspections?.day).to.equal(new Date(pinned).toISOString().slice(0, 10));
      expect(usage.usage.map((row) => row.route)).to.not.include("GET /v1/webhooks");
      await until(async () => (await usageOf(dave.apiKey)).totals.requests >= 1, "dave's counts");
      const daves = await usageOf(dave.apiKey);
      expect(daves.usage.map((row) => row.route)).to.not.include("GET /v1/sandbox/keys");
    });

    it("logs the direct validate route too, refusals included", async () => {
      const erin = await signUp("erin@validate.example", "Erin");
      const refused = await api.call({
        method: "POST",
        path: "/api/v1/launches/validate",
        headers: bearer(erin.apiKey),
        body: { name: "x" },
      });
      expect(refused.status).to.equal(400);
      const requestId = refused.headers["x-request-id"];
      await until(
        async () => requestIds(await logsOf(erin.apiKey)).includes(requestId as string),
        "the validate line",
      );
      const lines = (await logsOf(erin.apiKey)).body as { requests: Record<string, unknown>[] };
      expect(lines.requests.find((line) => line.requestId === requestId)).to.include({
        method: "POST",
        path: "/api/v1/launches/validate",
        status: 400,
      });
    });
  });
});
