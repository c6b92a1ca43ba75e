// @identity-protection/sdk: the fail-closed launch guard, the decision and webhook verifiers, and the typed
// client. Browser-safe: fetch and Web Crypto only, no Node built-in module (test/architecture checks it).

// The on-chain guard's answer types and its OnchainDecisionError (below) are here, so a backend that only forwards
// `onchain` needs nothing more; its helpers need viem or @solana/web3.js, so they are the ./onchain-guard entries.
export type {
  EvmOnchainDecision,
  OnchainDecision,
  OnchainDecisionRequest,
  SolanaOnchainDecision,
} from "../../core/decision/onchain/answer";
export {
  type BodyOf,
  createServiceClient,
  type HttpMethod,
  type PathsWith,
  type paths,
  type QueryOf,
  type RequestOptions,
  type ResponseOf,
  type ServiceClient,
  type ServiceClientOptions,
} from "./client";
export {
  type DecisionVerification,
  type DecisionVerificationReason,
  type ExpectedDecision,
  type SignedDecision,
  type VerifyDecisionOptions,
  verifyDecision,
} from "./decision";
export {
  SdkConfigError,
  SdkError,
  ServiceApiError,
  type ServiceErrorCode,
  ServiceNetworkError,
  WebhookVerificationError,
} from "./errors";
export type { WebhookEvent, WebhookEventType } from "./events";
export {
  createLaunchGuard,
  DEFAULT_GUARD_TIMEOUT_MS,
  type LaunchGuard,
  type LaunchGuardOptions,
  type LaunchRefusal,
  type LaunchRequest,
  type LaunchVerdict,
} from "./guard";
export { apiBaseUrl, type Fetch } from "./http";
export { DEFAULT_KEY_CACHE_MS, type PublicKeyEntry, parseKeys } from "./keys";
export { OnchainDecisionError, type OnchainDecisionRefusal } from "./onchainGuard/errors";
export {
  type PayReservationOptions,
  type PreparedReservationTransaction,
  payReservation,
  RevealNotReadyError,
} from "./reservation";
export {
  type RawBody,
  signTestWebhook,
  type TestWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
  WEBHOOK_TOLERANCE_SECONDS,
  type WebhookHeaders,
} from "./webhook";
