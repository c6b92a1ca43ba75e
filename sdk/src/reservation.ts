// Paying a prepared reservation as the service expects it: a new reservation is a commitment, then its reveal once
// the registry accepts it (docs/commit-reveal.md); a renewal is one transaction. The wallet stays the caller's:
// `send` signs and sends one prepared transaction and resolves with its hash once the chain included it.
import type { ServiceClient } from "./client";
import { SdkError } from "./errors";
import type { paths } from "./generated/openapi";

type Prepared = paths["/v1/reservations/prepare"]["post"]["responses"][201]["content"]["application/json"];
type Submitted = paths["/v1/reservations/status"]["post"]["responses"][200]["content"]["application/json"];
export type PreparedReservationTransaction = NonNullable<Prepared["transaction"]>;

export interface PayReservationOptions {
  /** Signs `transaction` with the launcher's wallet, sends it, and resolves with its hash once it landed. */
  send(transaction: PreparedReservationTransaction): Promise<string>;
  /**
   * Solana only: the slot the cluster is processing now (`connection.getSlot("processed")`). The reveal waits until
   * it reaches the commitment's `revealableSlot`, so it can only land in that slot or a later one.
   */
  currentSlot?: () => Promise<number>;
  /** How often to ask again while waiting. Default 500 ms. */
  pollMs?: number;
  /** How long to wait for the commitment to be visible and mature. Default 120 s. */
  timeoutMs?: number;
}

/** The reveal could not be sent: the commitment never showed on-chain, or did not mature in time. */
export class RevealNotReadyError extends SdkError {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends the prepare's transactions in order and reports each hash to POST /v1/reservations/status. Resolves with
 * the status answer to the paying transaction (`step` "reveal" or "renew"): `submitted`, or already `confirmed`.
 */
export async function payReservation(
  client: ServiceClient,
  prepared: Prepared,
  options: PayReservationOptions,
): Promise<Submitted> {
  const { reservationId, transaction, reveal } = prepared;
  if (transaction === null) {
    throw new SdkError(`Reservation ${reservationId} has no transaction to sign: ${prepared.message ?? ""}`);
  }
  const report = (transactionHash: string) =>
    client.post("/v1/reservations/status", { body: { reservationId, transactionHash } });
  const first = await report(await options.send(transaction));
  if (reveal === null) return first;

  const pollMs = options.pollMs ?? 500;
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  let committed = first;
  while (!committed.commitOnChain) {
    if (Date.now() > deadline) {
      throw new RevealNotReadyError(`The registry does not hold the commitment of ${reservationId} yet.`);
    }
    await sleep(pollMs);
    committed = await report(committed.commit?.transactionHash ?? "");
  }
  const { committedAt, revealableAt, revealableSlot } = committed.commitOnChain;
  if (revealableSlot !== null) {
    if (options.currentSlot === undefined) {
      throw new SdkError("A Solana reservation needs `currentSlot` to know when its reveal may be sent.");
    }
    while ((await options.currentSlot()) < revealableSlot) {
      if (Date.now() > deadline)
        throw new RevealNotReadyError(`Slot ${revealableSlot} did not come in time.`);
      await sleep(pollMs);
    }
  } else {
    // Chain time runs at least as fast as ours from the commit on, so the minimum age in our time is enough even
    // when the chain's clock is ahead of ours.
    const revealable = Date.parse(revealableAt);
    await sleep(Math.max(0, Math.min(revealable - Date.now(), revealable - Date.parse(committedAt))));
  }
  return report(await options.send(reveal.transaction));
}
