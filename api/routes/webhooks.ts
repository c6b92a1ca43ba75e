import { z } from "zod";
import {
  DELIVERY_STATUSES,
  DOMAIN_EVENT_TYPES,
  MAX_RECEIVER_URL_LENGTH,
  type WebhookDelivery,
  type WebhookEndpoint,
} from "../../services/webhooks";
import type { Platform } from "../platform/platform";

const PAGE_SIZE_MAX = 50;
const PAGE_SIZE_DEFAULT = 20;

const urlField = z
  .string()
  .min(1)
  .max(MAX_RECEIVER_URL_LENGTH)
  .describe("HTTPS URL resolving to public addresses only (see docs/webhooks.md for the receiver rules).");
const eventsField = z
  .array(z.string().max(100))
  .max(100)
  .describe(
    `Event types to receive; omit for every type. Unknown names are refused with the valid ones listed. Types: ${DOMAIN_EVENT_TYPES.join(", ")}.`,
  );

const createBody = z.strictObject({ url: urlField, events: eventsField.optional() });

const patchBody = z
  .strictObject({
    enabled: z
      .boolean()
      .optional()
      .describe("false pauses deliveries; pending ones wait until it is true again."),
    rotateSecret: z
      .literal(true)
      .optional()
      .describe("Issue a new signing secret (returned once); the old one also signs for 24 hours."),
    url: urlField.optional(),
    events: eventsField.nullable().optional().describe("New subscription; null subscribes to every type."),
  })
  .refine((body) => Object.keys(body).length > 0, {
    message: "send at least one of enabled, rotateSecret, url, events",
  });

const endpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()).nullable().describe("Null: every type, including types added later."),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  previousSecretExpiresAt: z
    .string()
    .nullable()
    .describe("Until when the secret replaced by the last rotation also signs; null outside that window."),
});

const withSecret = endpointSchema.extend({
  signingSecret: z.string().describe("Shown once: whsec_ and base64; store it to verify deliveries."),
});

const deliverySchema = z.object({
  id: z
    .string()
    .describe("The delivery id: the envelope id and webhook-id header, reused by retries and replays."),
  endpointId: z.string(),
  type: z.string(),
  status: z
    .enum(DELIVERY_STATUSES)
    .describe("pending (an attempt is due), succeeded, or dead (retries exhausted)."),
  attemptCount: z.number(),
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  lastResponseCode: z.number().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
});

const deliveriesQuery = z.object({
  endpointId: z.string().max(64).optional().describe("Only this endpoint's deliveries."),
  status: z.enum(DELIVERY_STATUSES).optional(),
  cursor: z.string().max(64).optional().describe("The nextCursor of the previous page."),
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});

function endpointJson(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    enabled: endpoint.enabled,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
    previousSecretExpiresAt: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
  };
}

function deliveryJson(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    endpointId: delivery.endpointId,
    type: delivery.type,
    status: delivery.status,
    attemptCount: delivery.attemptCount,
    nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
    lastAttemptAt: delivery.lastAttemptAt?.toISOString() ?? null,
    lastResponseCode: delivery.lastResponseCode,
    lastError: delivery.lastError,
    createdAt: delivery.createdAt.toISOString(),
  };
}

