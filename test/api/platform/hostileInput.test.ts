// Property: hostile text (NUL, lone surrogates, control characters, very long strings) and 10,000-level
// nesting, thrown into every declared path parameter, query parameter, header and body field of every route
// in the service's own OpenAPI document (and into an unknown field and key), with and without a key of the
// route's scope, never gets a 5xx; every non-2xx answer is the error envelope. The rest of each request is
// valid, so the hostile value travels as far into the route as the route lets it. Routes come from the
// document, so a new route is covered without touching this test.
import { AnchorProvider, Wallet } from "@coral-xyz/anchor";
import { Connection, Keypair, LAMPORTS_PER_SOL } from "@solana/web3.js";
import { expect } from "chai";
import fc from "fast-check";
import { BODY_LIMIT_BYTES } from "../../../api/app";
import { RESPONSE_VERSION } from "../../../api/platform/responseVersion";
import { registryCatalogue } from "../../../chains/catalogue";
import { devWallet } from "../../../scripts/localnet";
import { base58Encode } from "../../../scripts/localnet/solana/base58";
import { type SolanaRpc, startSolanaRpc } from "../../../scripts/localnet/solana/server";
import { deployIdentityRegistry } from "../../../scripts/solana/deploy";
import { PARTNER_SCOPES, type PartnerScope } from "../../../services/partners/scopes";
import { allowEmbedLaunchpad } from "../../../services/reservations/embedLaunchpads";
import { CHAINS, EVM_OTHER, setCheckpoints } from "../routes/identity/support";
import { issueKey, startTestApi, type TestApi } from "../support/harness";
import type { HttpResponse } from "../support/http";
import { type RawRequest, sendRaw } from "../support/rawHttp";

const SEED = 15_2026;
const NESTING = 10_000;

interface JsonSchema {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  minLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  schema: JsonSchema;
}

interface OpenApi {
  paths: Record<
    string,
    Record<
      string,
      {
        security: Record<string, string[]>[];
        parameters: Parameter[];
        requestBody?: { content: { "application/json": { schema: JsonSchema } } };
      }
    >
  >;
}

interface Operation {
  method: string;
  template: string;
  /** Scopes of a key that may call it; undefined for public routes. */
  scopes: readonly PartnerScope[] | undefined;
  parameters: Parameter[];
  body: JsonSchema | undefined;
}

/** Where a hostile value goes: a declared parameter or body field, or an unknown body field, key or nesting. */
type Target =
  | { in: "path" | "query" | "header" | "body"; name: string }
  | { in: "unknown-field" | "unknown-key" | "unknown-query" | "deep-nesting" };

type Family = "evm" | "solana";

/** A wallet on the curve (a wallet that can sign), fixed so runs repeat. */
const SOL_WALLET = Keypair.fromSeed(new Uint8Array(32).fill(15)).publicKey.toBase58();

const CHAIN_EXAMPLES: Record<Family, Record<string, string>> = {
  evm: { chain: "hardhat", launcher: EVM_OTHER, tokenOrMint: EVM_OTHER, intendedContract: EVM_OTHER },
  solana: { chain: "solana", launcher: SOL_WALLET, tokenOrMint: SOL_WALLET, intendedContract: SOL_WALLET },
};

/** An allowlisted embed launchpad, so embedded prepares get past the allowlist. */
const LAUNCHPAD = "hostile-pad";

/** Valid values by field name, so the rest of a request passes validation; other fields get schema defaults. */
const EXAMPLES: Record<string, unknown> = {
  name: "Hostile Moon",
  ticker: "HMOON",
  launchpad: LAUNCHPAD,
  durationSeconds: 86400,
  wasReserved: false,
  organization: "Hostile Input Ltd",
  email: "ops@hostile.test",
  label: "resilience",
  nonce: "hostile-nonce",
  reservationId: `res_${"0".repeat(32)}`,
  transactionHash: `0x${"ab".repeat(32)}`,
  signature: base58Encode(new Uint8Array(64).fill(7)),
  wallet: "abc123",
  key: "HOSTILEMOON::HMOON",
  q: "moon",
  status: "active",
  limit: 5,
  environment: "production",
};

function exampleOf(name: string, schema: JsonSchema, family: Family): unknown {
  const example = CHAIN_EXAMPLES[family][name] ?? EXAMPLES[name];
  if (example !== undefined) return example;
  if (schema.enum !== undefined) return schema.enum[0];
  if (schema.type === "integer" || schema.type === "number") return Math.max(1, schema.minimum ?? 1);
  if (schema.type === "boolean") return false;
  if (schema.type === "array") return [];
  if (schema.type === "object") return {};
  return "x".repeat(Math.max(1, schema.minLength ?? 1));
}

function operationsOf(document: OpenApi): Operation[] {
  return Object.entries(document.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const keyed = operation.security.find((requirement) => "apiKey" in requirement)?.apiKey;
      return {
        method: method.toUpperCase(),
        template,
        scopes:
          keyed === undefined ? undefined : keyed.length > 0 ? (keyed as PartnerScope[]) : PARTNER_SCOPES,
        parameters: operation.parameters,
        body: operation.requestBody?.content["application/json"].schema,
      };
    }),
  );
}

