// Where an indexer has got with new blocks, for benches that split the copycat window into its steps
// (bench/reservations.bench.ts). Published on a diagnostics channel only while something subscribes, so it costs
// one property read when nothing does; never a source of data.
import { channel } from "node:diagnostics_channel";

export const INDEXER_PROGRESS_CHANNEL = "identity-registry:indexer-progress";

export type IndexerProgress =
  /** EVM: the heads relay passed the node's announcement of block `number` on to Ponder. */
  | { chain: string; step: "head-relayed"; number: bigint; at: number }
  /** Solana: a pass began, having read the head slot `number` (it mirrors everything up to it). */
  | { chain: string; step: "pass-started"; number: bigint; at: number };

const progress = channel(INDEXER_PROGRESS_CHANNEL);

/** `at` is performance.now() of this process. */
export function publishProgress(event: () => IndexerProgress): void {
  if (progress.hasSubscribers) progress.publish(event());
}
