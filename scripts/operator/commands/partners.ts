// Operator commands for partners: list partner access requests and production requests, close an access
// request, grant a production request (issues the partner's svc_live_ key, shown once) or decline it, and show a
// partner's row.
// Every change is written to audit_log with its actor and reason.
import { closeAccessRequest, listAccessRequests } from "../../../services/partners/accessRequests";
import { findPartner } from "../../../services/partners/partnerStore";
import {
  declineProduction,
  grantProduction,
  listProductionRequests,
} from "../../../services/partners/productionAccess";
import { PARTNER_SCOPES } from "../../../services/partners/scopes";
import { defineCommand, type OperatorCommand, UsageError } from "../command";
import { ACTOR_FLAGS, optionalFlag, requiredFlag } from "../flags";
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
  summary: "Show a partner's row: contact, verification, environments, split, integration starts, routing.",
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

export const commands: OperatorCommand[] = [requests, close, grant, decline, show];
