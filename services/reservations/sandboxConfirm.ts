// POST /v1/reservations/sandbox-confirm: a simulated prepare becomes confirmed without any payment. Seeds the
// sandbox hold, accrues the sandbox ledger draft and emits the same events as an on-chain confirmation, in one
// transaction.
import type { Pool } from "pg";
import { ApiError } from "../../core/errors/catalogue";
import { normalizeIdentity } from "../../core/fold";
import { isFinal } from "../../core/reservation";
import { withTransaction } from "../../storage/transaction";
import type { EvaluationContext } from "../identity/evaluation";
import { insertSandboxHold } from "../sandbox/sandbox";
import { confirmReservation } from "./confirmation";
import type { Reservation } from "./record";
import { reservationById } from "./store";

export async function confirmSandboxReservation(
  pool: Pool,
  context: EvaluationContext,
  partnerId: string,
  reservationId: string,
): Promise<Reservation> {
  return withTransaction(pool, async (client) => {
    const reservation = await reservationById(client, reservationId, {
      environment: "sandbox",
      forUpdate: true,
    });
    if (reservation === undefined || reservation.partnerId !== partnerId) {
      throw new ApiError("reservation_not_found", undefined, { reservationId });
    }
    if (reservation.status === "confirmed") return reservation;
    if (isFinal(reservation.status)) {
      throw new ApiError("reservation_finished", undefined, { reservationId, status: reservation.status });
    }
    const identity = normalizeIdentity(reservation.normalizedName, reservation.normalizedTicker);
    const current =
      reservation.kind === "renew"
        ? await client.query<{ expires_at: Date }>(
            `SELECT max(expires_at) AS expires_at FROM sandbox_holds
              WHERE partner_id = $1 AND identity_key = $2 AND chain = $3 AND launcher = $4 AND expires_at > $5`,
            [partnerId, reservation.identityKey, reservation.chain, reservation.launcher, context.now],
          )
        : undefined;
    const hold = await insertSandboxHold(client, context, partnerId, identity, {
      chain: reservation.chain,
      launcher: reservation.launcher,
      durationSeconds: reservation.durationSeconds,
      startsAt: current?.rows[0]?.expires_at ?? context.now,
    });
    const confirmed = await confirmReservation(
      client,
      reservation,
      {
        startsAt: new Date(hold.startsAt),
        expiresAt: new Date(hold.expiresAt),
        feePaid: reservation.quoteAmount,
      },
      context.now,
    );
    if (confirmed === undefined) throw new Error(`reservation ${reservationId} changed under its row lock`);
    return confirmed;
  });
}
