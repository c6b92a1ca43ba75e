// Why the SDK refused to turn a validate answer's `onchain` into a launch: nothing was signed or sent. The reason is
// typed so a launchpad branches on it (and alerts on the mismatches, which mean a replayed or substituted decision).
import { SdkError } from "../errors";

export type OnchainDecisionRefusal =
  /** An answer of the other chain: an EVM decision given to the Solana helper, or the reverse. */
  | "wrong_chain_kind"
  /** A field is not what the service answers (length, encoding, form). */
  | "malformed"
  /** The service decided `block`: do not launch. */
  | "not_allow"
  /** Its expiresAt has passed by your clock: ask POST /v1/launches/validate again. */
  | "expired"
  /** EVM: another chain id. Solana: another cluster. */
  | "chain_mismatch"
  /** EVM: another factory. Solana: another launch program. */
  | "launchpad_mismatch"
  /** Solana: another identity registry program than the one you named. */
  | "registry_mismatch"
  | "launcher_mismatch"
  /** EVM: another token address. Solana: another mint. */
  | "token_mismatch"
  /** The name and ticker you send fold to other registry keys than the decision's. */
  | "identity_mismatch"
  /** Solana: the signed message is not the one the answer's own fields make. */
  | "message_mismatch";

export class OnchainDecisionError extends SdkError {
  constructor(
    readonly reason: OnchainDecisionRefusal,
    message: string,
  ) {
    super(message);
  }
}
