// The domain events (table `domain_events`), the outbox of the webhooks: written in the same transaction as the
// change that caused them; the webhook worker reads undispatched rows in id order and marks them dispatched.
import type { PoolClient } from "pg";
import type { Environment } from "../core/environment";

export const DOMAIN_EVENT_TYPES = [
  "chain.degraded",
  "identity.blocked_attempt",
  "identity.cleared",
  "identity.protected",
  "identity.extended",
  "launch.authorized",
  "launch.blocked",
  "launch.reported",
  "token.bonded",
  "token.graduated",
  "milestone.verified",
  "reservation.created",
  "reservation.expiring",
  "reservation.expired",
  "revenue.accrued",
] as const;
export type DomainEventType = (typeof DOMAIN_EVENT_TYPES)[number];

export interface DomainEvent {
  type: DomainEventType;
  environment: Environment;
  /** The partner the event concerns; null for events every subscriber of the environment may receive. */
  partnerId: string | null;
  payload: Record<string, unknown>;
}

export async function appendDomainEvents(client: PoolClient, events: readonly DomainEvent[]): Promise<void> {
  for (const event of events) {
    await client.query(
      "INSERT INTO domain_events (type, environment, partner_id, payload) VALUES ($1, $2, $3, $4)",
      [event.type, event.environment, event.partnerId, JSON.stringify(event.payload)],
    );
  }
}
