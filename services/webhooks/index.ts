// The webhooks context's public face: a partner's endpoints (register, list, toggle, rotate, delete), its
// delivery history, replays and test events; and the dispatcher the worker runs. Every call is scoped to
// the caller's partner and environment.
import type { Pool } from "pg";
import { ApiError } from "../../core/errors/catalogue";
import type { SecretBox } from "../../core/secrets/secretBox";
import { generateWebhookSecret } from "../../core/webhook/signature";
import { DOMAIN_EVENT_TYPES } from "../../storage/domainEvents";
import {
  type DeliveryRecord,
  type DeliveryStatus,
  deliveryPage,
  insertTestDelivery,
  isDeliveryId,
  replayDelivery,
} from "./deliveryStore";
import { ROTATION_GRACE_MS, sealEndpointSecret } from "./endpointSecrets";
import {
  deleteEndpoint,
  type EndpointRecord,
  findEndpoint,
  insertEndpoint,
  isEndpointId,
  listEndpoints,
  MAX_ENDPOINTS_PER_OWNER,
  newEndpointId,
  updateEndpoint,
  type WebhookOwner,
} from "./endpointStore";
import { checkedReceiver, type HostLookup, ReceiverRefusedError, systemLookup } from "./receiverUrl";

export { WEBHOOK_ATTEMPT_TIMEOUT_MS, WEBHOOK_RETRY_DELAYS_SECONDS } from "../../core/webhook/deliveryPolicy";
export { DOMAIN_EVENT_TYPES, type DomainEventType } from "../../storage/domainEvents";
export { type OutboxBacklog, readOutboxBacklog } from "./backlog";
export { DELIVERY_STATUSES, type DeliveryStatus, TEST_EVENT_TYPE } from "./deliveryStore";
export {
  type DispatcherOptions,
  IDLE_CLAIM_INTERVAL_MS,
  type WebhookDispatcher,
  webhookDispatcher,
} from "./dispatcher";
export type { WebhookOwner } from "./endpointStore";
export { type HostLookup, MAX_RECEIVER_URL_LENGTH, systemLookup } from "./receiverUrl";

export interface WebhookSettings {
  /** Accept http(s)://localhost, 127.0.0.1 and [::1] receivers: only on a locally run service. */
  allowLocalReceivers: boolean;
  /** DNS for the receiver check; the system resolver by default. */
  lookup?: HostLookup | undefined;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  /** Null: every event type, including types added later. */
  events: string[] | null;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** Until when the secret replaced by the last rotation still signs; null outside a grace window. */
  previousSecretExpiresAt: Date | null;
}

export interface EndpointInput {
  url: string;
  events?: readonly string[] | undefined;
}

export interface EndpointChangeInput {
  url?: string | undefined;
  /** Null subscribes to every type. */
  events?: readonly string[] | null | undefined;
  enabled?: boolean | undefined;
  rotateSecret?: boolean | undefined;
}

export interface DeliveryQuery {
  endpointId?: string | undefined;
  status?: DeliveryStatus | undefined;
  cursor?: string | undefined;
  limit: number;
}

export type WebhookDelivery = Omit<DeliveryRecord, "seq">;

export interface WebhooksService {
  list(owner: WebhookOwner): Promise<WebhookEndpoint[]>;
  /** Registers an endpoint after the receiver check; its signing secret is returned this once. */
  create(
    owner: WebhookOwner,
    input: EndpointInput,
  ): Promise<{ endpoint: WebhookEndpoint; signingSecret: string }>;
  /** Toggles, re-targets, re-subscribes or rotates; a rotation returns the new secret this once. */
  update(
    owner: WebhookOwner,
    id: string,
    changes: EndpointChangeInput,
  ): Promise<{ endpoint: WebhookEndpoint; signingSecret: string | null }>;
  remove(owner: WebhookOwner, id: string): Promise<void>;
  deliveries(
    owner: WebhookOwner,
    query: DeliveryQuery,
  ): Promise<{ rows: WebhookDelivery[]; nextCursor: string | null }>;
  replay(owner: WebhookOwner, deliveryId: string): Promise<WebhookDelivery>;
  sendTest(owner: WebhookOwner, endpointId: string): Promise<WebhookDelivery>;
}

function endpointView(record: EndpointRecord, at: Date): WebhookEndpoint {
  const expires = record.previousSecretExpiresAt;
  return {
    id: record.id,
    url: record.url,
    events: record.events,
    enabled: record.enabled,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    previousSecretExpiresAt: expires !== null && expires.getTime() > at.getTime() ? expires : null,
  };
}

function deliveryView({ seq: _seq, ...delivery }: DeliveryRecord): WebhookDelivery {
  return delivery;
}

