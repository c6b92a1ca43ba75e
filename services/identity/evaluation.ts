// From a snapshot to the identity's answer: which chains apply, how fresh each one is, and the status
// engine's decision. Shared by the identity check, the status lookup and validation.

import { assertLauncherFamily, assertLauncherFormat } from "../../core/address/launcherFormat";
import type { Environment } from "../../core/environment";
import { ApiError } from "../../core/errors/catalogue";
import {
  type ChainFreshness,
  type ChainInput,
  type ChainStatus,
  decideAcrossChains,
  decideChainStatus,
  freshnessOf,
  type HoldRecord,
  type IdentityRecords,
  sandboxScenarioRecords,
} from "../../core/status";
import { type ChainInfo, mergeChains } from "../mirror/chainCatalogue";
import type { DecisionSnapshot } from "./recordLoader";

/**
 * The data path that answered (spec: `adapter`): the chain mirror (`index`), the registry read over RPC while
 * the mirror cannot decide (`chain`), neither (`unavailable`). The sandbox answers from its own dataset: `mock`.
 */
export type Adapter = "index" | "chain" | "mock" | "unavailable";

/** One chain's registry record of an identity, as a hold (null: none), and when it was read. */
export interface ChainRead {
  hold: HoldRecord | null;
  readAt: Date;
}

/** The registry reads of the chains whose mirror could not decide: null where the read failed. */
export type ChainReads = ReadonlyMap<string, ChainRead | null>;

export const NO_CHAIN_READS: ChainReads = new Map();

export interface EvaluationContext {
  environment: Environment;
  /** Chains from the deployment manifest; checkpointed chains are added to them. */
  configuredChains: readonly ChainInfo[];
  freshnessBoundSeconds: number;
  now: Date;
}

export interface Evaluation {
  result: ChainStatus;
  adapter: Adapter;
  family: ChainInfo["family"];
}

/** How current the snapshot's data of `chain` is at the context's instant. */
export function chainFreshness(
  snapshot: DecisionSnapshot,
  context: EvaluationContext,
  chain: string,
): ChainFreshness {
  // The sandbox dataset lives in the service's own tables: it is as current as the query that read it.
  if (context.environment === "sandbox") return { state: "fresh", dataAsOf: context.now };
  const checkpoint = snapshot.checkpoints.find((entry) => entry.chain === chain)?.checkpoint;
  return freshnessOf(checkpoint, context.now, context.freshnessBoundSeconds);
}

/** Known chains; throws 400 for an unknown requested chain and 503 when no chain is known at all. */
export function chainsInScope(
  snapshot: DecisionSnapshot,
  context: EvaluationContext,
  chain: string | null,
): ChainInfo[] {
  const known = mergeChains(context.configuredChains, snapshot.checkpoints);
  if (known.length === 0) {
    throw new ApiError(
      "service_unavailable",
      "No chain is configured or indexed yet; retry once the indexers have started.",
    );
  }
  if (chain === null) return known;
  const match = known.find((entry) => entry.chain === chain);
  if (match === undefined) {
    throw new ApiError(
      "invalid_request",
      `Unknown chain "${chain}"; use one of: ${known.map((entry) => entry.chain).join(", ")}.`,
      {
        field: "chain",
        chains: known.map((entry) => entry.chain),
      },
    );
  }
  return [match];
}

/**
 * The chains a launcher's question applies to: a named chain (the launcher must have its family's format), or
 * without one every known chain of the launcher's family, since a wallet can launch only where its address is
 * valid. 400 for a launcher of no family, of the wrong family, or of a family no known chain has.
 */
function chainsOfLauncher(
  chains: ChainInfo[],
  chain: string | null,
  launcher: string | undefined,
): ChainInfo[] {
  if (launcher === undefined) return chains;
  if (chain !== null) {
    for (const entry of chains) assertLauncherFormat(launcher, entry.family, entry.chain);
    return chains;
  }
  const family = assertLauncherFamily(launcher);
  const ofFamily = chains.filter((entry) => entry.family === family);
  if (ofFamily.length === 0) {
    throw new ApiError(
      "invalid_request",
      `\`launcher\` is a${family === "evm" ? "n EVM" : " Solana"} address, and no ${family} chain is known; known chains: ${chains.map((entry) => entry.chain).join(", ")}.`,
      { field: "launcher", chains: chains.map((entry) => entry.chain) },
    );
  }
  return ofFamily;
}

/**
 * The chains in scope whose mirror cannot decide now (behind its bound, never indexed): on-chain first, their
 * registries are read instead. None in the sandbox, whose dataset is always current.
 */
export function chainsToRead(
  snapshot: DecisionSnapshot,
  context: EvaluationContext,
  chain: string | null,
  launcher: string | undefined,
): string[] {
  if (context.environment === "sandbox") return [];
  return chainsOfLauncher(chainsInScope(snapshot, context, chain), chain, launcher)
    .filter((entry) => chainFreshness(snapshot, context, entry.chain).state !== "fresh")
    .map((entry) => entry.chain);
}

/** The records with each chain read in place of that chain's mirror holds: the registry is the authority. */
function withChainHolds(records: IdentityRecords, reads: ChainReads): IdentityRecords {
  const holds = records.holds.filter((hold) => !reads.get(hold.chain));
  for (const read of reads.values()) if (read?.hold) holds.push(read.hold);
  return { ...records, holds };
}

function adapterOf(context: EvaluationContext, reads: ChainReads, result: ChainStatus): Adapter {
  if (context.environment === "sandbox") return "mock";
  const read = reads.get(result.chain);
  if (read) return "chain";
  const inconclusive = result.decision === "recheck_required" || result.decision === "unavailable";
  return read === null && inconclusive ? "unavailable" : "index";
}

/**
 * The records a decision reads: the snapshot's, except that a seeded sandbox scenario is built from the clock
 * on the known chains (global, read-only, always current) in place of anything stored for it.
 */
export function decisionRecords(snapshot: DecisionSnapshot, context: EvaluationContext): IdentityRecords {
  if (context.environment !== "sandbox") return snapshot.records;
  const chains = mergeChains(context.configuredChains, snapshot.checkpoints);
  return sandboxScenarioRecords(snapshot.identityKey, chains, context.now) ?? snapshot.records;
}

/**
 * Decides the identity on `chain`, or on every chain in scope (most restrictive wins) when chain is null; a chain
 * in `reads` decides on its registry record, as of its read, instead of its mirror.
 */
export function evaluate(
  snapshot: DecisionSnapshot,
  context: EvaluationContext,
  chain: string | null,
  launcher: string | undefined,
  reads: ChainReads = NO_CHAIN_READS,
): Evaluation {
  const chains = chainsOfLauncher(chainsInScope(snapshot, context, chain), chain, launcher);
  const stored = decisionRecords(snapshot, context);
  const records = reads.size === 0 ? stored : withChainHolds(stored, reads);
  const inputs = chains.map((entry): ChainInput => {
    const read = reads.get(entry.chain);
    return {
      chain: entry.chain,
      freshness: read
        ? { state: "fresh", dataAsOf: read.readAt }
        : chainFreshness(snapshot, context, entry.chain),
    };
  });
  const result =
    inputs.length === 1
      ? decideChainStatus(records, {
          ...(inputs[0] as ChainInput),
          now: context.now,
          ...(launcher === undefined ? {} : { launcher }),
        })
      : decideAcrossChains(records, inputs, launcher, context.now);
  const family = chains.find((entry) => entry.chain === result.chain)?.family ?? "evm";
  return { result, adapter: adapterOf(context, reads, result), family };
}
