// CORS over real HTTP: public reads open to any page, the embed pair only to a launchpad's registered origins,
// keyed routes to none; refused preflights are 4xx with the envelope.
import { expect } from "chai";
import { parseConfig } from "../../../config";
import type { OperatorContext } from "../../../scripts/operator/command";
import { commands } from "../../../scripts/operator/commands/embed";
import { allowEmbedLaunchpad, disableEmbedLaunchpad } from "../../../services/reservations/embedLaunchpads";
import { CHAINS, setCheckpoints } from "../routes/identity/support";
import { bearer, expectEnvelope, issueKey, startTestApi, type TestApi } from "../support/harness";
import { type HttpResponse, send } from "../support/http";

const PAGE = "https://any-page.example";
const LAUNCHPAD_PAGE = "https://app.moonpad.example";
const BY = { actor: "test", reason: "cors test" };
const SETTLE = "/api/v1/embed/reservations/settle";
const SETTLE_BODY = {
  reservationId: `res_${"0".repeat(32)}`,
  transactionHash: `0x${"cd".repeat(32)}`,
};

/** The public reads the spec lists, as (method, path) pairs of the OpenAPI document. */
const PUBLIC_READS = [
  ["get", "/v1/identity/check"],
  ["post", "/v1/identity/check"],
  ["get", "/v1/identity/status"],
  ["get", "/v1/protected-identities"],
  ["get", "/v1/reservations"],
  ["get", "/v1/keys"],
  ["get", "/.well-known/service-signing-keys.json"],
  ["post", "/v1/decisions/verify"],
  ["get", "/v1/chains"],
  ["get", "/v1/health"],
  ["get", "/v1/solana/quote"],
  ["get", "/v1/solana/reserve-context"],
  ["get", "/v1/solana/blockhash"],
  ["get", "/v1/solana/tx-status"],
  ["get", "/v1/openapi"],
] as const;

function expectNoCors(response: HttpResponse): void {
  expect(response.headers["access-control-allow-origin"], "no ACAO").to.equal(undefined);
  expect(response.headers["access-control-allow-credentials"]).to.equal(undefined);
}

