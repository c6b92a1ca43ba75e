// Applies one reconcile action inside the caller's transaction: the guarded status change, the ledger and the
// domain events together, so a crash or a competing replica never leaves one without the others.
import type { PoolClient } from "pg";
import { sameOnChainSql } from "../../core/address/equality";
import { appendDomainEvents } from "../../storage/domainEvents";
import { confirmReservation } from "./confirmation";
import { expiredEvents, expiringEvents } from "./events";
import { reopenLedgerEntry, voidLedgerEntry } from "./ledger";
import type { ReconcileAction } from "./reconcileRules";
import type { Reservation } from "./record";
import { transition } from "./store";

/** What an applied action changed; a pass counts these. */
export type ReconcileEffect =
  | "confirmed"
  | "failed"
  | "lapsed"
  | "extended"
  | "expiring"
  | "expired"
  | "reopened";

export interface Applied {
  reservation: Reservation;
  effects: ReconcileEffect[];
}

/**
 * Whether the holder reported a launch of the pair on its chain within the window: then the window's end is not an
 * expiry the partner hears of (spec: reservation.expired fires only when the window ended without a launch).
 */
async function launchedInWindow(client: PoolClient, reservation: Reservation, end: Date): Promise<boolean> {
  const { rowCount } = await client.query(
    `SELECT 1 FROM identity_launches
     WHERE environment = $1 AND identity_key = $2 AND chain = $3 AND ${sameOnChainSql("$4", "launcher", "$5")}
       AND reported_at <= $6 AND ($7::timestamptz IS NULL OR reported_at >= $7)
     LIMIT 1`,
    [
      reservation.environment,
      reservation.identityKey,
      reservation.chain,
      reservation.family,
      reservation.launcher,
      end,
      reservation.startsAt,
    ],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * Applies `action` to `reservation` (read under a row lock in this transaction). Undefined when there is nothing
 * to apply (`wait`, `ask_chain`) or the row already left the state the action was decided from.
 */
export async function applyAction(
  client: PoolClient,
  reservation: Reservation,
  action: ReconcileAction,
  now: Date,
): Promise<Applied | undefined> {
  const id = reservation.reservationId;
  switch (action.kind) {
    case "wait":
    case "ask_chain":
      return undefined;
    case "confirm": {
      const confirmed = await confirmReservation(client, reservation, action, now);
      return confirmed === undefined ? undefined : { reservation: confirmed, effects: ["confirmed"] };
    }
    case "fail":
    case "lapse": {
      const to = action.kind === "fail" ? "failed" : "expired";
      const finished = await transition(client, id, reservation.status, to, {
        status_reason: action.reason,
        finished_at: now,
      });
      if (finished === undefined) return undefined;
      await voidLedgerEntry(client, id, now);
      return { reservation: finished, effects: [action.kind === "fail" ? "failed" : "lapsed"] };
    }
    case "track": {
      const tracked = await transition(client, id, "confirmed", "confirmed", {
        expires_at: action.expiresAt,
        ...(action.notify ? { expiring_notified_at: now } : {}),
      });
      if (tracked === undefined) return undefined;
      if (action.notify) await appendDomainEvents(client, expiringEvents(tracked));
      const moved = action.expiresAt.getTime() !== reservation.expiresAt?.getTime();
      return {
        reservation: tracked,
        effects: [...(moved ? ["extended" as const] : []), ...(action.notify ? ["expiring" as const] : [])],
      };
    }
    case "reopen": {
      // The window, fee and notice were the reorged settlement's; the wait for a settlement starts again.
      const wait =
        action.to === "submitted" ? { submitted_at: action.submittedAt } : { lapses_at: action.lapsesAt };
      const reopened = await transition(client, id, "confirmed", action.to, {
        status_reason: action.reason,
        confirmed_at: null,
        starts_at: null,
        expires_at: null,
        fee_paid: null,
        expiring_notified_at: null,
        ...wait,
      });
      if (reopened === undefined) return undefined;
      await reopenLedgerEntry(client, id);
      return { reservation: reopened, effects: ["reopened"] };
    }
    case "expire": {
      const expired = await transition(client, id, "confirmed", "expired", {
        expires_at: action.expiresAt,
        finished_at: now,
      });
      if (expired === undefined) return undefined;
      if (!(await launchedInWindow(client, expired, action.expiresAt))) {
        await appendDomainEvents(client, expiredEvents(expired));
      }
      return { reservation: expired, effects: ["expired"] };
    }
  }
}
