// Freshness rule: a chain's mirror may decide only while it is within its bound of the present.

/** How far behind the present a chain's mirror may be and still decide (seconds). */
export const DEFAULT_FRESHNESS_BOUND_SECONDS = 60;

/** What the chain mirror says about its own progress (a row of chain_checkpoints). */
export interface ChainCheckpoint {
  headNumber: number | null;
  indexedNumber: number | null;
  indexedBlockTime: Date | null;
  indexedAt: Date | null;
}

/**
 * The data path's state for one chain at the instant of a decision:
 * - `fresh`: data as of `dataAsOf`, within the bound;
 * - `behind`: the mirror lags more than the bound (status `delayed`);
 * - `not_started`: no checkpoint yet (status `unknown`);
 * - `unavailable`: the data path could not be read at all.
 */
export type ChainFreshness =
  | { state: "fresh"; dataAsOf: Date }
  | { state: "behind"; dataAsOf: Date | null }
  | { state: "not_started"; dataAsOf: null }
  | { state: "unavailable"; dataAsOf: null };

/**
 * The instant the mirror's data is known to be complete: when the indexer has read up to the head it last
 * saw, that is when it last confirmed so, or the head block's own time when the chain's clock runs ahead of
 * the service's (a local chain moved forward; block times a little in the future); when it lags, only the
 * time of the last block it read.
 */
export function checkpointDataAsOf(checkpoint: ChainCheckpoint): Date | null {
  const caughtUp =
    checkpoint.headNumber !== null &&
    checkpoint.indexedNumber !== null &&
    checkpoint.indexedNumber >= checkpoint.headNumber;
  if (!caughtUp) return checkpoint.indexedBlockTime;
  const { indexedAt, indexedBlockTime } = checkpoint;
  if (indexedAt === null || indexedBlockTime === null) return indexedAt;
  return new Date(Math.max(indexedAt.getTime(), indexedBlockTime.getTime()));
}

/** Freshness of a chain from its checkpoint (undefined: never indexed) at `now`. */
export function freshnessOf(
  checkpoint: ChainCheckpoint | undefined,
  now: Date,
  boundSeconds: number = DEFAULT_FRESHNESS_BOUND_SECONDS,
): ChainFreshness {
  if (checkpoint === undefined) return { state: "not_started", dataAsOf: null };
  const dataAsOf = checkpointDataAsOf(checkpoint);
  if (dataAsOf === null) return { state: "behind", dataAsOf: null };
  return now.getTime() - dataAsOf.getTime() <= boundSeconds * 1000
    ? { state: "fresh", dataAsOf }
    : { state: "behind", dataAsOf };
}
