// Operator commands for partners: list partner access requests and production requests, close an access
// request, grant a production request (issues the partner's svc_live_ key, shown once) or decline it, and show a
// partner's row; set a partner's revenue split and introductory period (the spec's adjustable share terms).
// Every change is written to audit_log with its actor and reason.
import { MAX_INTRODUCTORY_PERIOD_DAYS, WHOLE_BPS } from "../../../core/reservation";
import { closeAccessRequest, listAccessRequests } from "../../../services/partners/accessRequests";
import { findPartner } from "../../../services/partners/partnerStore";
import {
  declineProduction,
  grantProduction,
  listProductionRequests,
} from "../../../services/partners/productionAccess";
import { PARTNER_SCOPES } from "../../../services/partners/scopes";
import { setIntroductoryPeriodDays, setPartnerBps } from "../../../services/partners/shareTerms";
import { defineCommand, type OperatorCommand, UsageError } from "../command";
import { ACTOR_FLAGS, actorOf, optionalFlag, requiredFlag } from "../flags";
import { rateLimitOf, scopesOf } from "./api-keys";

const requests = defineCommand({
  name: "partners:requests",
  summary: "List open partner access requests (public form) and production requests (from partner keys).",
  usage: "partners:requests [--all (include closed and decided)] [--json]",
  flags: { all: { help: "include closed and decided requests" } },
  async run(flags, { pool, out }) {
    const all = flags.get("all") === true;
    const [access, production] = await Promise.all([
      listAccessRequests(pool, all),
      listProductionRequests(pool, all),
    ]);
    out(`Access requests (${access.length}):`);
    for (const request of access) {
      out(
        `  ${request.requestId}  ${request.status}  ${request.createdAt.toISOString()}  ${request.organization} <${request.email}>  ${JSON.stringify(request.intendedUse)}`,
      );
    }
    out(`Production requests (${production.length}):`);
    for (const request of production) {
      out(
        `  ${request.requestId}  ${request.status}  ${request.createdAt.toISOString()}  ${request.partnerId}  by ${request.keyId}  ${JSON.stringify(request.message)}`,
      );
    }
    return { access, production };
  },
});

const close = defineCommand({
  name: "partners:close-request",
  summary: "Close a partner access request once it is answered.",
  usage: "partners:close-request --request <par_…> --actor <who> --reason <why>",
  flags: { request: { value: "par_…", help: "the access request id" }, ...ACTOR_FLAGS },
  async run(flags, { pool, out }) {
    const requestId = requiredFlag(flags, "request", "the access request id from partners:requests (par_…)");
    const actor = requiredFlag(flags, "actor", "who closes it (for the audit log)");
    const reason = requiredFlag(flags, "reason", "how it was answered (for the audit log)");
    const request = await closeAccessRequest(pool, requestId, { actor, reason });
    out(`${request.requestId} closed by ${request.closedBy}`);
    return request;
  },
});

const grant = defineCommand({
  name: "partners:grant",
  summary: "Grant a production request: the partner gets production access and a svc_live_ key (shown once).",
  usage:
    "partners:grant --request <prq_…> [--scopes <scope,…> (default all)] [--rate-limit <1-2000, default 300>] [--label <text>] --actor <who> --reason <why>",
  flags: {
    request: { value: "prq_…", help: "the production request id" },
    scopes: { value: "scope,…", help: `default all: ${PARTNER_SCOPES.join(", ")}` },
    "rate-limit": { value: "1-2000", help: "requests per minute (default 300)" },
    label: { value: "text", help: "the key's label (default production)" },
    ...ACTOR_FLAGS,
  },
  async run(flags, { pool, out }) {
    const requestId = requiredFlag(
      flags,
      "request",
      "the production request id from partners:requests (prq_…)",
    );
    const scopesFlag = optionalFlag(flags, "scopes");
    const scopes = scopesFlag === undefined ? [...PARTNER_SCOPES] : scopesOf(scopesFlag);
    const rateLimitPerMinute = rateLimitOf(optionalFlag(flags, "rate-limit"));
    const label = optionalFlag(flags, "label");
    const actor = requiredFlag(flags, "actor", "who grants production access (for the audit log)");
    const reason = requiredFlag(flags, "reason", "why (for the audit log)");
    const { request, record, issued } = await grantProduction(
      pool,
      {
        requestId,
        scopes,
        rateLimitPerMinute,
        label: label ?? "production",
      },
      { actor, reason },
    );
    out(`request      ${request.requestId} granted`);
    out(`partnerId    ${record.partnerId}`);
    out(`keyId        ${record.keyId}`);
    out(`scopes       ${record.scopes.join(", ")}`);
    out(`rate limit   ${record.rateLimitPerMinute}/min`);
    out(`apiKey       ${issued.secret}`);
    out(
      "The API key is shown once and stored only as a hash: hand it to the partner over a secure channel now.",
    );
    return { request, key: { ...record, apiKey: issued.secret } };
  },
});