function targetsOf(operation: Operation): Target[] {
  return [
    ...operation.parameters.map((parameter) => ({ in: parameter.in, name: parameter.name })),
    ...Object.keys(operation.body?.properties ?? {}).map((name) => ({ in: "body" as const, name })),
    ...(operation.body === undefined
      ? [{ in: "unknown-query" as const }]
      : [{ in: "unknown-field" as const }, { in: "unknown-key" as const }, { in: "deep-nesting" as const }]),
  ];
}

/** Lone surrogates as the three bytes UTF-8 would give them (WTF-8): what a careless encoder sends raw. */
function wtf8(text: string): Buffer {
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    const next = text.charCodeAt(index + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      bytes.push(...Buffer.from(text.slice(index, index + 2), "utf8"));
      index += 1;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      bytes.push(0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f));
    } else {
      bytes.push(...Buffer.from(text[index] as string, "utf8"));
    }
  }
  return Buffer.from(bytes);
}

function percentEncoded(text: string): string {
  return [...wtf8(text)].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");
}

/** A JSON string literal with the text's characters written raw (NUL and surrogates unescaped). */
function rawJsonString(text: string): Buffer {
  return Buffer.concat([Buffer.from('"'), wtf8(text.replace(/[\\"]/g, (c) => `\\${c}`)), Buffer.from('"')]);
}

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));
const controlCharacter = fc
  .integer({ min: 0, max: 0x9f })
  .filter((code) => code < 0x20 || code >= 0x7f)
  .map((code) => String.fromCharCode(code));
const hostileCore = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom("\u0000", "\ud800", "\udfff", "\udc00\ud800", "a\u0000b", "\ud83d"),
  },
  { weight: 2, arbitrary: loneSurrogate },
  { weight: 1, arbitrary: controlCharacter },
);
/** Hostile text: a hostile core among ordinary characters, sometimes very long (up to most of the body limit). */
const hostileText = fc
  .tuple(
    fc.string({ maxLength: 6 }),
    hostileCore,
    fc.string({ maxLength: 6 }),
    fc.oneof(
      { weight: 4, arbitrary: fc.constant(0) },
      fc.integer({ min: 1000, max: BODY_LIMIT_BYTES - 4096 }),
    ),
  )
  .map(([before, core, after, padding]) => `${"p".repeat(padding)}${before}${core}${after}`);

interface Sample {
  text: string;
  /** Written raw (NUL bytes, lone surrogates as WTF-8) instead of escaped or percent-encoded. */
  raw: boolean;
  family: Family;
}

const sample = fc.record({
  text: hostileText,
  raw: fc.integer({ min: 0, max: 3 }).map((draw) => draw === 0),
  family: fc.constantFrom("evm" as const, "solana" as const),
});

function deeplyNested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

/** One request: valid everywhere except at `target`. */
function hostileRequest(
  operation: Operation,
  target: Target,
  { text, raw, family }: Sample,
  authorization: string | undefined,
): RawRequest {
  const targeted = (name: string) => "name" in target && target.name === name;
  const parameterText = (name: string, value: unknown) =>
    targeted(name)
      ? raw
        ? wtf8(text).toString("latin1") // raw bytes: Node's parser refuses control bytes outright
        : percentEncoded(text)
      : encodeURIComponent(String(value));
  const path = operation.template.replace(/\{([^}]+)\}/g, (_match, name: string) => parameterText(name, "x"));
  const query = operation.parameters
    .filter((parameter) => parameter.in === "query")
    .filter((parameter) => parameter.required || targeted(parameter.name))
    .map(
      (parameter) =>
        `${parameter.name}=${parameterText(parameter.name, exampleOf(parameter.name, parameter.schema, family))}`,
    );
  if (target.in === "unknown-query") query.push(`${percentEncoded(text)}=${percentEncoded(text)}`);
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  if (target.in === "header") headers[target.name] = wtf8(text).toString("latin1");
  if (target.in === "deep-nesting") headers["idempotency-key"] = `deep-${text.length}`;

  let body: Buffer | undefined;
  if (operation.body !== undefined) {
    const required = operation.body.required ?? [];
    const fields = Object.fromEntries(
      required
        .filter((name) => !targeted(name))
        .map((name) => [name, exampleOf(name, operation.body?.properties?.[name] ?? {}, family)]),
    );
    if (target.in === "deep-nesting" && operation.body.properties?.nonce)
      fields.nonce = `deep-${text.length}`;
    const json = (value: string) => (raw ? rawJsonString(value) : Buffer.from(JSON.stringify(value)));
    /** The valid fields plus one member written as given. */
    const withMember = (key: Buffer, value: Buffer) => {
      const valid = JSON.stringify(fields).slice(0, -1);
      return Buffer.concat([
        Buffer.from(valid === "{" ? "{" : `${valid},`),
        key,
        Buffer.from(":"),
        value,
        Buffer.from("}"),
      ]);
    };
    if (target.in === "body") body = withMember(Buffer.from(JSON.stringify(target.name)), json(text));
    else if (target.in === "unknown-field") body = withMember(Buffer.from('"extraField"'), json(text));
    else if (target.in === "unknown-key") body = withMember(json(text), Buffer.from("1"));
    else if (target.in === "deep-nesting")
      body = withMember(Buffer.from('"extraField"'), Buffer.from(deeplyNested(NESTING)));
    else body = Buffer.from(JSON.stringify(fields));
  }
  return {
    method: operation.method,
    path: `${path.startsWith("/.well-known") ? "" : "/api"}${path}${query.length > 0 ? `?${query.join("&")}` : ""}`,
    headers,
    ...(body === undefined ? {} : { body }),
  };
}

