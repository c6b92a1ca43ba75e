// The reservation reconciler: moves reservations after prepare from chain state (the mirror, and the RPC for a
// submitted transaction's fate) and time. `reconcileReservation` answers for one reservation (the API's status and
// embed settle calls); `reconcilePass` is one sweep of the worker. Every change and its events commit in one
// transaction; no transaction stays open across an RPC call. Rules: reconcileRules.ts; docs/reservations.md.
import type { Pool } from "pg";
import type { RegistryCatalogue, RegistryClient } from "../../chains/registryClient";
import { isFinal } from "../../core/reservation";
import { DEFAULT_FRESHNESS_BOUND_SECONDS } from "../../core/status";
import { withTransaction } from "../../storage/transaction";
import { applyAction, type ReconcileEffect } from "./reconcileApply";
import { type ChainAnswer, decide } from "./reconcileRules";
import {
  claimQueue,
  claimSubmissions,
  lockReservation,
  mirrorCutoffs,
  mirrorEvidence,
  type Queue,
} from "./reconcileStore";
import type { Reservation } from "./record";
import { reservationById } from "./store";

export interface ReconcileDeps {
  pool: Pool;
  registries: RegistryCatalogue;
  now: () => Date;
  /** How far behind the present a chain's mirror may be for a lapse or failure to be decided from it. */
  freshnessBoundSeconds?: number;
}

export type ReconcileCounts = Record<ReconcileEffect, number> & {
  /** Submitted transactions whose chain could not be asked this pass (RPC down or no client configured). */
  chainUnavailable: number;
};

/** Rows claimed per queue transaction, and transactions per queue and pass: a pass stays bounded. */
const BATCH_SIZE = 100;
const MAX_BATCHES_PER_QUEUE = 10;
/** RPC questions in flight at once during a pass. */
const RPC_CONCURRENCY = 8;
/** A submitted transaction is asked about at most once per lease, across all replicas. */
const SUBMISSION_LEASE_SECONDS = 1;

/** Queue order matters: settlements confirm before a lapse is considered, extensions before a window ends. */
const QUEUES: readonly Queue[] = ["settled", "lapsing", "windows"];

function registryOf(deps: ReconcileDeps, reservation: Reservation): RegistryClient | undefined {
  return deps.registries[reservation.environment].get(reservation.chain);
}

/** The chain's word on a transaction: its outcome, and for a success what it settled. Never throws. */
async function askChain(
  registry: RegistryClient | undefined,
  chain: string,
  hash: string,
): Promise<ChainAnswer> {
  if (registry === undefined) {
    return { state: "unavailable", detail: `no registry client is configured for chain "${chain}"` };
  }
  try {
    const outcome = await registry.transactionOutcome(hash);
    const settlement = outcome.state === "succeeded" ? await registry.settlementOf(hash) : null;
    return { state: "answered", outcome, settlement };
  } catch (error) {
    return { state: "unavailable", detail: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Brings one reservation up to date and returns it (undefined: no such reservation). Asks the chain at most
 * once, between two short transactions.
 */
export async function reconcileReservation(
  deps: ReconcileDeps,
  reservationId: string,
): Promise<Reservation | undefined> {
  const now = deps.now();
  const bound = deps.freshnessBoundSeconds ?? DEFAULT_FRESHNESS_BOUND_SECONDS;
  const step = (chain?: { hash: string; answer: ChainAnswer }) =>
    withTransaction(deps.pool, async (client) => {
      const reservation = await reservationById(client, reservationId, { forUpdate: true });
      if (reservation === undefined || isFinal(reservation.status)) return { reservation };
      // An answer about another hash (the wallet sent a new one meanwhile) is no evidence.
      const answer = chain?.hash === reservation.transactionHash ? chain?.answer : undefined;
      const mirror = await mirrorEvidence(client, reservation, now, bound);
      const action = decide(reservation, { ...mirror, chain: answer }, now);
      if (action.kind === "ask_chain") return { reservation, askChain: chain === undefined };
      const applied = await applyAction(client, reservation, action, now);
      return { reservation: applied?.reservation ?? reservation };
    });
  const first = await step();
  const reservation = first.reservation;
  if (!first.askChain || reservation?.transactionHash == null) return reservation;
  const hash = reservation.transactionHash;
  const answer = await askChain(registryOf(deps, reservation), reservation.chain, hash);
  return (await step({ hash, answer })).reservation;
}

function emptyCounts(): ReconcileCounts {
  return {
    confirmed: 0,
    failed: 0,
    lapsed: 0,
    extended: 0,
    expiring: 0,
    expired: 0,
    reopened: 0,
    chainUnavailable: 0,
  };
}

function count(counts: ReconcileCounts, effects: readonly ReconcileEffect[]): void {
  for (const effect of effects) counts[effect] += 1;
}

/** Runs `work` over `items` with at most `limit` in flight. */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** One sweep: settlements, lapses and windows from the database, then submitted transactions from the chains. */
export async function reconcilePass(deps: ReconcileDeps): Promise<ReconcileCounts> {
  const now = deps.now();
  const bound = deps.freshnessBoundSeconds ?? DEFAULT_FRESHNESS_BOUND_SECONDS;
  // The queues' SQL narrows by these; each decision reads its own evidence (mirrorEvidence), which a revert
  // since may have changed.
  const cutoffs = await mirrorCutoffs(deps.pool, now, bound);
  const counts = emptyCounts();
  const seen: string[] = [];

  for (const queue of QUEUES) {
    for (let batch = 0; batch < MAX_BATCHES_PER_QUEUE; batch++) {
      const claimed = await withTransaction(deps.pool, async (client) => {
        const rows = await claimQueue(client, queue, now, cutoffs, seen, BATCH_SIZE);
        for (const reservation of rows) {
          seen.push(reservation.reservationId);
          const evidence = await mirrorEvidence(client, reservation, now, bound);
          const applied = await applyAction(client, reservation, decide(reservation, evidence, now), now);
          if (applied) count(counts, applied.effects);
        }
        return rows.length;
      });
      if (claimed < BATCH_SIZE) break;
    }
  }

  const submissions = await claimSubmissions(deps.pool, now, SUBMISSION_LEASE_SECONDS, BATCH_SIZE);
  await eachLimited(submissions, RPC_CONCURRENCY, async (submitted) => {
    const hash = submitted.transactionHash as string;
    const answer = await askChain(registryOf(deps, submitted), submitted.chain, hash);
    if (answer.state === "unavailable") counts.chainUnavailable += 1;
    await withTransaction(deps.pool, async (client) => {
      const reservation = await lockReservation(client, submitted.reservationId);
      if (reservation?.status !== "submitted" || reservation.transactionHash !== hash) return;
      const evidence = { ...(await mirrorEvidence(client, reservation, now, bound)), chain: answer };
      const applied = await applyAction(client, reservation, decide(reservation, evidence, now), now);
      if (applied) count(counts, applied.effects);
    });
  });
  return counts;
}
