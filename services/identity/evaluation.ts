// From a snapshot to the identity's answer: which chains apply, how fresh each one is, and the status
// engine's decision. Shared by the identity check, the status lookup and validation.

import type { Environment } from "../../core/environment";
import { ApiError } from "../../core/errors/catalogue";
import {
  type ChainFreshness,
  type ChainInput,
  type ChainStatus,
  decideAcrossChains,
  decideChainStatus,
  freshnessOf,
} from "../../core/status";
import { type ChainInfo, mergeChains } from "../mirror/chainCatalogue";
import type { DecisionSnapshot } from "./recordLoader";

/** The data path that answered (spec: `adapter`). The sandbox answers from its seeded dataset: `mock`. */
export type Adapter = "index" | "mock" | "unavailable";

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

function freshnessFor(snapshot: DecisionSnapshot, context: EvaluationContext, chain: string): ChainFreshness {
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

/** Decides the identity on `chain`, or on every chain (most restrictive wins) when chain is null. */
export function evaluate(
  snapshot: DecisionSnapshot,
  context: EvaluationContext,
  chain: string | null,
  launcher: string | undefined,
): Evaluation {
  const chains = chainsInScope(snapshot, context, chain);
  const inputs: ChainInput[] = chains.map((entry) => ({
    chain: entry.chain,
    freshness: freshnessFor(snapshot, context, entry.chain),
  }));
  const result =
    inputs.length === 1
      ? decideChainStatus(snapshot.records, {
          ...(inputs[0] as ChainInput),
          now: context.now,
          ...(launcher === undefined ? {} : { launcher }),
        })
      : decideAcrossChains(snapshot.records, inputs, launcher, context.now);
  const family = chains.find((entry) => entry.chain === result.chain)?.family ?? "evm";
  return { result, adapter: context.environment === "sandbox" ? "mock" : "index", family };
}
