// Keeps every registry of an environment (deployment manifest) trusting exactly the decision signers its key
// ring wants: read the registry's set, plan (registrySigners.ts), send, and audit each change. A registry that
// fails does not stop the others; the report says which failed and why.
import type { Keypair } from "@solana/web3.js";
import type { Pool } from "pg";
import type { Hex } from "viem";
import { EvmDecisionSigners } from "../../chains/evm/decisionSigners";
import { SolanaDecisionSigners, type SolanaDeployment } from "../../chains/solana/decisionSigners";
import type { DeploymentManifest, EvmManifestEntry, SolanaManifestEntry } from "../../config/manifest";
import { sameOnChainSql } from "../../core/address/equality";
import type { Environment } from "../../core/environment";
import type { ChainFamily } from "../../core/status/sandboxScenarios";
import { type Actor, appendAudit } from "../../storage/audit";
import { withTransaction } from "../../storage/transaction";
import {
  planSignerChanges,
  type RegistrySigner,
  type SignerChange,
  type SignerWindow,
  signerOf,
} from "./registrySigners";
import { KEY_OVERLAP_SECONDS, listSigningKeys, type StoredSigningKey } from "./signingKeyStore";

const REGISTRY_SIGNER_SET_ACTION = "signing_key.registry_signer_set";
const REGISTRY_SIGNER_REVOKED_ACTION = "signing_key.registry_signer_revoked";

/** The registries' admin credentials, looked up only when a registry needs a change; `source` names where from. */
export interface RegistryAdminKeys {
  evmOwner(entry: EvmManifestEntry): { privateKey: Hex; source: string };
  solanaAdmin(entry: SolanaManifestEntry): { keypair: Keypair; source: string };
}

/** Windows as decimal strings of unix seconds: exact, and JSON (an open end exceeds 2^53). */
export interface AuditedWindow {
  validFrom: string;
  validUntil: string;
}

export interface AppliedSignerChange {
  kind: SignerChange["kind"];
  kid: string | null;
  signer: string;
  /** The window the registry holds after the change. */
  window: AuditedWindow;
  transaction: string;
}

export interface RegistrySyncResult {
  family: ChainFamily;
  chain: string;
  /** The EVM registry's address or the Solana program id. */
  registry: string;
  changes: AppliedSignerChange[];
  /** Why this registry is not in step (what was sent before it failed is in `changes`); null when it is. */
  error: string | null;
}

export interface SignerSyncReport {
  environment: Environment;
  registries: RegistrySyncResult[];
  ok: boolean;
}

/** One registry seen through the family-neutral shape the sync works with. */
interface SignerRegistry {
  family: ChainFamily;
  chain: string;
  registry: string;
  read(known: readonly string[]): Promise<{ now: bigint; signers: RegistrySigner[] }>;
  /** Loads the admin credential and checks it administers the registry. */
  connect(): Promise<(change: SignerChange) => Promise<{ transaction: string; window: SignerWindow }>>;
}

function evmRegistry(entry: EvmManifestEntry, address: string, admin: RegistryAdminKeys): SignerRegistry {
  const registry = new EvmDecisionSigners(entry, address);
  return {
    family: "evm",
    chain: entry.chain,
    registry: registry.registry,
    read: (known) => registry.read(known),
    async connect() {
      const { privateKey, source } = admin.evmOwner(entry);
      const owner = await registry.asOwner(privateKey, source);
      return (change) =>
        change.kind === "set"
          ? owner.set(change.signer, change.window.validFrom, change.window.validUntil)
          : owner.revoke(change.signer);
    },
  };
}

function solanaRegistry(
  entry: SolanaManifestEntry,
  deployment: SolanaDeployment,
  admin: RegistryAdminKeys,
): SignerRegistry {
  const registry = new SolanaDecisionSigners(entry, deployment);
  return {
    family: "solana",
    chain: entry.chain,
    registry: deployment.programId,
    read: () => registry.read(),
    async connect() {
      const { keypair, source } = admin.solanaAdmin(entry);
      const programAdmin = await registry.asAdmin(keypair, source);
      return (change) =>
        change.kind === "set"
          ? programAdmin.set(change.signer, change.window.validFrom, change.window.validUntil)
          : programAdmin.revoke(change.signer);
    },
  };
}