/** What is wrong with an answer: anything but a 2xx or a 4xx with the error envelope. */
function problemWith(response: HttpResponse): string | undefined {
  const clientError = response.status >= 400 && response.status < 500;
  if (!clientError && !(response.status >= 200 && response.status < 300)) return "not a 2xx or 4xx";
  if (response.status < 300) return undefined;
  const body = response.body as { error?: { code?: unknown; message?: unknown; details?: unknown } } & {
    responseVersion?: unknown;
  };
  const envelope =
    typeof body?.error?.code === "string" &&
    typeof body.error.message === "string" &&
    body.error.message.length > 0 &&
    "details" in body.error &&
    body.responseVersion === RESPONSE_VERSION;
  return envelope ? undefined : "not the error envelope";
}

describe("api: hostile text and deep nesting in any input of any route never get a 5xx", () => {
  let api: TestApi;
  let solana: SolanaRpc;
  before(async function () {
    this.timeout(60_000);
    // The project's local Solana RPC with the registry program deployed, and freshly indexed chains: the
    // valid part of each request reaches the routes' data paths instead of a 503 for a missing dependency.
    solana = await startSolanaRpc({ port: 0 });
    const deployer = devWallet("deployer").solana;
    solana.chain.airdrop(deployer.publicKey.toBase58(), 1_000n * BigInt(LAMPORTS_PER_SOL));
    const connection = new Connection(solana.rpcUrl, { commitment: "confirmed", wsEndpoint: solana.wsUrl });
    const deployment = await deployIdentityRegistry(
      new AnchorProvider(connection, new Wallet(deployer), { commitment: "confirmed" }),
    );
    const registries = registryCatalogue({
      evm: [],
      solana: [{ chain: "solana", rpcUrl: solana.rpcUrl, wsUrl: solana.wsUrl, ...deployment }],
    });
    api = await startTestApi({ deps: { registries, decisions: { chains: CHAINS } } });
    await setCheckpoints(api.db.pool);
    const { partnerId } = await issueKey(api, "sandbox");
    await allowEmbedLaunchpad(api.db.pool, LAUNCHPAD, partnerId, {
      actor: "test",
      reason: "hostile input test",
    });
  });
  after(async () => {
    await api?.close();
    // web3.js closes its idle websocket 500 ms after the last subscription; let it, then stop.
    await new Promise((resolve) => setTimeout(resolve, 600));
    await solana?.stop();
  });

  it("answers every route's hostile requests, from the OpenAPI document, with a 2xx or a 4xx envelope", async () => {
    const document = (await api.call({ path: "/api/v1/openapi" })).body as OpenApi;
    const operations = operationsOf(document);
    expect(operations.length).to.be.greaterThan(20);
    const requests: { operation: Operation; target: Target; request: RawRequest }[] = [];
    let run = 0;
    for (const operation of operations) {
      // Keys of the route's scope, one per environment and route, keep each under the sandbox's 60 a minute.
      const keyFor = async (environment: "production" | "sandbox") =>
        operation.scopes &&
        `Bearer ${(await issueKey(api, environment, { scopes: operation.scopes, rateLimitPerMinute: 2000 })).secret}`;
      const keys = { production: await keyFor("production"), sandbox: await keyFor("sandbox") };
      for (const target of targetsOf(operation)) {
        // Each target once per caller: a key of the route's scope in either environment, and no key.
        const samples = fc.sample(sample, { numRuns: 3, seed: SEED + run });
        run += 1;
        [keys.production, keys.sandbox, undefined].forEach((authorization, index) => {
          const request = hostileRequest(operation, target, samples[index] as Sample, authorization);
          requests.push({ operation, target, request });
        });
      }
    }
    expect(requests.length).to.be.within(200, 1_200);

    const failures: string[] = [];
    const batch = 8;
    for (let start = 0; start < requests.length; start += batch) {
      const chunk = requests.slice(start, start + batch);
      const responses = await Promise.all(chunk.map(({ request }) => sendRaw(api.url, request)));
      responses.forEach((response, index) => {
        const { operation, target } = chunk[index] as (typeof requests)[number];
        const problem = problemWith(response);
        if (problem === undefined) return;
        failures.push(
          `${operation.method} ${operation.template} [${JSON.stringify(target)}] -> ${response.status} ${problem}: ${response.text.slice(0, 160)}`,
        );
      });
    }
    expect(
      failures,
      `${failures.length} of ${requests.length}:\n${failures.slice(0, 25).join("\n")}`,
    ).to.deep.equal([]);
  });
});
