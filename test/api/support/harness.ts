// A running API on a fresh migrated schema, with a settable clock, test hosts and a client that checks every
// /api response against the service's own OpenAPI document.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { type ApiDependencies, createApp, type RouteModule } from "../../../api/app";
import { RESPONSE_VERSION } from "../../../api/platform/responseVersion";
import { listen, type RunningServer } from "../../../api/server";
import type { Environment } from "../../../core/environment";
import { createMailer } from "../../../services/mail";
import { createApiKey } from "../../../services/partners/apiKeyStore";
import { PARTNER_SCOPES, type PartnerScope } from "../../../services/partners/scopes";
import { recordSecret, recordSecretsIn, suiteLog } from "../../support/suiteLogs";
import { createTestDatabase, type TestDatabase } from "../../support/testDatabase";
import { Conformance } from "./conformance";
import { type HttpRequest, type HttpResponse, send } from "./http";

export const TEST_HOSTS = {
  base: ["canonical.test"],
  sandbox: ["sandbox.test"],
  production: ["api.test"],
} as const;

/** Test clock: real time unless a test pins it. */
export class SettableClock {
  private pinned: number | undefined;
  now = (): number => this.pinned ?? Date.now();
  set(ms: number): void {
    this.pinned = ms;
  }
  /** Back to real time. */
  unpin(): void {
    this.pinned = undefined;
  }
}

export interface TestApi {
  url: string;
  db: TestDatabase;
  clock: SettableClock;
  masterKey: Buffer;
  /** Where partner mail is written as .eml files (the embedded default's transport). */
  mailDir: string;
  /** Sends a request; responses under /api are checked against the OpenAPI document. */
  call(request: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

export interface TestApiOptions {
  extraRoutes?: readonly RouteModule[];
  deps?: Partial<ApiDependencies>;
  db?: TestDatabase;
}

export async function startTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const db = options.db ?? (await createTestDatabase());
  const clock = new SettableClock();
  const masterKey = randomBytes(32);
  recordSecret(masterKey.toString("base64"));
  recordSecret(masterKey.toString("hex"));
  const mailDir = mkdtempSync(join(tmpdir(), "svc-test-mail-"));
  const mailer = createMailer(
    { smtpUrl: undefined, directory: mailDir, from: "Test <test@localhost>" },
    () => undefined,
  );
  const server: RunningServer = await listen(
    createApp(
      {
        pool: db.pool,
        startedAt: new Date(),
        // Every line of the run is checked for the run's secrets after the last test (support/suiteLogs.ts).
        log: suiteLog,
        hosts: TEST_HOSTS,
        masterKey,
        now: clock.now,
        keylessRateLimitPerMinute: 0,
        publicWriteRateLimitPerMinute: 0,
        // Chains come from the test's checkpoints, not from a deployment manifest on this machine.
        decisions: { chains: [] },
        mail: { mailer, publicUrl: "http://canonical.test" },
        ...options.deps,
      },
      options.extraRoutes,
    ),
    "127.0.0.1",
    0,
  );
  const documentResponse = await send(server.url, { path: "/api/v1/openapi" });
  const conformance = new Conformance(documentResponse.body as ConstructorParameters<typeof Conformance>[0]);
  return {
    url: server.url,
    db,
    clock,
    masterKey,
    mailDir,
    async call(request) {
      const response = await send(server.url, request);
      recordSecretsIn(response.body);
      if (request.path.startsWith("/api/") && response.status !== 404) {
        conformance.check(
          request.method ?? "GET",
          request.path.slice("/api".length),
          response.status,
          response.body,
        );
      }
      return response;
    },
    async close() {
      await server.close();
      rmSync(mailDir, { recursive: true, force: true });
      if (options.db === undefined) await db.close();
    },
  };
}

export async function issueKey(
  api: TestApi,
  environment: Environment,
  options: { scopes?: readonly PartnerScope[]; rateLimitPerMinute?: number; partnerId?: string } = {},
): Promise<{ secret: string; keyId: string; partnerId: string }> {
  const { record, issued } = await createApiKey(api.db.pool, {
    environment,
    scopes: options.scopes ?? PARTNER_SCOPES,
    rateLimitPerMinute: options.rateLimitPerMinute ?? 300,
    label: "test",
    createdBy: "test",
    ...(options.partnerId ? { partnerId: options.partnerId } : {}),
  });
  recordSecret(issued.secret);
  return { secret: issued.secret, keyId: record.keyId, partnerId: record.partnerId };
}

export function bearer(secret: string): Record<string, string> {
  return { authorization: `Bearer ${secret}` };
}

export function expectEnvelope(response: HttpResponse, status: number, code: string): void {
  expect(response.status, response.text).to.equal(status);
  expect(response.body).to.have.nested.property("error.code", code);
  expect(response.body).to.have.nested.property("error.message").that.is.a("string").and.not.empty;
  expect(response.body).to.have.nested.property("error.details");
  expect(response.body).to.have.property("responseVersion", RESPONSE_VERSION);
}
