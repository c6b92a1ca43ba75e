// The reservation routes: quote, prepare, status (read and submit a transaction hash), sandbox-confirm, and the
// embed pair for browsers (attribution from an allowlisted launchpad, no key). Handlers gather input and format
// answers; the rules live in prepare.ts, submission.ts, sandboxConfirm.ts and reservations/.
import type { Response } from "express";
import type { Environment } from "../../core/environment";
import { ApiError } from "../../core/errors/catalogue";
import { reconcileReservation } from "../../reservations/reconcile";
import { type Reservation, reservationView } from "../../reservations/record";
import { reservationById, transition } from "../../reservations/store";
import { normalizedOrReject } from "../decisions/identityInput";
import type { DecisionModule } from "../decisions/module";
import type { Platform } from "../platform/platform";
import { fromChain, registryFor } from "./chainAccess";
import { embedPartnerOf } from "./embedLaunchpads";
import { type Attribution, prepareReservation } from "./prepare";
import { quoteAmountView, quoteView } from "./quoteView";
import { confirmSandboxReservation } from "./sandboxConfirm";
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
} from "./schemas";
import { recordSubmission } from "./submission";

const TAG = "Reservations";

function partnerOf(res: Response) {
  const partner = res.locals.partner;
  if (partner === undefined) throw new Error("Reservation partner routes must run behind requirePartner.");
  return partner;
}

function registriesOf(platform: Platform, environment: Environment) {
  return platform.deps.registries?.[environment];
}

/** The caller's own reservation of its environment; 404 for any other (no hint that it exists elsewhere). */
async function ownReservation(
  module: DecisionModule,
  environment: Environment,
  partnerId: string,
  reservationId: string,
): Promise<Reservation> {
  const reservation = await reservationById(module.pool, reservationId, { environment });
  if (reservation === undefined || reservation.partnerId !== partnerId) {
    throw new ApiError("reservation_not_found", undefined, { reservationId });
  }
  return reservation;
}

/**
 * Records the wallet's transaction, then answers the freshest state: the reconciler asks the mirror and, for a
 * submitted transaction, the chain.
 */
async function submitAndReconcile(
  platform: Platform,
  module: DecisionModule,
  reservation: Reservation,
  transactionHash: string,
): Promise<Reservation> {
  const registries = registriesOf(platform, reservation.environment);
  const registry = registryFor(registries, reservation.chain);
  const now = () => new Date(platform.now());
  const submitted = await recordSubmission(module.pool, registry, reservation, transactionHash, now());
  const catalogue = platform.deps.registries;
  if (catalogue === undefined) return submitted;
  return (
    (await reconcileReservation(
      { pool: module.pool, registries: catalogue, now },
      submitted.reservationId,
    )) ?? submitted
  );
}

const PARTNER_ERRORS = ["unauthorized", "key_revoked", "scope_missing", "rate_limited"] as const;

