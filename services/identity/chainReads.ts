// On-chain first (DESIGN 4): when a chain's mirror is behind its freshness bound or was never indexed, the
// identity's record is read from that chain's registry over RPC (EVM: one `reservationOf` eth_call; Solana: the
// reservation PDA and the Clock in one getMultipleAccounts), within a bound of its own. Only the stale chains are
// read, so a fresh mirror costs nothing extra. The service's locks, guardian actions and launch reports still come
// from Postgres: the registry is the authority for reservations only.

import type { RegistryClient } from "../../chains/registryClient";
import { onChainKey } from "../../core/address/equality";
import type { NormalizedIdentity } from "../../core/fold";
import { withinDataPathBound } from "../../storage/dataPathBound";
import {
  type ChainRead,
  type ChainReads,
  chainsToRead,
  type EvaluationContext,
  NO_CHAIN_READS,
} from "./evaluation";
import type { DecisionSnapshot } from "./recordLoader";

/** Reads `identity` on each chain, in parallel; a chain without a registry, failing or too slow reads null. */
export interface ChainReader {
  (identity: NormalizedIdentity, chains: readonly string[]): Promise<ChainReads>;
  /** Whether `chain` has a registry this reader reads (the sandbox's simulated ones touch no chain). */
  reads(chain: string): boolean;
}

export function chainReader(
  registries: ReadonlyMap<string, RegistryClient> | undefined,
  timeoutMs: number,
  now: () => number,
): ChainReader {
  const readable = (chain: string): RegistryClient | undefined => {
    const registry = registries?.get(chain);
    return registry?.simulated === false ? registry : undefined;
  };
  const readOne = async (registry: RegistryClient, identity: NormalizedIdentity): Promise<ChainRead> => {
    // The record is at least as new as the moment it was asked for.
    const readAt = new Date(now());
    const record = await withinDataPathBound(registry.reservationOf(identity), timeoutMs);
    if (record === null) return { hold: null, readAt };
    return {
      // The registry keeps no start on EVM; a record that exists at the read holds from then on at the latest.
      hold: {
        kind: "reservation",
        chain: registry.chain,
        launcher: onChainKey(registry.family, record.launcher),
        startsAt: new Date(Math.min(readAt.getTime(), record.expiresAt.getTime())),
        expiresAt: record.expiresAt,
      },
      readAt,
    };
  };
  const read = async (identity: NormalizedIdentity, chains: readonly string[]): Promise<ChainReads> => {
    const reads = await Promise.all(
      chains.map(async (chain) => {
        const registry = readable(chain);
        if (registry === undefined) return [chain, null] as const;
        return [chain, await readOne(registry, identity).catch(() => null)] as const;
      }),
    );
    return new Map(reads);
  };
  return Object.assign(read, { reads: (chain: string) => readable(chain) !== undefined });
}

/** The registry reads of the chains whose mirror cannot decide this question (chainsToRead); none usually. */
export function readStaleChains(
  reader: ChainReader,
  snapshot: DecisionSnapshot,
  context: EvaluationContext,
  identity: NormalizedIdentity,
  chain: string | null,
  launcher: string | undefined,
): Promise<ChainReads> {
  const stale = chainsToRead(snapshot, context, chain, launcher);
  return stale.length === 0 ? Promise.resolve(NO_CHAIN_READS) : reader(identity, stale);
}
