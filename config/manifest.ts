// The deployment manifest every part reads (indexers, API, worker, scripts): where each chain's RPC is and
// where the registries live. One schema, one validated reader, one writer. `npm run localnet` / `npm start`
// write it to DATA_DIR/deployments/local.json; `npm run deploy:evm` and `npm run deploy:solana` merge their
// entry into a manifest.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { ServiceError } from "../core/errors/serviceError";
import { explorerTemplatesSchema } from "./explorer";
import { projectPath } from "./projectRoot";

const chainName = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,31}$/, 'must be a lowercase name such as "base" or "hardhat"');
const rpcUrl = z.string().regex(/^(https?|wss?):\/\//, "must be an http(s) or ws(s) URL");
const evmAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte address")
  .transform((address) => address as `0x${string}`);
const solanaAddress = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, "must be a base58 public key");
/** A chain's websocket, where it pushes new heads (EVM) or log notices (Solana) instead of being polled. */
const wsUrl = z
  .string()
  .regex(/^wss?:\/\//, "must be a ws(s) URL")
  .optional();
const feedAnswer = z.string().regex(/^[1-9][0-9]*$/, "must be a positive whole number as a decimal string");
const height = (what: string) => z.number().int(`must be ${what}`).min(0, `must be ${what}`);

const evmEntrySchema = z.object({
  /** Name partners send as `chain` in API calls. */
  chain: chainName,
  chainId: z.number().int().positive("must be a positive integer"),
  rpcUrl,
  /**
   * Websocket of the RPC: Ponder subscribes to new heads there, so a block is indexed as soon as it is
   * announced; without it (or once it keeps failing) Ponder polls every EVM_POLLING_INTERVAL_MS.
   */
  wsUrl,
  registry: evmAddress,
  priceFeed: evmAddress,
  /** Block of the registry deployment: where indexers start. */
  deployBlock: height("the block number of the registry deployment"),
  /**
   * The registry's settings as deployed (`npm run deploy:evm` writes them; optional, so older entries still
   * read). Feed answer bounds are decimal strings in the feed's units (an 18-decimal feed's exceed 2^53); a
   * zero sequencerUptimeFeed means the registry checks no sequencer.
   */
  minAnswer: feedAnswer.optional(),
  maxAnswer: feedAnswer.optional(),
  sequencerUptimeFeed: evmAddress.optional(),
  sequencerGracePeriodSeconds: z.number().int().min(0, "must be a whole number of seconds").optional(),
  minCommitmentAgeSeconds: z.number().int().positive("must be a positive whole number of seconds").optional(),
  /**
   * The sandbox's own registry on this chain (a second deployment, never indexed): sandbox prepares target it,
   * so a signed sandbox transaction can never create a production reservation. Without it a sandbox prepare
   * returns no transaction.
   */
  sandbox: z.object({ registry: evmAddress }).optional(),
  /** Block-explorer URL templates (config/explorer.ts); none on local chains, whose answers then link nothing. */
  explorer: explorerTemplatesSchema.optional(),
});

const solanaEntrySchema = z.object({
  /** Name partners send as `chain` in API calls. */
  chain: chainName,
  rpcUrl,
  /** Websocket of the RPC: wakes the indexer early; without it the indexer only polls. */
  wsUrl,
  programId: solanaAddress,
  priceAccount: solanaAddress,
  configAccount: solanaAddress,
  /** Slot of the program deployment: where indexers start. */
  deploySlot: height("the slot of the program deployment"),
  /**
   * The cluster's genesis hash (`solana genesis-hash`): signed into on-chain launch decisions so one signed for
   * another cluster never verifies here. Without it validate signs no Solana on-chain decision.
   */
  genesisHash: solanaAddress.optional(),
  /** The sandbox's own deployment of the program (its own program id, config and price): see the EVM entry. */
  sandbox: z
    .object({ programId: solanaAddress, configAccount: solanaAddress, priceAccount: solanaAddress })
    .optional(),
  /** Block-explorer URL templates, as on the EVM entry. */
  explorer: explorerTemplatesSchema.optional(),
});

/** Other top-level sections are kept as they are, so a writer never drops what another tool put there. */
const manifestSchema = z
  .looseObject({ evm: z.array(evmEntrySchema).default([]), solana: z.array(solanaEntrySchema).default([]) })
  .superRefine((manifest, context) => {
    const seen = new Set<string>();
    for (const family of ["evm", "solana"] as const) {
      manifest[family].forEach((entry, index) => {
        if (seen.has(entry.chain)) {
          context.addIssue({
            code: "custom",
            path: [family, index, "chain"],
            message: `names "${entry.chain}" again; chain names are unique across families`,
          });
        }
        seen.add(entry.chain);
      });
    }
    manifest.evm.forEach((entry, index) => {
      if (
        entry.sandbox !== undefined &&
        entry.sandbox.registry.toLowerCase() === entry.registry.toLowerCase()
      ) {
        context.addIssue({
          code: "custom",
          path: ["evm", index, "sandbox", "registry"],
          message: "is the production registry; the sandbox needs its own deployment",
        });
      }
    });
    manifest.solana.forEach((entry, index) => {
      for (const field of ["programId", "configAccount"] as const) {
        if (entry.sandbox !== undefined && entry.sandbox[field] === entry[field]) {
          context.addIssue({
            code: "custom",
            path: ["solana", index, "sandbox", field],
            message: `is the production ${field}; the sandbox needs its own deployment`,
          });
        }
      }
    });
  });

export type EvmManifestEntry = z.infer<typeof evmEntrySchema>;
export type SolanaManifestEntry = z.infer<typeof solanaEntrySchema>;
export type DeploymentManifest = z.infer<typeof manifestSchema>;

export class ManifestError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}

