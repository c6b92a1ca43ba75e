// One delivery attempt in Svix's three steps: prepare (once per claim and endpoint: open the endpoint's secrets),
// dispatch (check the receiver on a fresh DNS answer, once per claim and endpoint, at its first send; sign; POST
// to the checked addresses) and handle the outcome (success, the next retry of the fixed schedule, or dead).
import type { SecretBox } from "../../core/secrets/secretBox";
import { isDeliverySuccess, retryDelayMs } from "../../core/webhook/deliveryPolicy";
import type { ClaimedDelivery, RecordedAttempt } from "./claims";
import { type OpenSecrets, openSecrets, secretsAt } from "./endpointSecrets";
import { envelopeBody, signedHeaders } from "./envelope";
import {
  checkedReceiver,
  type ReceiverPolicy,
  ReceiverRefusedError,
  type ReceiverTarget,
} from "./receiverUrl";
import { type AttemptOutcome, postToReceiver, type Transport } from "./send";

/** A claimed delivery waiting in its endpoint's queue, with what its claim prepared for the endpoint. */
export interface Queued {
  claimed: ClaimedDelivery;
  claimedAt: number;
  /** Why they could not be opened (e.g. sealed under a master key this worker lacks): nothing is sent unsigned. */
  secrets: OpenSecrets | Error;
  /** The receiver, checked at the claim's first send to the endpoint; rejects with the rule that refuses it. */
  receiver: () => Promise<ReceiverTarget>;
}

/** The endpoint's receiver check, run once, when first asked: so checks run only as fast as sends do. */
function checkedOnce(url: string, receivers: ReceiverPolicy): () => Promise<ReceiverTarget> {
  let checked: Promise<ReceiverTarget> | undefined;
  return () => {
    checked ??= checkedReceiver(url, receivers);
    return checked;
  };
}

/**
 * Prepare: the claimed deliveries queued with their endpoints' secrets and receiver check, each endpoint's
 * once per claim. The check runs after the claim and a queued delivery is sent within half its lease of the
 * claim (dispatcher.ts), so the addresses it connects to were checked at most that long before.
 */
export function queuedOf(
  box: SecretBox,
  receivers: ReceiverPolicy,
  claimed: readonly ClaimedDelivery[],
  claimedAt: number,
): Queued[] {
  const byEndpoint = new Map<string, Pick<Queued, "secrets" | "receiver">>();
  return claimed.map((delivery) => {
    // Every row of one endpoint carries the same URL and sealed secrets (read in the same statement).
    let endpoint = byEndpoint.get(delivery.endpointId);
    if (endpoint === undefined) {
      let secrets: OpenSecrets | Error;
      try {
        secrets = openSecrets(box, delivery.endpointId, delivery);
      } catch (error) {
        secrets = error as Error;
      }
      endpoint = { secrets, receiver: checkedOnce(delivery.url, receivers) };
      byEndpoint.set(delivery.endpointId, endpoint);
    }
    return { claimed: delivery, claimedAt, ...endpoint };
  });
}

export interface DispatchDeps {
  transport: Transport;
  timeoutMs: number;
  log: (line: string) => void;
}

/** Dispatch: the receiver's answer to one signed attempt made at `startedAt`, or why there is none. */
export async function dispatchAttempt(
  { claimed, secrets: opened, receiver }: Queued,
  startedAt: Date,
  deps: DispatchDeps,
): Promise<AttemptOutcome> {
  try {
    // The same rule as at registration, once per endpoint and claim; the request connects to what was checked.
    const target = await receiver();
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
