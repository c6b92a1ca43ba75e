// One delivery attempt in Svix's three steps: prepare (open the claimed endpoints' secrets, once per claim),
// dispatch (check the receiver again on a fresh DNS answer, sign, POST to the checked address) and handle the
// outcome (success, the next retry of the fixed schedule, or dead).
import type { SecretBox } from "../../core/secrets/secretBox";
import { isDeliverySuccess, retryDelayMs } from "../../core/webhook/deliveryPolicy";
import type { ClaimedDelivery, RecordedAttempt } from "./claims";
import { type OpenSecrets, openSecrets, secretsAt } from "./endpointSecrets";
import { envelopeBody, signedHeaders } from "./envelope";
import { checkedReceiver, type ReceiverPolicy, ReceiverRefusedError } from "./receiverUrl";
import { type AttemptOutcome, postToReceiver, type Transport } from "./send";

/** A claimed delivery waiting in its endpoint's queue, with its endpoint's secrets opened at the claim. */
export interface Queued {
  claimed: ClaimedDelivery;
  claimedAt: number;
  /** Why they could not be opened (e.g. sealed under a master key this worker lacks): nothing is sent unsigned. */
  secrets: OpenSecrets | Error;
}

/** Prepare: the claimed deliveries queued with their endpoints' secrets, each endpoint's opened once. */
export function queuedOf(box: SecretBox, claimed: readonly ClaimedDelivery[], claimedAt: number): Queued[] {
  const opened = new Map<string, OpenSecrets | Error>();
  return claimed.map((delivery) => {
    // Every row of one endpoint carries the same sealed secrets (read in the same statement).
    let secrets = opened.get(delivery.endpointId);
    if (secrets === undefined) {
      try {
        secrets = openSecrets(box, delivery.endpointId, delivery);
      } catch (error) {
        secrets = error as Error;
      }
      opened.set(delivery.endpointId, secrets);
    }
    return { claimed: delivery, claimedAt, secrets };
  });
}

export interface DispatchDeps {
  receivers: ReceiverPolicy;
  transport: Transport;
  timeoutMs: number;
  log: (line: string) => void;
}

/** Dispatch: the receiver's answer to one signed attempt made at `startedAt`, or why there is none. */
export async function dispatchAttempt(
  { claimed, secrets: opened }: Queued,
  startedAt: Date,
  deps: DispatchDeps,
): Promise<AttemptOutcome> {
  try {
    // The same rule as at registration, on a fresh DNS answer; the request connects to what was checked.
    const target = await checkedReceiver(claimed.url, deps.receivers);
    if (opened instanceof Error) throw opened;
    const body = envelopeBody({
      id: claimed.id,
      type: claimed.type,
      createdAt: claimed.eventCreatedAt,
      data: claimed.data,
    });
    const timestamp = Math.floor(startedAt.getTime() / 1000);
    const headers = signedHeaders(claimed.id, body, secretsAt(opened, startedAt), timestamp);
    return await postToReceiver(deps.transport, target, body, headers, deps.timeoutMs);
  } catch (error) {
    if (error instanceof ReceiverRefusedError) return { status: null, error: error.message };
    // E.g. a secret sealed under a master key this worker lacks: nothing is sent unsigned.
    deps.log(`webhook delivery ${claimed.id} could not be prepared: ${(error as Error).message}`);
    return { status: null, error: "the delivery could not be signed; the service will retry" };
  }
}

function failureText(outcome: AttemptOutcome): string | null {
  if (outcome.status === null) return outcome.error;
  if (isDeliverySuccess(outcome.status)) return null;
  if (outcome.status >= 300 && outcome.status < 400)
    return `answered ${outcome.status}; redirects are not followed`;
  return `answered ${outcome.status}`;
}

/** Handle the outcome: the delivery's next state after an attempt that ended at `endedAt`. */
export function attemptResult(
  claimed: Pick<ClaimedDelivery, "failuresInRound">,
  outcome: AttemptOutcome,
  startedAt: Date,
  endedAt: Date,
): RecordedAttempt {
  const succeeded = outcome.status !== null && isDeliverySuccess(outcome.status);
  const delay = succeeded ? null : retryDelayMs(claimed.failuresInRound + 1);
  return {
    startedAt,
    durationMs: endedAt.getTime() - startedAt.getTime(),
    responseCode: outcome.status,
    error: failureText(outcome),
    failed: !succeeded,
    status: succeeded ? "succeeded" : delay === null ? "dead" : "pending",
    nextAttemptAt: delay === null ? null : new Date(endedAt.getTime() + delay),
  };
}
