// Operator commands for partner API keys: provision production keys with scopes and a rate limit, list them,
// and revoke them. Every change is written to audit_log with its actor and reason.

import { isEnvironment } from "../../../core/environment";
import {
  createApiKey,
  listApiKeys,
  revokeApiKey,
  setRateLimit,
} from "../../../services/partners/apiKeyStore";
import {
  PRODUCTION_DEFAULT_RATE_LIMIT,
  PRODUCTION_MAX_RATE_LIMIT,
} from "../../../services/partners/rateWindow";
import { isPartnerScope, PARTNER_SCOPES, type PartnerScope } from "../../../services/partners/scopes";
import { appendAudit } from "../../../storage/audit";
import { withTransaction } from "../../../storage/transaction";
import { defineCommand, type OperatorCommand, UsageError } from "../command";
import { ACTOR_FLAGS, actorOf, optionalFlag, requiredFlag } from "../flags";

export function scopesOf(text: string): PartnerScope[] {
  const scopes = text
    .split(",")
    .map((scope) => scope.trim())
    .filter(Boolean);
  const unknown = scopes.filter((scope) => !isPartnerScope(scope));
  if (scopes.length === 0 || unknown.length > 0) {
    throw new UsageError(
      `--scopes must be a comma-separated list of: ${PARTNER_SCOPES.join(", ")}${unknown.length ? ` (unknown: ${unknown.join(", ")})` : ""}.`,
    );
  }
  return scopes as PartnerScope[];
}

export function rateLimitOf(value: string | undefined): number {
  if (value === undefined) return PRODUCTION_DEFAULT_RATE_LIMIT;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > PRODUCTION_MAX_RATE_LIMIT) {
    throw new UsageError(
      `--rate-limit must be a whole number of requests per minute from 1 to ${PRODUCTION_MAX_RATE_LIMIT}.`,
    );
  }
  return limit;
}

const create = defineCommand({
  name: "api-keys:create",
  summary: "Provision a production API key (svc_live_) with scopes and a per-minute rate limit.",
  usage:
    "api-keys:create --label <text> --scopes <scope,…> [--partner <partner_id>] [--rate-limit <1-2000, default 300>] --actor <who> --reason <why>",
  flags: {
    label: { value: "text", help: "a name for the key" },
    scopes: { value: "scope,…", help: PARTNER_SCOPES.join(", ") },
    partner: { value: "partner_id", help: "the partner it belongs to (default: a new partner)" },
    "rate-limit": { value: "1-2000", help: `requests per minute (default ${PRODUCTION_DEFAULT_RATE_LIMIT})` },
    ...ACTOR_FLAGS,
  },
  async run(flags, { pool, out }) {
    const label = requiredFlag(flags, "label", "a name for the key, e.g. the partner and purpose");
    const scopes = scopesOf(requiredFlag(flags, "scopes", `one or more of ${PARTNER_SCOPES.join(", ")}`));
    const rateLimitPerMinute = rateLimitOf(optionalFlag(flags, "rate-limit"));
    const actor = requiredFlag(flags, "actor", "who provisions the key (for the audit log)");
    const reason = requiredFlag(flags, "reason", "why (for the audit log)");
    const partner = optionalFlag(flags, "partner");
    const { record, issued } = await withTransaction(pool, async (client) => {
      const created = await createApiKey(client, {
        environment: "production",
        scopes,
        rateLimitPerMinute,
        label,
        createdBy: actor,
        ...(typeof partner === "string" ? { partnerId: partner } : {}),
      });
      await appendAudit(client, {
        actor,
        reason,
        action: "api_key.create",
        subject: created.record.keyId,
        details: { partnerId: created.record.partnerId, scopes, rateLimitPerMinute, label },
      });
      return created;
    });
    out(`keyId        ${record.keyId}`);
    out(`partnerId    ${record.partnerId}`);
    out(`scopes       ${record.scopes.join(", ")}`);
    out(`rate limit   ${record.rateLimitPerMinute}/min`);
    out(`apiKey       ${issued.secret}`);
    out(
      "The API key is shown once and stored only as a hash: hand it to the partner over a secure channel now.",
    );
    return { ...record, apiKey: issued.secret };
  },
});

const list = defineCommand({
  name: "api-keys:list",
  summary: "List API keys (never their secrets).",
  usage:
    "api-keys:list [--environment sandbox|production] [--partner <partner_id>] [--all (include revoked)] [--json]",
  flags: {
    environment: { value: "sandbox|production", help: "only this environment's keys" },
    partner: { value: "partner_id", help: "only this partner's keys" },
    all: { help: "include revoked keys" },
  },
  async run(flags, { pool, out }) {
    const environment = optionalFlag(flags, "environment");
    if (environment !== undefined && !isEnvironment(environment)) {
      throw new UsageError("--environment must be sandbox or production.");
    }
    const partner = optionalFlag(flags, "partner");
    const keys = await listApiKeys(pool, {
      ...(environment !== undefined ? { environment } : {}),
      ...(typeof partner === "string" ? { partnerId: partner } : {}),
      includeRevoked: flags.get("all") === true,
    });
    if (keys.length === 0) out("No keys match.");
    for (const key of keys) {
      const state = key.revokedAt ? `revoked ${key.revokedAt.toISOString()} by ${key.revokedBy}` : "active";
      out(
        `${key.keyId}  ${key.displayPrefix}  ${key.environment}  ${key.partnerId}  ${key.rateLimitPerMinute}/min  [${key.scopes.join(",")}]  ${key.label || "-"}  ${state}`,
      );
    }
    return keys;
  },
});

const revoke = defineCommand({
  name: "api-keys:revoke",
  summary: "Revoke an API key at once (its next request gets 401 key_revoked).",
  usage: "api-keys:revoke --key <key_id> --actor <who> --reason <why>",
  flags: { key: { value: "key_id", help: "the key id from api-keys:list (key_…)" }, ...ACTOR_FLAGS },
  async run(flags, { pool, out }) {
    const keyId = requiredFlag(flags, "key", "the key id from api-keys:list (key_…), never the secret");
    const actor = requiredFlag(flags, "actor", "who revokes the key (for the audit log)");
    const reason = requiredFlag(flags, "reason", "why (for the audit log)");
    const key = await revokeApiKey(pool, keyId, { actor, reason });
    out(`${key.keyId} revoked at ${key.revokedAt?.toISOString()} by ${key.revokedBy}: ${key.revokedReason}`);
    return key;
  },
});

const setLimit = defineCommand({
  name: "api-keys:set-rate-limit",
  summary: "Set a production key's requests per minute (1-2000), effective from its next request.",
  usage: "api-keys:set-rate-limit --key <key_id> --rate-limit <1-2000> --actor <who> --reason <why>",
  flags: {
    key: { value: "key_id", help: "the key id from api-keys:list (key_…)" },
    "rate-limit": { value: "1-2000", help: "requests per minute" },
    ...ACTOR_FLAGS,
  },
  async run(flags, { pool, out }) {
    const keyId = requiredFlag(flags, "key", "the key id from api-keys:list (key_…), never the secret");
    const perMinute = rateLimitOf(requiredFlag(flags, "rate-limit", "the new requests per minute, 1-2000"));
    const key = await setRateLimit(pool, keyId, perMinute, actorOf(flags));
    out(`${key.keyId} now allows ${key.rateLimitPerMinute} requests per minute.`);
    return key;
  },
});

export const commands: OperatorCommand[] = [create, list, revoke, setLimit];
