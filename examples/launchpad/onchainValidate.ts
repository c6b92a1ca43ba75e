// The launchpad backend's one call for a launch its contract guards: POST /v1/launches/validate with `onchain`,
// whose answer carries the decision signed for the chain (docs/onchain-guard.md). The backend forwards `onchain`
// to the launcher's wallet as it is; the contract or program judges its signature.
import {
  type OnchainDecision,
  OnchainDecisionError,
  type OnchainDecisionRefusal,
  type ServiceClient,
} from "@identity-protection/sdk";

/** A name and ticker. */
export interface Pair {
  name: string;
  ticker: string;
}

export interface OnchainLaunchRequest extends Pair {
  chain: string;
  launcher: string;
  /** The launchpad id the decision is signed for (the contract is bound to it). */
  launchpadId: string;
  /** The factory (EVM) or launch program (Solana), and the token or mint the launch creates. */
  onchain: { launchpad: string; token: string };
}

export interface OnchainAnswer<Kind extends OnchainDecision["kind"]> {
  /** The service's decision: `allow`, `block`, ... */
  decision: string;
  onchain: Extract<OnchainDecision, { kind: Kind }>;
}

/** Validate's answer for a launch through the contract in `request.onchain`, with its decision for `kind`'s guard. */
export async function validateOnchain<Kind extends OnchainDecision["kind"]>(
  service: ServiceClient,
  kind: Kind,
  request: OnchainLaunchRequest,
): Promise<OnchainAnswer<Kind>> {
  const { launchpadId, ...fields } = request;
  const answer = await service.post("/v1/launches/validate", { body: { ...fields, launchpad: launchpadId } });
  if (answer.onchain?.kind !== kind) {
    throw new Error(
      `The service answered validate on ${request.chain} without its on-chain decision: it predates on-chain decisions, update it.`,
    );
  }
  // The generated schema types addresses as plain strings; the SDK's helpers check every field's form.
  return { decision: answer.decision, onchain: answer.onchain as Extract<OnchainDecision, { kind: Kind }> };
}

/** Why the SDK refused to build a launch (nothing was signed or sent); throws if it built one. */
export function sdkRefusal(build: () => unknown): OnchainDecisionRefusal {
  try {
    build();
  } catch (error) {
    if (error instanceof OnchainDecisionError) return error.reason;
    throw error;
  }
  throw new Error("The SDK built a launch from a decision that is not an allow: report this as a bug.");
}
