// The OpenAPI 3.1.0 document, generated from the route table's zod schemas (JSON Schema 2020-12, which is
// OpenAPI 3.1's schema dialect).
import { type ZodType, z } from "zod";
import { ERROR_CATALOGUE, type ErrorCode } from "../../../core/errors/catalogue";
import { RESPONSE_VERSION } from "../responseVersion";
import { errorStatuses, type RouteAccess, type RouteSpec, routeCorsClass } from "./routeTable";

type JsonSchema = Record<string, unknown>;

/** Error codes any route can answer with; listed on every operation. */
const COMMON_ERRORS: readonly ErrorCode[] = [
  "invalid_request",
  "payload_too_large",
  "unsupported_media_type",
  "expectation_failed",
];
const KEYED_ERRORS: readonly ErrorCode[] = [
  "unauthorized",
  "key_revoked",
  "wrong_environment",
  "rate_limited",
];

function jsonSchema(schema: ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  }) as JsonSchema;
  return rest;
}

/** Response bodies as sent: every JSON object also carries `responseVersion`. */
function withResponseVersion(schema: JsonSchema): JsonSchema {
  if (schema.type !== "object") return schema;
  const properties = { ...(schema.properties as JsonSchema), responseVersion: { type: "string" } };
  const required = [...new Set([...((schema.required as string[]) ?? []), "responseVersion"])];
  return { ...schema, properties, required };
}

function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

