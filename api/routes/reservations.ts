import {
  type PreparedReservation,
  quoteAmountView,
  quoteView,
  reservationView,
  type SubmittedReservation,
} from "../../services/reservations";
import type { Platform } from "../platform/platform";
import {
  embedPrepareBody,
  embedSettleBody,
  prepareBody,
  prepareSchema,
  quoteQuery,
  quoteSchema,
  reservationSchema,
  sandboxConfirmBody,
  statusBody,
  statusQuery,
  submittedSchema,
} from "./reservationSchemas";

const TAG = "Reservations";

const NO_SANDBOX_TRANSACTION =
  "This chain has no sandbox registry deployment, so the sandbox returns no transaction (a simulated one would land on the production registry). Confirm the rehearsal with POST /v1/reservations/sandbox-confirm.";

/**
 * The answer to a prepare: the pending reservation, its transactions (a new reservation: the commitment to send
 * first, then `reveal`) and the quote it was priced at; a null transaction (sandbox, chain without a sandbox
 * registry) says why.
 */
function preparedAnswer({ reservation, quote }: PreparedReservation) {
  return {
    status: 201,
    body: {
      ...reservationView(reservation),
      transaction: reservation.transaction,
      reveal: reservation.reveal,
      ...(reservation.transaction === null ? { message: NO_SANDBOX_TRANSACTION } : {}),
      quote: quoteAmountView(quote),
    },
  };
}

const iso = (value: Date) => value.toISOString();

/** The reservation after a reported transaction, which step it was taken for, and a commitment's maturity. */
function submittedAnswer({ reservation, step, commitment }: SubmittedReservation) {
  return {
    ...reservationView(reservation),
    step,
    ...(commitment === undefined
      ? {}
      : {
          commitOnChain:
            commitment === null
              ? null
              : {
                  committedAt: iso(commitment.committedAt),
                  revealableAt: iso(commitment.revealableAt),
                  revealableSlot: commitment.revealableSlot,
                },
        }),
  };
}

const PARTNER_ERRORS = ["unauthorized", "key_revoked", "scope_missing", "rate_limited"] as const;

