import { existsSync } from "node:fs";
import { type Config, manifestPathOf } from "../../../config";
import { type DeploymentManifest, readManifest } from "../../../config/manifest";
import { ENVIRONMENTS, type Environment } from "../../../core/environment";
import { ServiceError } from "../../../core/errors/serviceError";
import { createSecretBox } from "../../../core/secrets/secretBox";
import { OPEN_END } from "../../../services/signing/registrySigners";
import {
  ensureSigningKeys,
  KEY_OVERLAP_SECONDS,
  listSigningKeys,
  retireSigningKeys,
  revokeSigningKey,
  rotateSigningKey,
} from "../../../services/signing/signingKeyStore";
import {
  type RegistrySyncResult,
  type SignerSyncReport,
  syncRegistrySigners,
} from "../../../services/signing/syncRegistrySigners";
import type { Actor } from "../../../storage/audit";
import { REGISTRY_ADMIN_KEYS } from "../../registryAdminKeys";
import { defineCommand, type OperatorCommand, type OperatorContext } from "../command";
import {
  ACTOR_FLAGS,
  actorOf,
  environmentFlag,
  optionalEnvironmentFlag,
  optionalFlag,
  requiredFlag,
} from "../flags";

// Registry sync: after every key ring change the registries of the changed environment are brought in step
// (services/signing/syncRegistrySigners.ts). A registry that fails leaves the command failing, with what to do.

/** Some registry did not sync: the key ring change stands, the registries lag it until a sync succeeds. */
class RegistrySyncFailedError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}

/**
 * The manifest the registries are in, read before the key ring changes so a bad one changes nothing. Without
 * DEPLOYMENT_MANIFEST the service runs local chains, whose manifest exists once they have run: none yet means
 * no registries. A named manifest must exist.
 */
function registryManifest(config: Config): { path: string; manifest: DeploymentManifest | null } {
  const path = manifestPathOf(config);
  if (config.chains.manifestPath === undefined && !existsSync(path)) return { path, manifest: null };
  return { path, manifest: readManifest(path) };
}

const when = (seconds: string) => new Date(Number(seconds) * 1000).toISOString();

function windowText(result: RegistrySyncResult, window: { validFrom: string; validUntil: string }): string {
  const end = BigInt(window.validUntil) >= OPEN_END[result.family] ? "open-ended" : when(window.validUntil);
  return `${when(window.validFrom)} .. ${end}`;
}

function printSync(report: SignerSyncReport, out: OperatorContext["out"]): void {
  if (report.registries.length === 0) {
    out(`registries (${report.environment}): none in the deployment manifest, nothing to keep in step`);
    return;
  }
  out(`registries (${report.environment}):`);
  for (const result of report.registries) {
    const where = `  ${result.chain} ${result.family} ${result.registry}`;
    for (const change of result.changes) {
      out(
        `${where}: ${change.kind} ${change.kid ?? "(no kid)"} ${change.signer} ${windowText(result, change.window)} tx ${change.transaction}`,
      );
    }
    if (result.error !== null) out(`${where}: FAILED ${result.error}`);
    else if (result.changes.length === 0) out(`${where}: in step`);
  }
}

/** Syncs each environment's registries, prints what happened, and throws when any registry is not in step. */
async function syncRegistries(
  { path, manifest }: ReturnType<typeof registryManifest>,
  environments: readonly Environment[],
  by: Actor,
  { pool, out }: OperatorContext,
  whatChanged: string,
): Promise<SignerSyncReport[]> {
  if (manifest === null) {
    if (environments.length > 0)
      out(`No deployment manifest at ${path} (DEPLOYMENT_MANIFEST is unset): no registries to keep in step.`);
    return [];
  }
  const reports: SignerSyncReport[] = [];
  for (const environment of environments) {
    const report = await syncRegistrySigners(pool, {
      environment,
      manifest,
      admin: REGISTRY_ADMIN_KEYS,
      by,
    });
    printSync(report, out);
    reports.push(report);
  }
  const failed = reports.flatMap((report) =>
    report.registries.filter((result) => result.error !== null).map((result) => ({ report, result })),
  );
  if (failed.length > 0) {
    const lines = failed.map(
      ({ report, result }) => `  ${report.environment} ${result.chain} ${result.registry}: ${result.error}`,
    );
    const environmentsFailed = [...new Set(failed.map(({ report }) => report.environment))];
    const only = environmentsFailed.length === 1 ? ` --environment ${environmentsFailed[0]}` : "";
    throw new RegistrySyncFailedError(
      [
        `${whatChanged}. Not in step with the key ring:`,
        ...lines,
        `Fix the cause, then run: npm run operator -- signing-keys:sync${only} --actor <who> --reason <why>`,
      ].join("\n"),
    );
  }
  return reports;
}

const list = defineCommand({
  name: "signing-keys:list",
  summary: "List decision signing keys (public parts and status only).",
  usage: "signing-keys:list [--json]",
  flags: {},
  async run(_flags, { pool, out }) {
    const keys = await listSigningKeys(pool);
    for (const key of keys) {
      const since = key.revokedAt ?? key.retiringAt ?? key.createdAt;
      const evm = key.evmAddress ?? "(no EVM address)";
      out(
        `${key.environment.padEnd(10)} ${key.status.padEnd(8)} ${key.kid}  evm ${evm}  since ${since.toISOString()}`,
      );
    }
    if (keys.length === 0)
      out("No signing keys yet; they are created on first start (or run signing-keys:ensure).");
    return keys;
  },
});

