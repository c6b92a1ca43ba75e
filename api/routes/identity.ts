// The identity routes: the identity check and status (public, dataset by host), launch validation and the
// launch, bond and milestone reports (partners). Handlers only gather input and format answers.

import type { SignedDecision } from "../../core/decision";
import type { Caller, IdentityService } from "../../services/identity";
import { countDecision } from "../../telemetry/metrics";
import type { IdempotentResult } from "../platform/idempotency";
import type { RouteInput, RouteResult } from "../platform/openapi/routeTable";
import type { Platform } from "../platform/platform";
import {
  checkBody,
  checkQuery,
  checkResultSchema,
  launchReportBody,
  launchReportSchema,
  lockEventBody,
  lockResultSchema,
  statusQuery,
  statusSchema,
  validateBody,
  validationAnswerSchema,
} from "./identitySchemas";

const KEEPER_HEADER = "x-service-keeper";
const TAG = "Decisions";

function registerCheckRoutes({ routes }: Platform, identity: IdentityService): void {
  const check = async ({
    body,
    environment,
    partner,
    countPublicWrite,
  }: RouteInput<typeof checkBody, typeof checkBody, "keyless">): Promise<RouteResult> => {
    // A sandbox key on the sandbox host also sees its partner's own sandbox records; keyless, the scenarios only.
    const partnerId = partner?.partnerId ?? null;
    if (body.reservationTx === undefined) {
      return { status: 200, body: await identity.check(environment, body, partnerId) };
    }
    // Asking a chain and writing the mirror: counted as a keyless write, whatever the key.
    countPublicWrite();
    const transaction = { field: "reservationTx" as const, hash: body.reservationTx };
    return { status: 200, body: await identity.checkTransaction(environment, body, transaction, partnerId) };
  };
  const responses = {
    200: {
      description: "The identity's status and decision (read-only; holds nothing).",
      schema: checkResultSchema,
      headers: { "RateLimit-Remaining": "Requests left in this minute's window." },
    },
  };
  // The call everyone makes: a sent key is admitted in the statement that reads its snapshot.
  routes.route(
    {
      method: "get",
      path: "/v1/identity/check",
      summary:
        "Check a name/ticker pair: folded identity, status and decision. Dataset by host (sandbox host: sandbox data).",
      tag: TAG,
      access: "keyless",
      query: checkQuery,
      responses,
      errors: ["service_unavailable", "rate_limited"],
      readWithKey: ({ query, environment }) =>
        query.tx === undefined ? identity.checkReadWithKey(environment, query) : undefined,
    },
    async ({ query, environment, partner, countPublicWrite, keyedRead }) => {
      const partnerId = partner?.partnerId ?? null;
      if (query.tx === undefined) {
        return { status: 200, body: await identity.check(environment, query, partnerId, keyedRead) };
      }
      countPublicWrite(); // asking a chain and writing the mirror: counted as a keyless write, whatever the key
      const transaction = { field: "tx" as const, hash: query.tx };
      return {
        status: 200,
        body: await identity.checkTransaction(environment, query, transaction, partnerId),
      };
    },
  );
  routes.route(
    {
      method: "post",
      path: "/v1/identity/check",
      summary: "The identity check with a JSON body.",
      tag: TAG,
      access: "keyless",
      body: checkBody,
      responses,
      errors: ["service_unavailable", "rate_limited"],
    },
    check,
  );
  routes.route(
    {
      method: "get",
      path: "/v1/identity/status",
      summary: "An identity's record: current answer, answer per chain, and timeline. Dataset by host.",
      tag: TAG,
      access: "public",
      query: statusQuery,
      responses: { 200: { description: "The identity record with its timeline.", schema: statusSchema } },
      errors: ["identity_not_found", "service_unavailable"],
    },
    async ({ query, environment }) => {
      return { status: 200, body: await identity.status(environment, query.key) };
    },
  );
}

/** A signed decision is replayed only while it lives: its expiresAt ends the idempotency window. */
function decisionExpiry(result: IdempotentResult): number {
  return Date.parse((result.body as SignedDecision).expiresAt);
}

