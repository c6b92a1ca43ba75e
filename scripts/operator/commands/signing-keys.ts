import { createSecretBox } from "../../../core/secrets/secretBox";
import {
  ensureSigningKeys,
  KEY_OVERLAP_SECONDS,
  listSigningKeys,
  retireSigningKeys,
  revokeSigningKey,
  rotateSigningKey,
} from "../../../services/signing/signingKeyStore";
import { defineCommand, type OperatorCommand } from "../command";
import { ACTOR_FLAGS, actorOf, environmentFlag, optionalFlag, requiredFlag } from "../flags";

const list = defineCommand({
  name: "signing-keys:list",
  summary: "List decision signing keys (public parts and status only).",
  usage: "signing-keys:list [--json]",
  flags: {},
  async run(_flags, { pool, out }) {
    const keys = await listSigningKeys(pool);
    for (const key of keys) {
      const since = key.revokedAt ?? key.retiringAt ?? key.createdAt;
      out(`${key.environment.padEnd(10)} ${key.status.padEnd(8)} ${key.kid}  since ${since.toISOString()}`);
    }
    if (keys.length === 0)
      out("No signing keys yet; they are created on first start (or run signing-keys:ensure).");
    return keys;
  },
});

const ensure = defineCommand({
  name: "signing-keys:ensure",
  summary:
    "Create an active signing key for each environment that has none (what the service does on first start).",
  usage: "signing-keys:ensure",
  flags: {},
  async run(_flags, { pool, masterKey, out }) {
    const created = await ensureSigningKeys(pool, createSecretBox(masterKey));
    out(created.length ? `Created ${created.join(", ")}.` : "Every environment already has an active key.");
    return { created };
  },
});

const rotate = defineCommand({
  name: "signing-keys:rotate",
  summary: `Make a new active key; the previous one stays published as retiring for ${KEY_OVERLAP_SECONDS / 60} minutes.`,
  usage: "signing-keys:rotate --environment sandbox|production --actor <who> --reason <why>",
  flags: {
    environment: { value: "sandbox|production", help: "whose key to rotate" },
    ...ACTOR_FLAGS,
  },
  async run(flags, { pool, masterKey, out }) {
    const environment = environmentFlag(flags);
    const { kid, retiringKid } = await rotateSigningKey(
      pool,
      createSecretBox(masterKey),
      environment,
      actorOf(flags),
    );
    out(`active    ${kid}`);
    out(`retiring  ${retiringKid ?? "(none)"}; retire it after the overlap with signing-keys:retire`);
    return { active: kid, retiring: retiringKid ?? null };
  },
});

const retire = defineCommand({
  name: "signing-keys:retire",
  summary:
    "Stop publishing retiring keys whose overlap has ended (or one --kid; --force inside its overlap).",
  usage: "signing-keys:retire [--kid <kid>] [--force] --actor <who> --reason <why>",
  flags: {
    kid: { value: "kid", help: "retire only this key" },
    force: { help: "retire it even inside its overlap" },
    ...ACTOR_FLAGS,
  },
  async run(flags, { pool, out }) {
    const kid = optionalFlag(flags, "kid");
    const retired = await retireSigningKeys(pool, actorOf(flags), {
      ...(kid === undefined ? {} : { kid }),
      force: flags.get("force") === true,
    });
    out(retired.length ? `Retired ${retired.join(", ")}.` : "No retiring key has finished its overlap.");
    return { retired };
  },
});

const revoke = defineCommand({
  name: "signing-keys:revoke",
  summary:
    "Emergency revocation: the key is published as revoked (decisions verify as revoked_key) from now on.",
  usage: "signing-keys:revoke --kid <kid> --actor <who> --reason <why>",
  flags: { kid: { value: "kid", help: "the key id to revoke (see signing-keys:list)" }, ...ACTOR_FLAGS },
  async run(flags, { pool, masterKey, out }) {
    const kid = requiredFlag(flags, "kid", "the key id to revoke (see signing-keys:list)");
    const { replacementKid } = await revokeSigningKey(pool, createSecretBox(masterKey), kid, actorOf(flags));
    out(`revoked   ${kid}`);
    if (replacementKid) out(`active    ${replacementKid} (replacement, the revoked key was active)`);
    return { revoked: kid, replacement: replacementKid ?? null };
  },
});

export const commands: OperatorCommand[] = [list, ensure, rotate, retire, revoke];