export const DEFAULT_MANIFEST_PATH = projectPath("data", "deployments", "local.json");

/** Where `npm start` writes the manifest of the local chains it runs. */
export function localManifestPath(dataDir: string): string {
  return join(dataDir, "deployments", "local.json");
}

/** `evm[0].registry` from zod's ["evm", 0, "registry"]. */
function fieldName(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => (typeof key === "number" ? `[${key}]` : `${index === 0 ? "" : "."}${String(key)}`))
    .join("");
}

/** Validates a parsed manifest; throws a ManifestError naming the file and every bad field. */
export function parseManifest(value: unknown, path: string): DeploymentManifest {
  const parsed = manifestSchema.safeParse(value, {
    error: (issue) =>
      issue.code === "invalid_type"
        ? issue.input === undefined
          ? "is missing"
          : `must be ${issue.expected === "object" ? "an" : "a"} ${issue.expected}`
        : undefined,
  });
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map(
    (issue) => `  - ${fieldName(issue.path) || "(the file)"} ${issue.message}`,
  );
  throw new ManifestError(`The deployment manifest ${path} is invalid:\n${problems.join("\n")}`);
}

/** The manifest at `path`, validated; throws a ManifestError naming the file and what to fix. */
export function readManifest(path: string): DeploymentManifest {
  if (!existsSync(path)) {
    throw new ManifestError(
      `No deployment manifest at ${path}: run \`npm run localnet\` (or \`npm start\`), or set DEPLOYMENT_MANIFEST to your deployment's manifest.`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ManifestError(`The deployment manifest ${path} is not JSON: ${(error as Error).message}`);
  }
  return parseManifest(value, path);
}

/** `manifest` with each entry replacing the entry of the same chain name in its family. */
function withEntries(
  manifest: DeploymentManifest,
  entries: { evm?: readonly EvmManifestEntry[]; solana?: readonly SolanaManifestEntry[] },
): DeploymentManifest {
  const replace = <Entry extends { chain: string }>(current: Entry[], added: readonly Entry[] = []) => [
    ...current.filter((existing) => !added.some((entry) => entry.chain === existing.chain)),
    ...added,
  ];
  return {
    ...manifest,
    evm: replace(manifest.evm, entries.evm),
    solana: replace(manifest.solana, entries.solana),
  };
}

/**
 * Merges deployed entries into the manifest at `path` (created when missing): each replaces the entry of
 * the same chain; every other entry and section is kept. Validates the result, then writes atomically
 * (write, then rename), so a reader never sees half a file. Returns the manifest written.
 */
export function writeManifestEntries(
  path: string,
  entries: { evm?: readonly EvmManifestEntry[]; solana?: readonly SolanaManifestEntry[] },
): DeploymentManifest {
  const current = existsSync(path) ? readManifest(path) : parseManifest({}, path);
  const manifest = parseManifest(withEntries(current, entries), path);
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(temporary, path);
  return manifest;
}