describe("api: CORS", () => {
  let api: TestApi;
  const preflight = (path: string, method: string, origin?: string, headers: Record<string, string> = {}) =>
    send(api.url, {
      method: "OPTIONS",
      path,
      headers: {
        ...(origin ? { origin } : {}),
        "access-control-request-method": method,
        ...headers,
      },
    });

  before(async () => {
    api = await startTestApi({ deps: { decisions: { chains: CHAINS } } });
    await setCheckpoints(api.db.pool);
  });
  after(async () => api.close());

  describe("public reads: any origin, no credentials", () => {
    it("every public read of the spec is declared any-origin in the OpenAPI document", async () => {
      const document = (await api.call({ path: "/api/v1/openapi" })).body as {
        paths: Record<string, Record<string, { "x-cors": string }>>;
      };
      for (const [method, path] of PUBLIC_READS) {
        const template = Object.keys(document.paths).find((candidate) =>
          new RegExp(`^${candidate.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path),
        );
        expect(document.paths[template as string]?.[method]?.["x-cors"], `${method} ${path}`).to.equal(
          "any-origin",
        );
      }
      expect(document.paths["/v1/launches/validate"]?.post?.["x-cors"]).to.equal("none");
      expect(document.paths["/v1/embed/reservations/prepare"]?.post?.["x-cors"]).to.equal("embed-origins");
      expect(document.paths["/v1/sandbox/keys"]?.post?.["x-cors"], "a key never goes to a page").to.equal(
        "none",
      );
    });

    it("a preflight from an arbitrary origin is answered 204 with methods, headers and max-age", async () => {
      const response = await preflight("/api/v1/identity/check", "POST", PAGE, {
        "access-control-request-headers": "content-type",
      });
      expect(response.status, response.text).to.equal(204);
      expect(response.headers).to.include({
        "access-control-allow-origin": "*",
        "access-control-allow-methods": "GET, POST",
        "access-control-allow-headers": "Content-Type",
        "access-control-max-age": "7200",
      });
      expect(response.headers["access-control-allow-credentials"]).to.equal(undefined);
    });

    it("the actual request carries ACAO *, exposes the rate headers, and CORP is cross-origin", async () => {
      for (const path of ["/api/v1/keys", "/api/v1/identity/check?name=Cors&ticker=CORS", "/api/v1/health"]) {
        const response = await api.call({ path, headers: { origin: PAGE } });
        expect(response.status, `${path}: ${response.text}`).to.equal(200);
        expect(response.headers["access-control-allow-origin"], path).to.equal("*");
        expect(response.headers["cross-origin-resource-policy"], path).to.equal("cross-origin");
        expect(response.headers["x-frame-options"], path).to.equal("DENY");
      }
      const check = await api.call({
        method: "POST",
        path: "/api/v1/identity/check",
        headers: { origin: PAGE },
        body: { name: "Cors", ticker: "CORS" },
      });
      expect(check.status, check.text).to.equal(200);
      expect(check.headers["access-control-allow-origin"]).to.equal("*");
      expect(check.headers["access-control-expose-headers"])
        .to.contain("RateLimit-Remaining")
        .and.contain("Request-Id");
    });

    it("a page also reads the envelope of its bad input (the body rule answers with CORS too)", async () => {
      const response = await api.call({
        method: "POST",
        path: "/api/v1/identity/check",
        headers: { origin: PAGE, "content-type": "application/json" },
        body: "[[[",
      });
      expectEnvelope(response, 400, "invalid_request");
      expect(response.headers["access-control-allow-origin"]).to.equal("*");
    });
  });

  describe("partner endpoints: no CORS", () => {
    it("a keyed route sends no ACAO even to a request with an Origin, and keeps CORP same-origin", async () => {
      const key = await issueKey(api, "sandbox");
      const response = await api.call({
        path: "/api/v1/sandbox/keys",
        host: "canonical.test",
        headers: { ...bearer(key.secret), origin: PAGE },
      });
      expect(response.status, response.text).to.equal(200);
      expectNoCors(response);
      expect(response.headers["cross-origin-resource-policy"]).to.equal("same-origin");
    });

    it("a preflight for a keyed route (validate) is 403 with the envelope", async () => {
      const response = await preflight("/api/v1/launches/validate", "POST", PAGE, {
        "access-control-request-headers": "authorization, content-type",
      });
      expectEnvelope(response, 403, "cors_not_allowed");
      expect((response.body as { error: { message: string } }).error.message).to.contain("from your server");
      expectNoCors(response);
    });

    it("on a path with a public GET and a keyed POST, only the GET is open", async () => {
      const get = await preflight("/api/v1/reservations", "GET", PAGE, {
        "access-control-request-headers": "content-type",
      });
      expect(get.status, get.text).to.equal(204);
      expect(get.headers["access-control-allow-methods"]).to.equal("GET");
      expectEnvelope(await preflight("/api/v1/reservations", "POST", PAGE), 403, "cors_not_allowed");
    });
  });

  describe("bad preflights: 4xx with the envelope, never 500", () => {
    it("asks to send Authorization: refused, a key never belongs in a page", async () => {
      const response = await preflight("/api/v1/identity/check", "GET", PAGE, {
        "access-control-request-headers": "Authorization",
      });
      expectEnvelope(response, 403, "cors_not_allowed");
      expect((response.body as { error: { message: string } }).error.message).to.contain("authorization");
      expectNoCors(response);
    });

    it("a method the path does not serve, a missing Origin, an unknown path", async () => {
      expectEnvelope(await preflight("/api/v1/keys", "DELETE", PAGE), 403, "cors_not_allowed");
      expectEnvelope(await preflight("/api/v1/keys", "GET"), 400, "invalid_request");
      expectEnvelope(await preflight("/api/v1/nowhere", "GET", PAGE), 404, "not_found");
      const odd = await preflight("/api/v1/keys", "G\u00e9T", "null");
      expect(odd.status).to.be.within(400, 499);
    });

    it("a plain OPTIONS (no Access-Control-Request-Method) lists the methods", async () => {
      const response = await send(api.url, { method: "OPTIONS", path: "/api/v1/identity/check" });
      expect(response.status).to.equal(204);
      expect(response.headers.allow).to.equal("GET, POST, OPTIONS");
    });
  });

  describe("embed endpoints: only the allowlisted launchpad's registered origins", () => {
    const lines: string[] = [];
    const operator = (name: string, args: string[]) => {
      const context: OperatorContext = {
        pool: api.db.pool,
        config: parseConfig({}),
        masterKey: Buffer.alloc(32, 7),
        out: (line) => lines.push(line),
      };
      return commands.find((command) => command.name === name)?.run(args, context);
    };
    const who = ["--actor", "ops-alice", "--reason", "launchpad page"];

    before(async () => {
      const key = await issueKey(api, "production");
      await allowEmbedLaunchpad(api.db.pool, "moonpad", key.partnerId, BY);
      await operator("embed:origin-add", ["--launchpad", "moonpad", "--origin", LAUNCHPAD_PAGE, ...who]);
    });

    it("the operator command registers origins, validated as origins and audited", async () => {
      for (const bad of [
        "https://app.moonpad.example/",
        "https://App.moonpad.example",
        "http://app.moonpad.example",
        "app.moonpad.example",
        "https://app.moonpad.example/path",
        "null",
      ]) {
        let refused: Error | undefined;
        await operator("embed:origin-add", ["--launchpad", "moonpad", "--origin", bad, ...who])?.catch(
          (error: Error) => {
            refused = error;
          },
        );
        expect(refused?.name, bad).to.equal("UsageError");
        expect(refused?.message, bad).to.contain("scheme://host[:port]");
      }
      let unknown: Error | undefined;
      await operator("embed:origin-add", ["--launchpad", "nopad", "--origin", PAGE, ...who])?.catch(
        (error: Error) => {
          unknown = error;
        },
      );
      expect(unknown?.message).to.contain("not allowlisted");
      await operator("embed:origin-add", [
        "--launchpad",
        "moonpad",
        "--origin",
        "http://localhost:5173",
        ...who,
      ]);
      const { rows } = await api.db.pool.query(
        "SELECT actor, reason, details FROM audit_log WHERE action = 'embed.origin_add' ORDER BY id",
      );
      expect(rows.map((row) => row.details.origin)).to.deep.equal([LAUNCHPAD_PAGE, "http://localhost:5173"]);
      expect(rows[0]).to.include({ actor: "ops-alice", reason: "launchpad page" });
      lines.length = 0;
      await operator("embed:list", []);
      expect(lines.join("\n")).to.contain(`http://localhost:5173,${LAUNCHPAD_PAGE}`);
      await operator("embed:origin-remove", [
        "--launchpad",
        "moonpad",
        "--origin",
        "http://localhost:5173",
        ...who,
      ]);
    });

    it("a registered origin: preflight 204 echoing the origin (Vary: Origin), the request answered with ACAO", async () => {
      const allowed = await preflight(SETTLE, "POST", LAUNCHPAD_PAGE, {
        "access-control-request-headers": "content-type",
      });
      expect(allowed.status, allowed.text).to.equal(204);
      expect(allowed.headers).to.include({
        "access-control-allow-origin": LAUNCHPAD_PAGE,
        "access-control-allow-methods": "POST",
        "access-control-max-age": "600",
      });
      expect(allowed.headers.vary).to.match(/origin/i);
      const settle = await api.call({
        method: "POST",
        path: SETTLE,
        headers: { origin: LAUNCHPAD_PAGE },
        body: SETTLE_BODY,
      });
      expectEnvelope(settle, 404, "reservation_not_found");
      expect(settle.headers["access-control-allow-origin"]).to.equal(LAUNCHPAD_PAGE);
    });

    it("another origin: preflight 403 and the request refused before it runs, both without ACAO", async () => {
      const refused = await preflight(SETTLE, "POST", PAGE, {
        "access-control-request-headers": "content-type",
      });
      expectEnvelope(refused, 403, "origin_not_allowed");
      expectNoCors(refused);
      const prepare = await api.call({
        method: "POST",
        path: "/api/v1/embed/reservations/prepare",
        headers: { origin: PAGE },
        body: { launchpad: "moonpad" },
      });
      expectEnvelope(prepare, 403, "origin_not_allowed");
      expectNoCors(prepare);
    });

    it("a server (no Origin) is served as before; a disabled launchpad's origins lose CORS at once", async () => {
      expectEnvelope(
        await api.call({ method: "POST", path: SETTLE, body: SETTLE_BODY }),
        404,
        "reservation_not_found",
      );
      await disableEmbedLaunchpad(api.db.pool, "moonpad", BY);
      try {
        expectEnvelope(await preflight(SETTLE, "POST", LAUNCHPAD_PAGE), 403, "origin_not_allowed");
      } finally {
        await allowEmbedLaunchpad(api.db.pool, "moonpad", (await issueKey(api, "production")).partnerId, BY);
      }
    });
  });
});