function registerValidateRoute({ routes, idempotent }: Platform, identity: IdentityService): void {
  routes.route(
    {
      method: "post",
      path: "/v1/launches/validate",
      summary:
        "Signed launch decision (Ed25519). Launch only on a verified allow; anything else means do not launch.",
      tag: TAG,
      access: { scope: "launch:validate" },
      body: validateBody,
      headers: {
        "Idempotency-Key":
          "Optional; a retry with the same key replays the stored decision until its expiresAt, then signs a fresh one.",
      },
      responses: {
        200: {
          description: "The signed decision, with unsigned advisories beside it.",
          schema: validationAnswerSchema,
          headers: { "RateLimit-Remaining": "Requests left in this minute's window." },
        },
      },
      errors: [
        "unauthorized",
        "key_revoked",
        "scope_missing",
        "rate_limited",
        "service_unavailable",
        "idempotency_key_reused",
        "idempotency_in_progress",
        "launchpad_of_another_partner",
        "launchpad_not_registered",
        "launchpad_contract_of_another_launchpad",
        "launchpad_contract_not_registered",
        "onchain_decision_unavailable",
      ],
      // The key is checked in the statement that reads the identity's snapshot.
      readWithKey: ({ body }) => identity.validationReadWithKey(body),
    },
    async ({ body, rawBody, headers, route, partner, keyedRead }) => {
      const caller: Caller = partner;
      const call = { keyId: partner.keyId, route, headers, body: rawBody, replayUntil: decisionExpiry };
      return idempotent(call, async () => {
        const decision = await identity.validate(caller, body, keyedRead);
        countDecision(caller.environment, decision.decision, decision.reason);
        return { status: 200, body: decision };
      });
    },
  );
}

function registerReportRoutes({ routes }: Platform, identity: IdentityService): void {
  routes.route(
    {
      method: "post",
      path: "/v1/launches/report",
      summary:
        "Report a launch after on-chain confirmation: records a launched event, grants no lock. Not deduplicated.",
      tag: TAG,
      access: { scope: "launch:report" },
      body: launchReportBody,
      responses: { 200: { description: "Recorded.", schema: launchReportSchema } },
      errors: [
        "unauthorized",
        "scope_missing",
        "launch_reporting_restricted",
        "launchpad_of_another_partner",
        "launchpad_not_registered",
        "rate_limited",
        "service_unavailable",
      ],
    },
    async ({ body, partner }) => {
      const result = await identity.reportLaunch(partner, body);
      return { status: 200, body: { recorded: true, ...result } };
    },
  );
  for (const kind of ["bonded", "milestone"] as const) {
    routes.route(
      {
        method: "post",
        path: `/v1/events/${kind}`,
        summary:
          kind === "bonded"
            ? "Bonding event on a launch you reported: lock of 60 days for its launcher when it held an on-chain reservation at the launch, else 48 hours. Never over another wallet's reservation; never shortens a lock. Not deduplicated."
            : "Milestone event on a launch you reported: lock of 90 days for its launcher when it held an on-chain reservation at the launch or holds one now, else 7 days. Never over another wallet's reservation; never shortens a lock. Not deduplicated.",
        tag: TAG,
        access: { scope: "event:report" },
        body: lockEventBody,
        headers: {
          "X-Service-Keeper": "Production only: a keeper credential issued to the partner by an operator.",
        },
        responses: {
          200: { description: "Recorded, with the previous and the new expiry.", schema: lockResultSchema },
        },
        errors: [
          "unauthorized",
          "scope_missing",
          "keeper_required",
          "launchpad_of_another_partner",
          "launchpad_not_registered",
          "launch_not_reported",
          "reservation_state_mismatch",
          "identity_held",
          "rate_limited",
          "service_unavailable",
        ],
      },
      async ({ body, partner, headers }) => {
        const keeper = headers[KEEPER_HEADER];
        const result = await identity.reportLock(
          partner,
          kind,
          typeof keeper === "string" ? keeper : undefined,
          body,
        );
        return { status: 200, body: { recorded: true, ...result } };
      },
    );
  }
}

/** Mounts the identity routes (/v1/identity/*, /v1/launches/*, /v1/events/*) on the platform's route table. */
export function registerIdentityRoutes(platform: Platform): void {
  const { identity } = platform.services;
  registerCheckRoutes(platform, identity);
  registerValidateRoute(platform, identity);
  registerReportRoutes(platform, identity);
}