const ensure = defineCommand({
  name: "signing-keys:ensure",
  summary:
    "Create an active signing key for each environment that has none (what the service does on first start), then sync the registries.",
  usage: "signing-keys:ensure --actor <who> --reason <why>",
  flags: { ...ACTOR_FLAGS },
  async run(flags, context) {
    const by = actorOf(flags);
    const manifest = registryManifest(context.config);
    const created = await ensureSigningKeys(context.pool, createSecretBox(context.masterKey));
    context.out(
      created.length ? `Created ${created.join(", ")}.` : "Every environment already has an active key.",
    );
    const registries = await syncRegistries(
      manifest,
      ENVIRONMENTS,
      by,
      context,
      created.length ? `Created ${created.join(", ")}` : "No key was created",
    );
    return { created, registries };
  },
});

const rotate = defineCommand({
  name: "signing-keys:rotate",
  summary: `Make a new active key; the previous one stays published (and trusted by the registries) as retiring for ${KEY_OVERLAP_SECONDS / 60} minutes.`,
  usage: "signing-keys:rotate --environment sandbox|production --actor <who> --reason <why>",
  flags: {
    environment: { value: "sandbox|production", help: "whose key to rotate" },
    ...ACTOR_FLAGS,
  },
  async run(flags, context) {
    const environment = environmentFlag(flags);
    const by = actorOf(flags);
    const manifest = registryManifest(context.config);
    const { kid, retiringKid } = await rotateSigningKey(
      context.pool,
      createSecretBox(context.masterKey),
      environment,
      by,
    );
    context.out(`active    ${kid}`);
    context.out(`retiring  ${retiringKid ?? "(none)"}; retire it after the overlap with signing-keys:retire`);
    const changed = `Rotated: ${kid} is active, ${retiringKid ?? "no key"} retiring`;
    const registries = await syncRegistries(manifest, [environment], by, context, changed);
    return { active: kid, retiring: retiringKid ?? null, registries };
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
  async run(flags, context) {
    const kid = optionalFlag(flags, "kid");
    const by = actorOf(flags);
    const manifest = registryManifest(context.config);
    const before = await listSigningKeys(context.pool);
    const retired = await retireSigningKeys(context.pool, by, {
      ...(kid === undefined ? {} : { kid }),
      force: flags.get("force") === true,
    });
    context.out(
      retired.length ? `Retired ${retired.join(", ")}.` : "No retiring key has finished its overlap.",
    );
    const environments = ENVIRONMENTS.filter((environment) =>
      before.some((key) => key.environment === environment && retired.includes(key.kid)),
    );
    const registries = await syncRegistries(
      manifest,
      environments,
      by,
      context,
      `Retired ${retired.join(", ")}`,
    );
    return { retired, registries };
  },
});

const revoke = defineCommand({
  name: "signing-keys:revoke",
  summary:
    "Emergency revocation: the key is published as revoked (decisions verify as revoked_key) from now on, and the registries stop trusting it.",
  usage: "signing-keys:revoke --kid <kid> --actor <who> --reason <why>",
  flags: { kid: { value: "kid", help: "the key id to revoke (see signing-keys:list)" }, ...ACTOR_FLAGS },
  async run(flags, context) {
    const kid = requiredFlag(flags, "kid", "the key id to revoke (see signing-keys:list)");
    const by = actorOf(flags);
    const manifest = registryManifest(context.config);
    const { replacementKid } = await revokeSigningKey(
      context.pool,
      createSecretBox(context.masterKey),
      kid,
      by,
    );
    context.out(`revoked   ${kid}; the registries still trust it on-chain until the sync below succeeds`);
    if (replacementKid) context.out(`active    ${replacementKid} (replacement, the revoked key was active)`);
    const revoked = (await listSigningKeys(context.pool)).find((key) => key.kid === kid);
    const changed = `Revoked ${kid} in the key ring, but the registries below still trust it on-chain until signing-keys:sync succeeds`;
    const registries = await syncRegistries(
      manifest,
      revoked ? [revoked.environment] : [],
      by,
      context,
      changed,
    );
    return { revoked: kid, replacement: replacementKid ?? null, registries };
  },
});

const sync = defineCommand({
  name: "signing-keys:sync",
  summary:
    "Bring the registries' decision signer sets in step with the key ring (after a failed sync or a new deployment).",
  usage: "signing-keys:sync [--environment sandbox|production] --actor <who> --reason <why>",
  flags: {
    environment: {
      value: "sandbox|production",
      help: "sync only this environment's registries (default both)",
    },
    ...ACTOR_FLAGS,
  },
  async run(flags, context) {
    const environment = optionalEnvironmentFlag(flags);
    const by = actorOf(flags);
    const manifest = registryManifest(context.config);
    const environments = environment === undefined ? ENVIRONMENTS : [environment];
    return {
      registries: await syncRegistries(manifest, environments, by, context, "The key ring is unchanged"),
    };
  },
});

export const commands: OperatorCommand[] = [list, ensure, rotate, retire, revoke, sync];
