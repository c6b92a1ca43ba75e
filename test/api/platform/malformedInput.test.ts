// Thousands of generated bad requests against every route in the OpenAPI document: wrong types, missing
// fields, huge and deeply nested bodies, invalid JSON, unicode edge cases, repeated query parameters, bad keys.
// The service must never answer 5xx to bad input, and every error must be the envelope.
import { connect } from "node:net";
import { PublicKey } from "@solana/web3.js";
import { expect } from "chai";
import fc from "fast-check";
import { BODY_LIMIT_BYTES } from "../../../api/app";
import { RESPONSE_VERSION } from "../../../api/platform/responseVersion";
import { registryCatalogue } from "../../../chains/catalogue";
import { type SolanaRpc, startSolanaRpc } from "../../../scripts/localnet/solana/server";
import { bearer, issueKey, startTestApi, type TestApi } from "../support/harness";
import type { HttpRequest, HttpResponse } from "../support/http";
import { insertCheckpoint } from "../support/readModelRows";

interface Operation {
  method: string;
  path: string;
  query: string[];
  bodyFields: string[];
  hasBody: boolean;
}

interface OpenApi {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string }[];
        requestBody?: {
          content: { "application/json": { schema: { properties?: Record<string, unknown> } } };
        };
      }
    >
  >;
}

const REQUESTS_PER_OPERATION_MIN = 2000;
const SEED = 20261122;

const unicodeEdges = [
  "\u0000",
  "\ud800",
  "\udfff",
  "\u200b\u200d\ufeff",
  "\u202e",
  "ＭＯＯＮ",
  "🦊🦊🦊",
  "e\u0301",
  "\uffff",
  "𝕄𝕠𝕠𝕟",
  "%00",
  "%ZZ",
  "%E2%80",
];

const wrongValues: unknown[] = [
  null,
  true,
  0,
  -1,
  Number.MAX_VALUE,
  Number.MAX_SAFE_INTEGER + 2,
  "",
  " ",
  [],
  ["a"],
  {},
  { $ne: 1 },
  "x".repeat(5000),
  ...unicodeEdges,
];

function deeplyNested(depth: number, kind: "array" | "object"): string {
  return kind === "array"
    ? `${"[".repeat(depth)}${"]".repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

const invalidJson = [
  "{",
  "[1,",
  '{"a":}',
  "{'a':1}",
  "nul",
  '{"a":1}x',
  "\u0000",
  '{"a":"\\u12"}',
  "NaN",
  "{}{}",
];

function operationsOf(document: OpenApi): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      query: (operation.parameters ?? [])
        .filter((parameter) => parameter.in === "query")
        .map((parameter) => parameter.name),
      bodyFields: Object.keys(operation.requestBody?.content["application/json"].schema.properties ?? {}),
      hasBody: operation.requestBody !== undefined,
    })),
  );
}

/** Percent-encodes every UTF-8 byte (lone surrogates become U+FFFD, as any client would send them). */
function percentEncoded(text: string): string {
  return [...Buffer.from(text, "utf8")].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");
}

function concretePath(template: string, fill: string): string {
  // An empty path parameter would make a path of no operation (`/v1/webhooks//`), not a bad request to one.
  const filled = template.replace(/\{[^}]+\}/g, percentEncoded(fill) || "_");
  return filled.startsWith("/.well-known") ? filled : `/api${filled}`;
}

/** One bad request for an operation, from generated choices. */
function badRequest(
  operation: Operation,
  choice: number,
  value: unknown,
  text: string,
  auth: Record<string, string>,
): HttpRequest {
  const path = concretePath(operation.path, text);
  const field = operation.bodyFields[choice % Math.max(1, operation.bodyFields.length)] ?? "name";
  const param = operation.query[choice % Math.max(1, operation.query.length)] ?? "q";
  const base = { method: operation.method, headers: auth };
  switch (choice % 12) {
    case 0:
      return { ...base, path, body: { [field]: value } };
    case 1:
      return { ...base, path, body: Object.fromEntries(operation.bodyFields.map((name) => [name, value])) };
    case 2:
      return { ...base, path, body: invalidJson[choice % invalidJson.length] as string };
    case 3:
      return {
        ...base,
        path,
        body: deeplyNested(2000 + (choice % 3000), choice % 2 === 0 ? "array" : "object"),
      };
    case 4:
      return { ...base, path, body: JSON.stringify({ [field]: "y".repeat(BODY_LIMIT_BYTES + 10) }) };
    case 5:
      return {
        ...base,
        path: `${path}?${param}=${percentEncoded(text)}&${param}=${percentEncoded(text)}`,
      };
    case 6:
      return { ...base, path: `${path}?${param}=${percentEncoded(String(value))}` };
    case 7:
      return { ...base, path: `${path}?${param}=%ZZ%${text.length}&${percentEncoded(text)}=1` };
    case 8:
      return { ...base, path, headers: { ...auth, "content-type": "text/plain" }, body: `${field}=${text}` };
    case 9:
      return { ...base, path, headers: { "content-type": "application/json; charset=latin1" }, body: "{}" };
    case 10:
      return {
        ...base,
        path,
        headers: { authorization: `Bearer svc_live_${percentEncoded(text)}` },
        body: { [field]: text },
      };
    default:
      return { ...base, path, body: JSON.stringify(value === undefined ? null : value) };
  }
}

