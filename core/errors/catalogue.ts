// The one catalogue of API error codes, their HTTP statuses and default messages, and the envelope every
// non-2xx response carries: `{ error: { code, message, details } }`. Codes are stable; messages may improve.
import { ServiceError } from "./serviceError";

interface ErrorSpec {
  status: number;
  message: string;
}

export const ERROR_CATALOGUE = {
  // 400: bad input; nothing was changed.
  invalid_request: {
    status: 400,
    message: "The request is missing a required field or has an invalid value; see details.",
  },
  wallet_required: {
    status: 400,
    message: "Pass the wallet to list reservations for, as the `wallet` query parameter.",
  },
  invalid_wallet: {
    status: 400,
    message: "`wallet` must be 3 to 64 plain alphanumeric characters (no wildcards).",
  },
  wallet_family_mismatch: {
    status: 400,
    message:
      "The address or signed message belongs to the other chain family than the chain named (EVM: 0x address and Sign-In-With-Ethereum; Solana: base58 key and Sign-In-With-Solana).",
  },
  wallet_proof_unknown: {
    status: 400,
    message:
      "No challenge of yours carries this message's nonce in this environment; request one (POST /v1/partner/payout-wallets/verify/challenge for a payout wallet, POST /v1/disputes/challenge for a dispute) and sign its message.",
  },
  wallet_proof_replayed: {
    status: 400,
    message: "This challenge's nonce was already used; request a new challenge and sign its message.",
  },
  wallet_proof_expired: {
    status: 400,
    message: "This challenge expired before it was answered; request a new challenge and sign it at once.",
  },
  wallet_proof_wrong_domain: {
    status: 400,
    message: "The signed message names another domain than the one the challenge was issued for.",
  },
  wallet_proof_message_altered: {
    status: 400,
    message: "The signed message differs from the challenge's message; sign the message exactly as issued.",
  },
  wallet_proof_bad_signature: {
    status: 400,
    message: "The signature does not prove that the challenged address signed this message.",
  },
  verification_token_invalid: {
    status: 400,
    message:
      "This verification token is unknown, already used or expired (details.reason); have a new one mailed with POST /v1/partners/verify-email/resend and your API key.",
  },
  // 401: who is calling is unknown or no longer allowed.
  unauthorized: { status: 401, message: "Send a valid API key as `Authorization: Bearer <API_KEY>`." },
  key_revoked: {
    status: 401,
    message: "This API key was revoked; use its replacement or request a new key.",
  },
  // 403: the caller is known but may not do this.
  forbidden: { status: 403, message: "This API key may not perform this action." },
  scope_missing: {
    status: 403,
    message: "This API key lacks the scope this endpoint needs; see details.requiredScope.",
  },
  wrong_environment: {
    status: 403,
    message:
      "This host does not accept keys of this environment: use svc_sbx_ keys on the sandbox host and svc_live_ keys on the production host.",
  },
  launch_reporting_restricted: {
    status: 403,
    message: "Launch reporting is not enabled for this production key; ask an operator to enable it.",
  },
  keeper_required: { status: 403, message: "Production event reports need a valid X-Service-Keeper header." },
  sandbox_only: {
    status: 403,
    message: "This endpoint exists only in the sandbox; use a svc_sbx_ key on the sandbox host.",
  },
  sandbox_scenario_read_only: {
    status: 403,
    message:
      "This pair is one of the seven seeded sandbox scenarios, which every partner shares read-only; rehearse holds, reports and locks on any other pair.",
  },
  launchpad_not_allowed: {
    status: 403,
    message: "This launchpad is not allowlisted for embedded reservations; ask an operator to allow it.",
  },
  origin_not_allowed: {
    status: 403,
    message:
      "This page's origin is not registered for an allowlisted launchpad; an operator registers a launchpad's origins (embed:origin-add).",
  },
  cors_not_allowed: {
    status: 403,
    message:
      "This request is not open to browsers on other origins; call it from your server (an API key never belongs in a web page).",
  },
  launchpad_of_another_partner: {
    status: 403,
    message:
      "This launchpad id is bound to another partner; send one of your own launchpad ids, or omit `launchpad` on validate to sign your partner id.",
  },
  dispute_claimant_mismatch: {
    status: 403,
    message:
      "Only the wallet that filed this dispute can withdraw it; request a challenge for that wallet and sign it.",
  },
  launchpad_contract_not_registered: {
    status: 403,
    message:
      "This launchpad contract or program is not bound to the launchpad id of the decision; ask an operator to bind it (launchpads:bind-contract), or drop `onchain`.",
  },
  launchpad_contract_of_another_launchpad: {
    status: 403,
    message:
      "This launchpad contract or program is bound to another launchpad id; send the `launchpad` it belongs to, or a contract of your own.",
  },
  launchpad_not_registered: {
    status: 403,
    message:
      "This launchpad id is not bound to your partner account in production; ask an operator to bind it (launchpads:bind), or omit `launchpad` on validate to sign your partner id.",
  },
  email_not_verified: {
    status: 403,
    message: "Verify the key's contact email first (POST /v1/partners/verify-email).",
  },
  email_mismatch: {
    status: 403,
    message:
      "This email is not the contact email of the key's partner; send the contact email the key was created with.",
  },
  rotation_not_allowed: {
    status: 403,
    message:
      "Production keys are not rotated through the API; ask an operator (they issue the new key and revoke the old one, audited).",
  },
  // 404
  not_found: { status: 404, message: "No such resource; check the path and identifiers." },
  identity_not_found: {
    status: 404,
    message: "No identity has this key; check it is the folded NAME::TICKER form.",
  },
  dispute_not_found: {
    status: 404,
    message: "No dispute in this environment has this id; GET /v1/disputes lists them.",
  },
  reservation_not_found: { status: 404, message: "No reservation has this reservationId." },
  webhook_not_found: { status: 404, message: "No webhook endpoint of yours has this id." },
  delivery_not_found: { status: 404, message: "No webhook delivery of yours has this id." },
  // 409 / 413 / 415 / 417 / 422: conflicts with the current state or with an earlier request.
  idempotency_in_progress: {
    status: 409,
    message: "A request with this Idempotency-Key is still being processed; retry after it completes.",
  },
  identity_held: {
    status: 409,
    message: "This pair is held or protected for another wallet; check it with GET /v1/identity/check.",
  },
  sandbox_deployment_missing: {
    status: 409,
    message:
      "The sandbox has no deployment of the registry on this chain, so the sandbox host has nothing to read there; use the production host, or sandbox prepares (POST /v1/reservations/prepare), which need no chain.",
  },
  onchain_decision_unavailable: {
    status: 409,
    message:
      "This environment has no registry on this chain that a launch guard can read (or, on Solana, no cluster genesis hash in the deployment manifest), so no on-chain decision can be signed for it; drop `onchain` or ask an operator.",
  },
  launch_not_reported: {
    status: 409,
    message:
      "No launch of this identity on this chain was reported by your partner account; report the launch first (POST /v1/launches/report), then the bond or milestone.",
  },
  reservation_state_mismatch: {
    status: 409,
    message:
      "`wasReserved` contradicts the records: whether the identity was reserved is read from the on-chain reservations of the launch's launcher (details.reserved); omit `wasReserved` or send that value.",
  },
  reservation_limit_reached: {
    status: 409,
    message: "This wallet already holds the maximum of 3 active reservations; wait for one to expire.",
  },
  renewal_not_open: {
    status: 409,
    message:
      "This wallet already holds the pair; renewal opens 12 hours before its expiry (details.renewalOpensAt).",
  },
  transaction_already_used: {
    status: 409,
    message: "This transaction hash is already recorded for another reservation; send the hash of this one.",
  },
  reservation_finished: {
    status: 409,
    message: "This reservation has ended (details.status); prepare a new one.",
  },
  reservation_not_confirmed: {
    status: 409,
    message:
      "The reservation is not confirmed on-chain yet (details.status); retry once the transaction has settled.",
  },
  payout_wallet_already_verified: {
    status: 409,
    message:
      "A payout wallet of this chain family is already verified; replace it with POST /v1/partner/payout-wallets/rotate.",
  },
  payout_wallet_not_verified: {
    status: 409,
    message:
      "There is no verified payout wallet of this chain family to rotate; verify one with POST /v1/partner/payout-wallets/verify/challenge.",
  },
  dispute_already_open: {
    status: 409,
    message:
      "This wallet already has an undecided dispute about this identity (details.disputeId); follow it with GET /v1/disputes/{id}, or withdraw it before filing again.",
  },
  dispute_decided: {
    status: 409,
    message: "This dispute was already decided or withdrawn (details.status); it cannot change any more.",
  },
  payload_too_large: { status: 413, message: "The request body is too large." },
  unsupported_media_type: {
    status: 415,
    message: "Send the body as UTF-8 JSON (Content-Type: application/json; charset=utf-8).",
  },
  expectation_failed: {
    status: 417,
    message:
      "This API meets no Expect expectation but 100-continue; send the request without the Expect header.",
  },
  idempotency_key_reused: {
    status: 422,
    message: "This Idempotency-Key was used with a different request; use a new key for a new request.",
  },
  // 429
  rate_limited: {
    status: 429,
    message: "Rate limit exceeded; retry after the number of seconds in Retry-After.",
  },
  // 5xx: the service could not answer; clients fail closed (do not launch).
  internal_error: {
    status: 500,
    message: "The service failed unexpectedly; retry later. Do not launch meanwhile.",
  },
  service_unavailable: {
    status: 503,
    message: "Signing or the data path is unavailable; treat this as do not launch and retry later.",
  },
  mail_unavailable: {
    status: 503,
    message: "The verification mail could not be sent, so nothing was created; retry shortly.",
  },
  price_unavailable: {
    status: 503,
    message: "The price oracle answer is stale, so no quote can be given; retry shortly.",
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; details: unknown };
}

/** An error that the HTTP layer turns into its status and envelope. */
export class ApiError extends ServiceError {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details: unknown = null,
  ) {
    super(message ?? ERROR_CATALOGUE[code].message);
    this.status = ERROR_CATALOGUE[code].status;
  }

  toEnvelope(): ErrorEnvelope {
    return errorEnvelope(this.code, this.message, this.details);
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_CATALOGUE, value);
}

/** HTTP status of a code. */
export function errorStatus(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}

/** `{ error: { code, message, details } }`; the catalogue's message unless a more specific one is given. */
export function errorEnvelope(code: ErrorCode, message?: string, details: unknown = null): ErrorEnvelope {
  return { error: { code, message: message ?? ERROR_CATALOGUE[code].message, details } };
}
