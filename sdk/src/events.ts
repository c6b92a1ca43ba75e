// The typed webhook events, from the OpenAPI document's `webhooks` (one schema per event type).
import type { webhooks } from "./generated/openapi";

export type WebhookEventType = keyof webhooks;

/** The envelope `{ id, type, createdAt, data }` of `T`; narrow a union by checking `event.type`. */
export type WebhookEvent<T extends WebhookEventType = WebhookEventType> = {
  [K in T]: webhooks[K]["post"]["requestBody"]["content"]["application/json"];
}[T];