const decline = defineCommand({
  name: "partners:decline",
  summary: "Decline a production request (the partner may ask again later).",
  usage: "partners:decline --request <prq_…> --actor <who> --reason <why>",
  flags: { request: { value: "prq_…", help: "the production request id" }, ...ACTOR_FLAGS },
  async run(flags, { pool, out }) {
    const requestId = requiredFlag(
      flags,
      "request",
      "the production request id from partners:requests (prq_…)",
    );
    const actor = requiredFlag(flags, "actor", "who declines it (for the audit log)");
    const reason = requiredFlag(flags, "reason", "why (for the audit log; tell the partner by mail)");
    const request = await declineProduction(pool, requestId, { actor, reason });
    out(`${request.requestId} of ${request.partnerId} declined by ${request.decidedBy}`);
    return request;
  },
});

const show = defineCommand({
  name: "partners:show",
  summary:
    "Show a partner's row: contact, verification, environments, split, introductory period, integration starts, routing.",
  usage: "partners:show --partner <ptn_…>",
  flags: { partner: { value: "ptn_…", help: "the partner id" } },
  async run(flags, { pool, out }) {
    const partnerId = requiredFlag(flags, "partner", "the partner id (ptn_…)");
    const partner = await findPartner(pool, partnerId);
    if (partner === undefined) throw new UsageError(`No partner has id ${partnerId}.`);
    out(JSON.stringify(partner, null, 2));
    return partner;
  },
});

/** A whole number from 0 to `max` written in plain digits (no sign, exponent or fraction), else a UsageError. */
function boundedWholeNumberOf(value: string, max: number, refusal: string): number {
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(number) || number > max) throw new UsageError(refusal);
  return number;
}

export function partnerBpsOf(value: string): number {
  return boundedWholeNumberOf(
    value,
    WHOLE_BPS,
    `--partner-bps must be a whole number of basis points from 0 to ${WHOLE_BPS} (6000: 60 percent partner).`,
  );
}

export function introductoryDaysOf(value: string): number {
  return boundedWholeNumberOf(
    value,
    MAX_INTRODUCTORY_PERIOD_DAYS,
    `--days must be a whole number of days from 0 to ${MAX_INTRODUCTORY_PERIOD_DAYS} (0: no introductory period).`,
  );
}

const setRevenueShare = defineCommand({
  name: "partners:set-revenue-share",
  summary:
    "Set a partner's share of attributed fees in bps (0-10000; the service keeps the rest), both environments, for reservations prepared from now on.",
  usage: "partners:set-revenue-share --partner <ptn_…> --partner-bps <0-10000> --actor <who> --reason <why>",
  flags: {
    partner: { value: "ptn_…", help: "the partner id" },
    "partner-bps": { value: "0-10000", help: "the partner's part once its introductory period is over" },
    ...ACTOR_FLAGS,
  },
  async run(flags, { pool, out }) {
    const partnerId = requiredFlag(flags, "partner", "the partner id (ptn_…)");
    const partnerBps = partnerBpsOf(requiredFlag(flags, "partner-bps", "the partner's part, 0-10000 bps"));
    const partner = await setPartnerBps(pool, partnerId, partnerBps, actorOf(flags));
    out(
      `${partner.partnerId} now earns ${partner.partnerBps} bps (service ${partner.serviceBps}) once its introductory period is over; reservations prepared before keep their snapshot.`,
    );
    return partner;
  },
});

const setIntroductoryPeriod = defineCommand({
  name: "partners:set-introductory-period",
  summary:
    "Set how many days (0-365; 0: none) a partner's introductory period runs from each environment's integration start, for reservations prepared from now on.",
  usage: "partners:set-introductory-period --partner <ptn_…> --days <0-365> --actor <who> --reason <why>",
  flags: {
    partner: { value: "ptn_…", help: "the partner id" },
    days: { value: "0-365", help: "days of zero partner share from each integration start (0: none)" },
    ...ACTOR_FLAGS,
  },
  async run(flags, { pool, out }) {
    const partnerId = requiredFlag(flags, "partner", "the partner id (ptn_…)");
    const days = introductoryDaysOf(requiredFlag(flags, "days", "the period's length, 0-365 days"));
    const partner = await setIntroductoryPeriodDays(pool, partnerId, days, actorOf(flags));
    out(`${partner.partnerId} now has a ${partner.introductoryPeriodDays}-day introductory period.`);
    for (const [environment, integration] of Object.entries(partner.integration)) {
      if (integration !== null) out(`  ${environment}: ends ${integration.introductoryEndsAt.toISOString()}`);
    }
    return partner;
  },
});

export const commands: OperatorCommand[] = [
  requests,
  close,
  grant,
  decline,
  show,
  setRevenueShare,
  setIntroductoryPeriod,
];