export function registerReservationRoutes({ routes, idempotent, services }: Platform): void {
  const { reservations } = services;

  routes.route(
    {
      method: "get",
      path: "/v1/reservations/quote",
      summary:
        "Price of a reservation tier on a chain, from the same feed the registry reads; fails when it is stale.",
      tag: TAG,
      access: { scope: "reservation:prepare" },
      query: quoteQuery,
      responses: {
        200: { description: "Tier, chain amount with its expiry, and policy.", schema: quoteSchema },
      },
      errors: [...PARTNER_ERRORS, "price_unavailable", "service_unavailable"],
    },
    async ({ query, partner }) => {
      const quote = await reservations.quote(partner.environment, query.chain, query.durationSeconds);
      return { status: 200, body: quoteView(quote) };
    },
  );

  routes.route(
    {
      method: "post",
      path: "/v1/reservations/prepare",
      summary:
        "Prepare a reservation: prechecks, a creator-signable transaction and the revenue-share snapshot. Protects nothing until confirmed on-chain.",
      tag: TAG,
      access: { scope: "reservation:prepare" },
      body: prepareBody,
      headers: { "Idempotency-Key": "Optional; a retry with the same key replays the same transaction." },
      responses: {
        201: { description: "The pending reservation and its transaction.", schema: prepareSchema },
      },
      errors: [
        ...PARTNER_ERRORS,
        "identity_held",
        "renewal_not_open",
        "reservation_limit_reached",
        "price_unavailable",
        "service_unavailable",
        "idempotency_key_reused",
        "idempotency_in_progress",
      ],
    },
    async ({ body, rawBody, route, headers, partner }) => {
      const attribution = {
        partnerId: partner.partnerId,
        apiKeyId: partner.keyId,
        launchpad: null,
        source: "partner",
      } as const;
      const call = { keyId: partner.keyId, route, headers, body: rawBody };
      return idempotent(call, async () =>
        preparedAnswer(await reservations.prepare(partner.environment, attribution, body)),
      );
    },
  );

  routes.route(
    {
      method: "get",
      path: "/v1/reservations/status",
      summary: "A reservation's status (pending_payment, submitted, confirmed, failed, expired).",
      tag: TAG,
      access: { scope: "reservation:prepare" },
      query: statusQuery,
      responses: { 200: { description: "The reservation.", schema: reservationSchema } },
      errors: [...PARTNER_ERRORS, "reservation_not_found", "service_unavailable"],
    },
    async ({ query, partner }) => {
      return { status: 200, body: reservationView(await reservations.own(partner, query.reservationId)) };
    },
  );

  routes.route(
    {
      method: "post",
      path: "/v1/reservations/status",
      summary:
        "Record a transaction the wallet sent: a commit keeps the reservation pending_payment (the answer says when the reveal may go), the reveal or a renewal submits it. Answers the reconciled status.",
      tag: TAG,
      access: { scope: "reservation:prepare" },
      body: statusBody,
      responses: {
        200: { description: "The reservation and the step the hash was taken for.", schema: submittedSchema },
      },
      errors: [
        ...PARTNER_ERRORS,
        "reservation_not_found",
        "reservation_finished",
        "transaction_already_used",
        "service_unavailable",
      ],
    },
    async ({ body, partner }) => {
      return {
        status: 200,
        body: submittedAnswer(await reservations.submit(partner, body.reservationId, body.transactionHash)),
      };
    },
  );

  routes.route(
    {
      method: "post",
      path: "/v1/reservations/sandbox-confirm",
      summary:
        "Sandbox only: confirm a simulated prepare without payment; seeds sandbox protection and accrues the sandbox ledger.",
      tag: TAG,
      access: { scope: "reservation:prepare" },
      body: sandboxConfirmBody,
      responses: { 200: { description: "The confirmed reservation.", schema: reservationSchema } },
      errors: [
        ...PARTNER_ERRORS,
        "sandbox_only",
        "reservation_not_found",
        "reservation_finished",
        "identity_held",
        "service_unavailable",
      ],
    },
    async ({ body, partner }) => {
      return {
        status: 200,
        body: reservationView(await reservations.confirmSandbox(partner, body.reservationId)),
      };
    },
  );

  routes.route(
    {
      method: "post",
      path: "/v1/embed/reservations/prepare",
      summary:
        "Embedded prepare from a browser: attribution from an allowlisted launchpad, no key. Creates a pending prepare and a ledger draft only.",
      tag: TAG,
      access: "keyless",
      cors: "embed-origins",
      body: embedPrepareBody,
      responses: {
        201: { description: "The pending reservation and its transaction.", schema: prepareSchema },
      },
      errors: [
        "launchpad_not_allowed",
        "origin_not_allowed",
        "identity_held",
        "renewal_not_open",
        "reservation_limit_reached",
        "price_unavailable",
        "rate_limited",
        "service_unavailable",
      ],
    },
    async ({ body, environment }) => {
      const prepared = await reservations.prepareEmbedded(environment, body.launchpad, body);
      const { status, body: answer } = preparedAnswer(prepared);
      return { status: status, body: answer };
    },
  );

  routes.route(
    {
      method: "post",
      path: "/v1/embed/reservations/settle",
      summary:
        "After the wallet's transaction settled: records it, and once confirmed on-chain accrues the partner ledger and stamps the launchpad.",
      tag: TAG,
      access: "keyless",
      cors: "embed-origins",
      body: embedSettleBody,
      responses: { 200: { description: "The settled reservation.", schema: reservationSchema } },
      errors: [
        "origin_not_allowed",
        "reservation_not_found",
        "reservation_finished",
        "reservation_not_confirmed",
        "transaction_already_used",
        "rate_limited",
        "service_unavailable",
      ],
    },
    async ({ body, environment }) => {
      const settled = await reservations.settleEmbedded(
        environment,
        body.reservationId,
        body.transactionHash,
      );
      return { status: 200, body: reservationView(settled) };
    },
  );
}