describe("api: malformed input never yields a 5xx, and every error is the envelope", () => {
  let api: TestApi;
  let auth: Record<string, string>;
  let solana: SolanaRpc;
  before(async () => {
    // A live Solana RPC behind the registries: routes whose inputs are all optional (GET /v1/solana/blockhash)
    // answer from it, as in production, instead of 503 for a missing dependency.
    solana = await startSolanaRpc({ port: 0 });
    const registries = registryCatalogue({
      evm: [],
      solana: [
        {
          chain: "solana",
          rpcUrl: solana.rpcUrl,
          wsUrl: solana.wsUrl,
          programId: PublicKey.unique().toBase58(),
          priceAccount: PublicKey.unique().toBase58(),
          configAccount: PublicKey.unique().toBase58(),
          deploySlot: 0,
        },
      ],
    });
    // A configured, freshly indexed chain, so well-formed parts of the bad requests reach the decision code.
    api = await startTestApi({
      deps: { registries, decisions: { chains: [{ chain: "hardhat", family: "evm" }] } },
    });
    await insertCheckpoint(api.db.pool, {
      chain: "hardhat",
      family: "evm",
      head: 10,
      indexed: 10,
      indexedAt: new Date(),
    });
    // 2,000 per minute is more than the keyed share of the generated requests: validation stays reachable.
    auth = bearer((await issueKey(api, "production", { rateLimitPerMinute: 2000 })).secret);
  });
  after(async () => {
    await api?.close();
    await solana?.stop();
  });

  it(`answers ${REQUESTS_PER_OPERATION_MIN}+ generated bad requests across all routes without a 5xx`, async () => {
    const document = (await api.call({ path: "/api/v1/openapi" })).body as OpenApi;
    const operations = operationsOf(document);
    expect(operations.length).to.be.greaterThan(10);
    const perOperation = Math.ceil(REQUESTS_PER_OPERATION_MIN / operations.length);
    const samples = fc.sample(
      fc.tuple(
        fc.nat(),
        fc.constantFrom(...wrongValues),
        fc.oneof(fc.string(), fc.constantFrom(...unicodeEdges), fc.string({ unit: "binary" })),
      ),
      { numRuns: perOperation, seed: SEED },
    );
    const requests = operations.flatMap((operation) =>
      samples.map(([choice, value, text]) =>
        badRequest(operation, choice, value, text, choice % 3 === 0 ? {} : auth),
      ),
    );
    expect(requests.length).to.be.at.least(REQUESTS_PER_OPERATION_MIN);

    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const batch = 16;
    for (let start = 0; start < requests.length; start += batch) {
      const chunk = requests.slice(start, start + batch);
      const responses = await Promise.all(chunk.map((request) => api.call(request)));
      responses.forEach((response: HttpResponse, index) => {
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const request = chunk[index] as HttpRequest;
        const where = `${request.method} ${request.path.slice(0, 120)} -> ${response.status} ${response.text.slice(0, 200)}`;
        if (response.status >= 500) failures.push(where);
        else if (response.status >= 400) {
          const body = response.body as {
            error?: { code?: unknown; message?: unknown };
            responseVersion?: unknown;
          };
          if (
            typeof body?.error?.code !== "string" ||
            typeof body.error.message !== "string" ||
            body.responseVersion !== RESPONSE_VERSION
          ) {
            failures.push(`not an envelope: ${where}`);
          }
        }
      });
    }
    expect(failures, failures.slice(0, 10).join("\n")).to.deep.equal([]);
    expect(statuses.get(400) ?? 0, "most bad requests are 400 invalid_request").to.be.greaterThan(
      requests.length / 4,
    );
  });
});

describe("api: requests the HTTP parser rejects", () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi();
  });
  after(async () => api.close());

  function rawExchange(text: string): Promise<string> {
    const url = new URL(api.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write(text));
      let received = "";
      socket.on("data", (chunk) => {
        received += chunk;
      });
      socket.on("close", () => resolve(received));
      socket.on("error", reject);
    });
  }

  it("answers bad framing and oversized headers with a 400 envelope, not Node's bare 400", async () => {
    for (const request of [
      "GET /api/v1/health HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
      `GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
    ]) {
      const response = await rawExchange(request);
      expect(response.startsWith("HTTP/1.1 400 Bad Request\r\n"), response.slice(0, 80)).to.equal(true);
      const body = JSON.parse(response.slice(response.indexOf("\r\n\r\n") + 4)) as {
        error: { code: string };
      };
      expect(body.error.code).to.equal("invalid_request");
    }
  });
});
