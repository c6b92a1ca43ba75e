// What both chains' helpers refuse in an answer's `onchain` before a launcher signs anything. The guard contract and
// the launch program refuse the same launches on-chain; refusing here says why in words, before any fee is paid.
import type { OnchainDecision } from "../../../core/decision/onchain/answer";
import { foldV1 } from "../../../core/fold/fold";
import { foldedHash } from "../../../core/fold/hash";
import { SdkConfigError } from "../errors";
import { OnchainDecisionError, type OnchainDecisionRefusal } from "./errors";

/** The caller's clock: epoch milliseconds or a Date; defaults to the current time. */
export type CallerClock = Date | number;

/** Whole unix seconds of `now`. */
export function unixSecondsOf(now: CallerClock = Date.now()): number {
  const millis = now instanceof Date ? now.getTime() : now;
  if (!Number.isFinite(millis)) {
    throw new SdkConfigError(`\`now\` must be epoch milliseconds or a valid Date, got ${String(now)}.`);
  }
  return Math.floor(millis / 1000);
}

/** Refuses an answer of the other chain (answers arrive as JSON: their type is a promise, not a proof). */
export function requireKind(onchain: OnchainDecision, kind: OnchainDecision["kind"]): void {
  if (onchain?.kind !== kind) {
    throw new OnchainDecisionError(
      "wrong_chain_kind",
      `This helper launches on ${kind}, but the decision is of kind ${JSON.stringify(onchain?.kind)}: ` +
        "pass the `onchain` of a validate request for this chain's launchpad.",
    );
  }
}

/** An answer whose field is not what the service sends; `problem` is a sentence naming the field. */
export function malformed(problem: string): OnchainDecisionError {
  return new OnchainDecisionError(
    "malformed",
    `${problem} Pass the validate answer's \`onchain\` unchanged.`,
  );
}

/** Refuses anything but a live allow (its fields already checked for form). */
export function requireLiveAllow(onchain: OnchainDecision, now: CallerClock | undefined): void {
  if (onchain.decision !== "allow") {
    throw new OnchainDecisionError(
      "not_allow",
      `The service decided ${JSON.stringify(onchain.decision)} for this launch: do not launch.`,
    );
  }
  const seconds = unixSecondsOf(now);
  if (seconds >= onchain.expiresAt) {
    throw new OnchainDecisionError(
      "expired",
      `The decision expired at ${onchain.expiresAt} (unix seconds; now ${seconds}): ` +
        "ask POST /v1/launches/validate for a fresh one and launch before it expires.",
    );
  }
}

/** Refuses a decision for another name or ticker than the ones about to be sent (compared as the registry folds). */
export function requirePair(onchain: OnchainDecision, name: string, ticker: string): void {
  const nameHash = foldedHash(foldV1(name));
  const tickerHash = foldedHash(foldV1(ticker));
  if (onchain.nameHash?.toLowerCase() !== nameHash || onchain.tickerHash?.toLowerCase() !== tickerHash) {
    throw new OnchainDecisionError(
      "identity_mismatch",
      `The decision is for another name or ticker than ${JSON.stringify(name)} / ${JSON.stringify(ticker)}: ` +
        "send the name and ticker you validated, or validate these.",
    );
  }
}

/** Refuses when the decision's `field` is not the value the launch sends. */
export function requireSame(
  reason: OnchainDecisionRefusal,
  field: string,
  decided: string | number,
  sent: string | number,
): void {
  if (decided !== sent) {
    throw new OnchainDecisionError(
      reason,
      `The decision's ${field} is ${decided}, but this launch sends ${sent}: ` +
        "validate exactly the launch you send (a decision for another one is a replay or a mix-up).",
    );
  }
}