/** The subscribed types in the order of the spec's table; null for every type. 400 naming unknown ones. */
export function subscribedTypes(events: readonly string[] | null | undefined): string[] | null {
  if (events === null || events === undefined) return null;
  const valid: readonly string[] = DOMAIN_EVENT_TYPES;
  const unknown = events.filter((type) => !valid.includes(type));
  if (unknown.length > 0 || events.length === 0) {
    throw new ApiError(
      "invalid_request",
      events.length === 0
        ? "`events` is empty; omit it to subscribe to every type, or list the types to receive."
        : `Unknown event type ${unknown.map((type) => `"${type}"`).join(", ")}; valid types: ${valid.join(", ")}.`,
      {
        in: "body",
        issues: [{ path: "events", message: "unknown event type" }],
        unknown,
        validEvents: valid,
      },
    );
  }
  return valid.filter((type) => events.includes(type));
}

async function checkedUrl(text: string, settings: WebhookSettings): Promise<string> {
  try {
    const target = await checkedReceiver(text, {
      allowLocalReceivers: settings.allowLocalReceivers,
      lookup: settings.lookup ?? systemLookup,
    });
    return target.url.toString();
  } catch (error) {
    if (!(error instanceof ReceiverRefusedError)) throw error;
    throw new ApiError("invalid_request", error.message, {
      in: "body",
      issues: [{ path: "url", message: error.message }],
      rule: error.rule,
    });
  }
}

function encodeCursor(seq: string): string {
  return Buffer.from(`d:${seq}`).toString("base64url");
}

function decodeCursor(text: string): string {
  const match = /^d:(\d{1,18})$/.exec(Buffer.from(text, "base64url").toString("utf8"));
  if (match?.[1] !== undefined) return match[1];
  throw new ApiError(
    "invalid_request",
    "`cursor` is not a cursor this API issued; pass nextCursor unchanged.",
    {
      in: "query",
      issues: [{ path: "cursor", message: "unknown cursor" }],
    },
  );
}

function notFound(): never {
  throw new ApiError("webhook_not_found");
}

export function webhooksService(
  pool: Pool,
  box: SecretBox | undefined,
  now: () => number,
  settings: WebhookSettings,
): WebhooksService {
  const sealingBox = (): SecretBox => {
    if (box !== undefined) return box;
    throw new ApiError(
      "service_unavailable",
      "This API runs without a master key, so it cannot keep webhook signing secrets.",
    );
  };
  const endpointOf = async (owner: WebhookOwner, id: string): Promise<EndpointRecord> =>
    (isEndpointId(id) ? await findEndpoint(pool, owner, id) : undefined) ?? notFound();

  return {
    async list(owner) {
      const at = new Date(now());
      return (await listEndpoints(pool, owner)).map((record) => endpointView(record, at));
    },

    async create(owner, input) {
      const events = subscribedTypes(input.events);
      const url = await checkedUrl(input.url, settings);
      const secretBox = sealingBox();
      const id = newEndpointId();
      const signingSecret = generateWebhookSecret();
      const at = new Date(now());
      const record = await insertEndpoint(pool, owner, {
        id,
        url,
        events,
        secretSealed: sealEndpointSecret(secretBox, id, signingSecret),
        at,
      });
      if (record === undefined) {
        throw new ApiError(
          "invalid_request",
          `You already have ${MAX_ENDPOINTS_PER_OWNER} webhook endpoints; delete one or subscribe an existing one to more events.`,
          { in: "body", issues: [{ path: "url", message: "endpoint limit reached" }] },
        );
      }
      return { endpoint: endpointView(record, at), signingSecret };
    },

    async update(owner, id, changes) {
      await endpointOf(owner, id);
      const events = changes.events === undefined ? undefined : subscribedTypes(changes.events);
      const url = changes.url === undefined ? undefined : await checkedUrl(changes.url, settings);
      const at = new Date(now());
      const signingSecret = changes.rotateSecret === true ? generateWebhookSecret() : null;
      const rotation =
        signingSecret === null
          ? undefined
          : {
              secretSealed: sealEndpointSecret(sealingBox(), id, signingSecret),
              previousExpiresAt: new Date(at.getTime() + ROTATION_GRACE_MS),
            };
      const record = await updateEndpoint(pool, owner, id, {
        url,
        events,
        enabled: changes.enabled,
        rotation,
        at,
      });
      return { endpoint: endpointView(record ?? notFound(), at), signingSecret };
    },

    async remove(owner, id) {
      if (!isEndpointId(id) || !(await deleteEndpoint(pool, owner, id))) notFound();
    },

    async deliveries(owner, query) {
      const rows = await deliveryPage(pool, owner, {
        endpointId: query.endpointId,
        status: query.status,
        beforeSeq: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
        limit: query.limit,
      });
      const shown = rows.slice(0, query.limit);
      const last = shown[shown.length - 1];
      return {
        rows: shown.map(deliveryView),
        nextCursor: rows.length > query.limit && last !== undefined ? encodeCursor(last.seq) : null,
      };
    },

    async replay(owner, deliveryId) {
      const record = isDeliveryId(deliveryId)
        ? await replayDelivery(pool, owner, deliveryId, new Date(now()))
        : undefined;
      if (record === undefined) throw new ApiError("delivery_not_found");
      return deliveryView(record);
    },

    async sendTest(owner, endpointId) {
      const endpoint = await endpointOf(owner, endpointId);
      return deliveryView(await insertTestDelivery(pool, endpoint, new Date(now())));
    },
  };
}
