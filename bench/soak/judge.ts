// Judges one answer as a launchpad would: an `allow` from validate counts only if its Ed25519 signature verifies
// against the published keys (core/decision's verifier: key, environment, expiry, launchpad, chain, launcher),
// it names the identity asked about, and it was issued while the request was in flight. What is kept of each
// answer is what the report needs.
import { verifyDecision } from "../../core/decision";
import { normalizeIdentity } from "../../core/fold";
import type { PublicKeyEntry } from "../../core/keyring/publicKeyEntry";
import type { RequestCase, Route } from "./cases";
import type { Answer } from "./client";

/** Tolerance between the service's clock and the bench's when placing issuedAt within the request. */
const ISSUED_AT_TOLERANCE_MS = 2_000;

export interface Sample {
  route: Route;
  chain: string;
  /** Sent by a recovery probe rather than the steady load. */
  probe: boolean;
  expected: RequestCase["expected"];
  reservedForSomeoneElse: boolean;
  sentAt: number;
  receivedAt: number;
  status: Answer["status"];
  decision: string | undefined;
  /** Why a validate `allow` is not one a launchpad may act on; undefined when it is (or not an allow). */
  verificationFailure: string | undefined;
}

export interface Verifier {
  keys: readonly PublicKeyEntry[];
  /** The launchpad id every decision of the bench's key must carry. */
  partnerId: string;
}

function decisionOf(body: unknown): string | undefined {
  const decision = (body as { decision?: unknown } | undefined)?.decision;
  return typeof decision === "string" ? decision : undefined;
}

/** Why `body`, an allow answered to `request` between `sentAt` and `receivedAt`, may not be acted on. */
export function allowProblem(
  request: RequestCase,
  body: unknown,
  sentAt: number,
  receivedAt: number,
  verifier: Verifier,
): string | undefined {
  const verified = verifyDecision(body, {
    keys: verifier.keys,
    environment: "production",
    expect: { launchpadId: verifier.partnerId, chain: request.chain, launcher: request.launcher },
    now: receivedAt,
  });
  if (!verified.valid) return verified.reason;
  const decision = body as { identityKey: string; issuedAt: string };
  if (decision.identityKey !== normalizeIdentity(request.identity.name, request.identity.ticker).identityKey)
    return "identity_mismatch";
  const issuedAt = Date.parse(decision.issuedAt);
  if (issuedAt < sentAt - ISSUED_AT_TOLERANCE_MS || issuedAt > receivedAt + ISSUED_AT_TOLERANCE_MS)
    return "issued_outside_request";
  return undefined;
}

export function judge(
  request: RequestCase,
  answer: Answer,
  times: { sentAt: number; receivedAt: number },
  verifier: Verifier,
  probe: boolean,
): Sample {
  const decision = answer.status === 200 ? decisionOf(answer.body) : undefined;
  const mustVerify = request.route === "validate" && decision === "allow";
  return {
    route: request.route,
    chain: request.chain,
    probe,
    expected: request.expected,
    reservedForSomeoneElse: request.reservedForSomeoneElse,
    ...times,
    status: answer.status,
    decision,
    verificationFailure: mustVerify
      ? allowProblem(request, answer.body, times.sentAt, times.receivedAt, verifier)
      : undefined,
  };
}