export function registerReservationRoutes(platform: Platform, module: DecisionModule): void {
  const { routes, runIdempotent } = platform;

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
    async ({ query, res }) => {
      const registry = registryFor(registriesOf(platform, partnerOf(res).environment), query.chain);
      const quote = await fromChain(
        registry.quote(query.durationSeconds as Parameters<typeof registry.quote>[0]),
      );
      res.json(quoteView(quote));
    },
  );

  const prepare = async (environment: Environment, attribution: Attribution, body: PrepareInput) => {
    const registry = registryFor(registriesOf(platform, environment), body.chain);
    const identity = normalizedOrReject(body.name, body.ticker);
    const { reservation, quote } = await module.dataPath(() =>
      prepareReservation(module.pool, registry, module.context(environment), attribution, {
        identity,
        launcher: body.launcher,
        durationSeconds: body.durationSeconds as Reservation["durationSeconds"],
      }),
    );
    return {
      status: 201,
      body: {
        ...reservationView(reservation),
        transaction: reservation.transaction,
        quote: quoteAmountView(quote),
      },
    };
  };

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
    async ({ body, req, res }) => {
      const partner = partnerOf(res);
      await runIdempotent(req, res, () =>
        prepare(
          partner.environment,
          {
            partnerId: partner.partnerId,
            apiKeyId: partner.keyId,
            launchpad: null,
            source: "partner",
          },
          body,
        ),
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
    async ({ query, res }) => {
      const partner = partnerOf(res);
      const reservation = await ownReservation(
        module,
        partner.environment,
        partner.partnerId,
        query.reservationId,
      );
      res.json(reservationView(reservation));
    },
  );

  routes.route(
    {
      method: "post",
      path: "/v1/reservations/status",
      summary:
        "Record the transaction the wallet sent (the reservation becomes submitted) and answer its reconciled status.",
      tag: TAG,
      access: { scope: "reservation:prepare" },
      body: statusBody,
      responses: { 200: { description: "The reservation.", schema: reservationSchema } },
      errors: [
        ...PARTNER_ERRORS,
        "reservation_not_found",
        "reservation_finished",
        "transaction_already_used",
        "service_unavailable",
      ],
    },
    async ({ body, res }) => {
      const partner = partnerOf(res);
      const reservation = await ownReservation(
        module,
        partner.environment,
        partner.partnerId,
        body.reservationId,
      );
      res.json(
        reservationView(await submitAndReconcile(platform, module, reservation, body.transactionHash)),
      );
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
    async ({ body, res }) => {
      const partner = partnerOf(res);
      if (partner.environment !== "sandbox") throw new ApiError("sandbox_only");
      const confirmed = await module.dataPath(() =>
        confirmSandboxReservation(
          module.pool,
          module.context("sandbox"),
          partner.partnerId,
          body.reservationId,
        ),
      );
      res.json(reservationView(confirmed));
    },
  );

  routes.route(
    {
      method: "post",
      path: "/v1/embed/reservations/prepare",
      summary:
        "Embedded prepare from a browser: attribution from an allowlisted launchpad, no key. Creates a pending prepare and a ledger draft only.",
      tag: TAG,
      access: "optional-key",
      body: embedPrepareBody,
      responses: {
        201: { description: "The pending reservation and its transaction.", schema: prepareSchema },
      },
      errors: [
        "launchpad_not_allowed",
        "identity_held",
        "renewal_not_open",
        "reservation_limit_reached",
        "price_unavailable",
        "rate_limited",
        "service_unavailable",
      ],
    },
    async ({ body, res }) => {
      const environment = res.locals.hostEnvironment;
      const partnerId = await embedPartnerOf(module.pool, body.launchpad);
      if (partnerId === undefined)
        throw new ApiError("launchpad_not_allowed", undefined, { launchpad: body.launchpad });
      const result = await prepare(
        environment,
        { partnerId, apiKeyId: null, launchpad: body.launchpad, source: "embed" },
        body,
      );
      res.status(result.status).json(result.body);
    },
  );

  routes.route(
    {
      method: "post",
      path: "/v1/embed/reservations/settle",
      summary:
        "After the wallet's transaction settled: records it, and once confirmed on-chain accrues the partner ledger and stamps the launchpad.",
      tag: TAG,
      access: "optional-key",
      body: embedSettleBody,
      responses: { 200: { description: "The settled reservation.", schema: reservationSchema } },
      errors: [
        "reservation_not_found",
        "reservation_finished",
        "reservation_not_confirmed",
        "transaction_already_used",
        "rate_limited",
        "service_unavailable",
      ],
    },
    async ({ body, res }) => {
      const environment = res.locals.hostEnvironment;
      const reservation = await reservationById(module.pool, body.reservationId, { environment });
      if (reservation === undefined || reservation.source !== "embed") {
        throw new ApiError("reservation_not_found", undefined, { reservationId: body.reservationId });
      }
      const current = await submitAndReconcile(platform, module, reservation, body.transactionHash);
      if (current.status !== "confirmed") {
        throw new ApiError("reservation_not_confirmed", undefined, {
          reservationId: current.reservationId,
          status: current.status,
        });
      }
      const settled =
        current.settledAt === null
          ? await transition(module.pool, current.reservationId, "confirmed", "confirmed", {
              settled_at: new Date(platform.now()),
            })
          : current;
      res.json(reservationView(settled ?? current));
    },
  );
}

type PrepareInput = {
  chain: string;
  name: string;
  ticker: string;
  launcher: string;
  durationSeconds: number;
};
