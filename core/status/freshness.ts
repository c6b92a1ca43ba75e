// Freshness rule: a chain's mirror may decide only while it is within its bound of the present, no more than a few
// blocks behind the chain's head, and holding again everything a revert took out of it.
import type { ChainFamily } from "./sandboxScenarios";

/** How far behind the present a chain's mirror may be and still decide (seconds). */
export const DEFAULT_FRESHNESS_BOUND_SECONDS = 60;

/**
 * How many blocks (EVM) or slots (Solana) a mirror may trail the newest head its indexer read and still decide.
 * Counted apart from the time bound because block times can run ahead of the service's clock: a stalled mirror's
 * last block then looks recent for long after newer blocks exist. EVM: Ponder indexes each announced block as it
 * comes, or each poll's blocks, so a working indexer is within a block or two of the head the runner polls; 5 leaves
 * room for bursts (10 s of a 2 s chain). Solana: a pass indexes up to the slot it read when it began, and passes
 * follow each other every second or so (400 ms slots); 50 slots is 20 s.
 */
export const LAG_BOUND_BLOCKS: Readonly<Record<ChainFamily, number>> = { evm: 5, solana: 50 };

/** What the chain mirror says about its own progress (a row of chain_checkpoints). */
export interface ChainCheckpoint {
  /** What the numbers count: EVM blocks or Solana slots. */
  family: ChainFamily;
  headNumber: number | null;
  indexedNumber: number | null;
  indexedBlockTime: Date | null;
  indexedAt: Date | null;
  /** How far the mirror had indexed when a revert last took rows out of it (null: never). */
  rewoundFrom: number | null;
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

/**
 * Whether the mirror lacks blocks it knows of, whatever their times: blocks a revert took out and not yet indexed
 * again (it may lack a reservation it showed before), or more blocks past its newest than the lag bound allows.
 */
function missesKnownBlocks(checkpoint: ChainCheckpoint): boolean {
  const { family, headNumber, indexedNumber, rewoundFrom } = checkpoint;
  if (indexedNumber === null) return true;
  if (rewoundFrom !== null && indexedNumber < rewoundFrom) return true;
  return headNumber !== null && headNumber - indexedNumber > LAG_BOUND_BLOCKS[family];
}

/** Freshness of a chain from its checkpoint (undefined: never indexed) at `now`. */
export function freshnessOf(
  checkpoint: ChainCheckpoint | undefined,
  now: Date,
  boundSeconds: number = DEFAULT_FRESHNESS_BOUND_SECONDS,
): ChainFreshness {
  if (checkpoint === undefined) return { state: "not_started", dataAsOf: null };
  const dataAsOf = checkpointDataAsOf(checkpoint);
  if (dataAsOf === null || missesKnownBlocks(checkpoint)) return { state: "behind", dataAsOf };
  return now.getTime() - dataAsOf.getTime() <= boundSeconds * 1000
    ? { state: "fresh", dataAsOf }
    : { state: "behind", dataAsOf };
}