function pathParameters(expressPath: string): JsonSchema[] {
  return [...expressPath.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => ({
    name: match[1],
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
}

function queryParameters(query: ZodType | undefined): JsonSchema[] {
  if (query === undefined) return [];
  const schema = jsonSchema(query, "input");
  const required = new Set((schema.required as string[]) ?? []);
  return Object.entries((schema.properties as Record<string, JsonSchema>) ?? {}).map(([name, property]) => ({
    name,
    in: "query",
    required: required.has(name),
    ...(typeof property.description === "string" ? { description: property.description } : {}),
    schema: property,
  }));
}

function headerParameters(headers: Record<string, string> | undefined): JsonSchema[] {
  return Object.entries(headers ?? {}).map(([name, description]) => ({
    name,
    in: "header",
    required: false,
    description,
    schema: { type: "string" },
  }));
}

function security(access: RouteAccess): JsonSchema[] {
  if (access === "public" || access === "public-write") return [];
  if (access === "keyless") return [{}, { apiKey: [] }];
  return [{ apiKey: access === "partner" ? [] : [access.scope] }];
}

function errorCodesOf(spec: RouteSpec<ZodType, ZodType>): ErrorCode[] {
  const keyed =
    spec.access === "public"
      ? []
      : spec.access === "public-write"
        ? ["rate_limited" as const]
        : spec.access === "keyless"
          ? [...KEYED_ERRORS]
          : [...KEYED_ERRORS, "scope_missing" as const];
  return [...new Set([...COMMON_ERRORS, ...keyed, ...(spec.errors ?? [])])];
}

function operation(spec: RouteSpec<ZodType, ZodType>): JsonSchema {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, response] of Object.entries(spec.responses)) {
    responses[status] = {
      description: response.description,
      ...(response.headers
        ? {
            headers: Object.fromEntries(
              Object.entries(response.headers).map(([name, description]) => [
                name,
                { description, schema: { type: "string" } },
              ]),
            ),
          }
        : {}),
      ...(response.schema
        ? {
            content: {
              "application/json": {
                schema:
                  response.versioned === false
                    ? jsonSchema(response.schema, "output")
                    : withResponseVersion(jsonSchema(response.schema, "output")),
              },
            },
          }
        : {}),
    };
  }
  for (const [status, codes] of errorStatuses(errorCodesOf(spec))) {
    responses[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${ERROR_CATALOGUE[code].message}`).join(" "),
      content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } },
    };
  }
  return {
    operationId: `${spec.method}${openApiPath(spec.path).replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? "").toUpperCase())}`,
    summary: spec.summary,
    tags: [spec.tag],
    security: security(spec.access),
    // Which browser pages may call it: any-origin, embed-origins (registered launchpad origins) or none.
    "x-cors": routeCorsClass(spec),
    parameters: [
      ...pathParameters(spec.path),
      ...queryParameters(spec.query),
      ...headerParameters(spec.headers),
    ],
    ...(spec.body
      ? {
          requestBody: {
            required: true,
            content: { "application/json": { schema: jsonSchema(spec.body, "input") } },
          },
        }
      : {}),
    responses,
  };
}

const ERROR_ENVELOPE_SCHEMA: JsonSchema = {
  type: "object",
  required: ["error", "responseVersion"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message", "details"],
      properties: {
        code: { type: "string", enum: Object.keys(ERROR_CATALOGUE) },
        message: { type: "string" },
        details: {},
      },
    },
    responseVersion: { type: "string" },
  },
};

/** A webhook event type as published: what it means and the schema of its envelope's `data`. */
export interface WebhookEventDoc {
  summary: string;
  data: ZodType;
}

const eventSchemaName = (type: string) => `WebhookEvent_${type}`;

/** The envelope of one event type, its `data` by that type's schema. */
function eventEnvelope(type: string, event: WebhookEventDoc): JsonSchema {
  return {
    type: "object",
    description: event.summary,
    required: ["id", "type", "createdAt", "data"],
    additionalProperties: false,
    properties: {
      id: {
        type: "string",
        description: "Delivery id: the same on every retry and replay; de-duplicate on it.",
      },
      type: { type: "string", const: type },
      createdAt: { type: "string", description: "When the event happened (ISO 8601)." },
      data: jsonSchema(event.data, "output"),
    },
  };
}

/**
 * The events the service sends: OpenAPI 3.1's `webhooks` (one POST per type) over components.schemas
 * WebhookEvent_<type>, and WebhookEvent, their union discriminated by `type`.
 */
function webhookSections(events: Readonly<Record<string, WebhookEventDoc>>) {
  const types = Object.keys(events);
  const ref = (type: string) => `#/components/schemas/${eventSchemaName(type)}`;
  const schemas: Record<string, JsonSchema> = Object.fromEntries(
    Object.entries(events).map(([type, event]) => [eventSchemaName(type), eventEnvelope(type, event)]),
  );
  schemas.WebhookEvent = {
    oneOf: types.map((type) => ({ $ref: ref(type) })),
    discriminator: {
      propertyName: "type",
      mapping: Object.fromEntries(types.map((type) => [type, ref(type)])),
    },
  };
  const webhooks = Object.fromEntries(
    Object.entries(events).map(([type, event]) => [
      type,
      {
        post: {
          summary: event.summary,
          description:
            "Signed with X-Service-Signature (and the Standard Webhooks headers); see docs/webhooks.md.",
          requestBody: { required: true, content: { "application/json": { schema: { $ref: ref(type) } } } },
          responses: {
            "2XX": { description: "Received; answer promptly." },
            "400": { description: "The signature did not verify." },
          },
        },
      },
    ]),
  );
  return { schemas, webhooks };
}

export function openApiDocument(
  specs: readonly RouteSpec<ZodType, ZodType>[],
  events: Readonly<Record<string, WebhookEventDoc>> = {},
): JsonSchema {
  const sent = webhookSections(events);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const spec of specs) {
    const path = openApiPath(spec.path);
    paths[path] = { ...(paths[path] ?? {}), [spec.method]: operation(spec) };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Token identity protection service",
      version: RESPONSE_VERSION,
      description:
        "Paths are relative to {base_url}/api. Every JSON response carries `responseVersion`; every non-2xx response is `{ error: { code, message, details } }`.",
    },
    servers: [{ url: "/api" }],
    paths,
    webhooks: sent.webhooks,
    components: {
      schemas: { ErrorEnvelope: ERROR_ENVELOPE_SCHEMA, ...sent.schemas },
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description: "Partner API key: svc_sbx_… (sandbox) or svc_live_… (production).",
        },
      },
    },
  };
}