/** The environment's registries in the manifest: production ones, or each entry's sandbox deployment. */
function registriesOf(
  manifest: DeploymentManifest,
  environment: Environment,
  admin: RegistryAdminKeys,
): SignerRegistry[] {
  const evm = manifest.evm.flatMap((entry) => {
    const address = environment === "production" ? entry.registry : entry.sandbox?.registry;
    return address === undefined ? [] : [evmRegistry(entry, address, admin)];
  });
  const solana = manifest.solana.flatMap((entry) => {
    const deployment = environment === "production" ? entry : entry.sandbox;
    return deployment === undefined ? [] : [solanaRegistry(entry, deployment, admin)];
  });
  return [...evm, ...solana];
}

const auditedWindow = (window: SignerWindow): AuditedWindow => ({
  validFrom: window.validFrom.toString(),
  validUntil: window.validUntil.toString(),
});

/** The kid a signer the key ring no longer has (a retired key's) was last set for, from the audit log. */
async function formerKidOf(pool: Pool, family: ChainFamily, signer: string): Promise<string | null> {
  const { rows } = await pool.query<{ subject: string }>(
    `SELECT subject FROM audit_log WHERE action = $1 AND details->>'family' = $2
       AND ${sameOnChainSql("details->>'family'", "details->>'signer'", "$3")}
     ORDER BY at DESC LIMIT 1`,
    [REGISTRY_SIGNER_SET_ACTION, family, signer],
  );
  return rows[0]?.subject ?? null;
}

async function auditChange(
  pool: Pool,
  context: { registry: SignerRegistry; environment: Environment; by: Actor },
  applied: AppliedSignerChange,
): Promise<void> {
  const { registry, environment, by } = context;
  await withTransaction(pool, (client) =>
    appendAudit(client, {
      ...by,
      action: applied.kind === "set" ? REGISTRY_SIGNER_SET_ACTION : REGISTRY_SIGNER_REVOKED_ACTION,
      // A signer no audited set ever named is its own subject.
      subject: applied.kid ?? applied.signer,
      details: {
        environment,
        family: registry.family,
        chain: registry.chain,
        registry: registry.registry,
        kid: applied.kid,
        signer: applied.signer,
        window: applied.window,
        transaction: applied.transaction,
      },
    }),
  );
}

async function syncRegistry(
  pool: Pool,
  registry: SignerRegistry,
  context: { keys: readonly StoredSigningKey[]; environment: Environment; by: Actor },
): Promise<RegistrySyncResult> {
  const result: RegistrySyncResult = {
    family: registry.family,
    chain: registry.chain,
    registry: registry.registry,
    changes: [],
    error: null,
  };
  try {
    const known = context.keys.flatMap((key) => signerOf(key, registry.family) ?? []);
    const { now, signers } = await registry.read(known);
    const plan = planSignerChanges({
      family: registry.family,
      keys: context.keys,
      current: signers,
      now,
      overlapSeconds: KEY_OVERLAP_SECONDS,
    });
    if (plan.changes.length > 0) {
      const apply = await registry.connect();
      for (const change of plan.changes) {
        const { transaction, window } = await apply(change);
        const kid = change.kid ?? (await formerKidOf(pool, registry.family, change.signer));
        const applied = {
          kind: change.kind,
          kid,
          signer: change.signer,
          window: auditedWindow(window),
          transaction,
        };
        result.changes.push(applied);
        await auditChange(pool, { ...context, registry }, applied);
      }
    }
    if (plan.problems.length > 0) result.error = plan.problems.join(" ");
  } catch (error) {
    result.error = (error as Error).message;
  }
  return result;
}

/**
 * Brings every registry of `environment` in step with its key ring, all registries at once (a revocation must
 * not wait on another chain). Changes are audited as `by`; `ok` is false when any registry failed.
 */
export async function syncRegistrySigners(
  pool: Pool,
  options: { environment: Environment; manifest: DeploymentManifest; admin: RegistryAdminKeys; by: Actor },
): Promise<SignerSyncReport> {
  const { environment, manifest, admin, by } = options;
  const keys = (await listSigningKeys(pool)).filter((key) => key.environment === environment);
  const registries = await Promise.all(
    registriesOf(manifest, environment, admin).map((registry) =>
      syncRegistry(pool, registry, { keys, environment, by }),
    ),
  );
  return { environment, registries, ok: registries.every((registry) => registry.error === null) };
}