export function registerWebhookRoutes({ routes, services }: Platform): void {
  // The fixed paths come before /v1/webhooks/:id so that "deliveries" and "test" are never taken for an id.
  routes.route(
    {
      method: "get",
      path: "/v1/webhooks/deliveries",
      summary:
        "Delivery history, newest first (filter by endpoint and status; cursor pagination, limit <= 50).",
      tag: "Webhooks",
      access: "partner",
      query: deliveriesQuery,
      responses: {
        200: {
          description: "One page of deliveries and the cursor of the next (null on the last page).",
          schema: z.object({ rows: z.array(deliverySchema), nextCursor: z.string().nullable() }),
        },
      },
    },
    async ({ query, partner }) => {
      const page = await services.webhooks.deliveries(partner, query);
      return { status: 200, body: { rows: page.rows.map(deliveryJson), nextCursor: page.nextCursor } };
    },
  );

  routes.route(
    {
      method: "post",
      path: "/v1/webhooks/deliveries/:id/replay",
      summary: "Send a delivery again (dead ones too) with the same delivery id and a fresh retry schedule.",
      tag: "Webhooks",
      access: "partner",
      responses: { 202: { description: "The delivery, due now.", schema: deliverySchema } },
      errors: ["delivery_not_found"],
    },
    async ({ partner, params }) => {
      const delivery = await services.webhooks.replay(partner, String(params.id));
      return { status: 202, body: deliveryJson(delivery) };
    },
  );

  routes.route(
    {
      method: "post",
      path: "/v1/webhooks/test",
      summary: "Send a signed webhook.test event to one of your endpoints (whatever its event filter).",
      tag: "Webhooks",
      access: "partner",
      body: z.strictObject({ endpointId: z.string().max(64) }),
      responses: { 202: { description: "The test delivery, due now.", schema: deliverySchema } },
      errors: ["webhook_not_found"],
    },
    async ({ body, partner }) => {
      const delivery = await services.webhooks.sendTest(partner, body.endpointId);
      return { status: 202, body: deliveryJson(delivery) };
    },
  );

  routes.route(
    {
      method: "get",
      path: "/v1/webhooks",
      summary: "Your webhook endpoints in this key's environment.",
      tag: "Webhooks",
      access: "partner",
      responses: {
        200: { description: "The endpoints.", schema: z.object({ endpoints: z.array(endpointSchema) }) },
      },
    },
    async ({ partner }) => {
      const endpoints = await services.webhooks.list(partner);
      return { status: 200, body: { endpoints: endpoints.map(endpointJson) } };
    },
  );

  routes.route(
    {
      method: "post",
      path: "/v1/webhooks",
      summary: "Register an endpoint (HTTPS, public addresses only). The signing secret is shown once.",
      tag: "Webhooks",
      access: "partner",
      body: createBody,
      responses: { 201: { description: "The endpoint and its signing secret.", schema: withSecret } },
      errors: ["service_unavailable"],
    },
    async ({ body, partner }) => {
      const { endpoint, signingSecret } = await services.webhooks.create(partner, body);
      return { status: 201, body: { ...endpointJson(endpoint), signingSecret } };
    },
  );

  routes.route(
    {
      method: "patch",
      path: "/v1/webhooks/:id",
      summary: "Enable or disable an endpoint, change its URL or events, or rotate its signing secret.",
      tag: "Webhooks",
      access: "partner",
      body: patchBody,
      responses: {
        200: {
          description: "The endpoint; after a rotation also the new signing secret, shown once.",
          schema: endpointSchema.extend({ signingSecret: z.string().optional() }),
        },
      },
      errors: ["webhook_not_found", "service_unavailable"],
    },
    async ({ body, partner, params }) => {
      const { endpoint, signingSecret } = await services.webhooks.update(partner, String(params.id), body);
      return {
        status: 200,
        body: { ...endpointJson(endpoint), ...(signingSecret === null ? {} : { signingSecret }) },
      };
    },
  );

  routes.route(
    {
      method: "delete",
      path: "/v1/webhooks/:id",
      summary: "Delete an endpoint, with its pending deliveries and delivery history.",
      tag: "Webhooks",
      access: "partner",
      responses: {
        200: {
          description: "The endpoint is deleted.",
          schema: z.object({ id: z.string(), deleted: z.literal(true) }),
        },
      },
      errors: ["webhook_not_found"],
    },
    async ({ partner, params }) => {
      const id = String(params.id);
      await services.webhooks.remove(partner, id);
      return { status: 200, body: { id, deleted: true } };
    },
  );
}
