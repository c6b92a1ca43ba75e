// The launch guard: one call that asks for a signed decision and says launch only when everything checks
// out. It never throws and never launches on doubt: any failure (network, timeout, rate limit, 5xx, a body
// that is not a decision, a signature or key problem, a stale or foreign decision, any outcome but allow)
// resolves to { launch: false, reason } with a reason a launchpad can log and alert on.
import { DEFAULT_SKEW_SECONDS, type SignedDecision } from "../../core/decision/format";
import { type Environment, isEnvironment } from "../../core/environment";
import { foldV1 } from "../../core/fold/fold";
import { type DecisionVerificationReason, verifyDecision } from "./decision";
import { SdkConfigError } from "./errors";
import { apiBaseUrl, type Fetch, type HttpOutcome, send } from "./http";
import { DEFAULT_KEY_CACHE_MS, KeyCache } from "./keys";

export const DEFAULT_GUARD_TIMEOUT_MS = 3_000;

export interface LaunchGuardOptions {
  /** The service's base URL, e.g. `https://api.example.com` or `http://127.0.0.1:8787`; `/api` is added. */
  baseUrl: string;
  /** A `svc_sbx_` or `svc_live_` key with the `launch:validate` scope. Server-side only. */
  apiKey: string;
  /** Your launchpad id: sent as `launchpad` and required in the signed decision. */
  launchpadId: string;
  /** The environment of the key; decisions and signing keys of the other one are refused. */
  environment: Environment;
  /** Overall deadline of one check, retries, waits and key fetches included. Default 3000 ms. */
  timeoutMs?: number;
  /** How long published keys are trusted before being fetched again. Default 5 minutes. */
  keyCacheMs?: number;
  /** Clock difference tolerated on issuedAt/expiresAt. Default 30 s. */
  skewSeconds?: number;
  /** A fetch implementation; defaults to globalThis.fetch. */
  fetch?: Fetch;
  /** The clock decisions are judged by (epoch ms); defaults to Date.now. */
  now?: () => number;
}

export interface LaunchRequest {
  chain: string;
  name: string;
  ticker: string;
  /** The wallet that will deploy the token. */
  launcher: string;
  /** Sent and required back in the signed decision; a random one is made when absent. */
  nonce?: string;
}

/** Why a check said no. */
export type LaunchRefusal =
  /** A verified decision that is not allow. */
  | "blocked"
  | "recheck_required"
  /** allow_authorized_only names no wallet, so it cannot show that this launcher is the authorized one. */
  | "authorized_only"
  /** The overall deadline passed. */
  | "timeout"
  | "network_error"
  | "rate_limited"
  | "service_unavailable"
  | "server_error"
  | "unauthorized"
  | "forbidden"
  | "invalid_request"
  | "http_error"
  /** A 200 whose body is not a JSON object. */
  | "malformed_response"
  /** The published keys could not be fetched. */
  | "keys_unavailable"
  /** Every failed verification reason: bad_signature, unknown_key, revoked_key, expired, ... */
  | Exclude<DecisionVerificationReason, "ok">
  /** An unexpected error inside the SDK; still a refusal. */
  | "internal_error";

export type LaunchVerdict =
  | { launch: true; decision: SignedDecision }
  | {
      launch: false;
      reason: LaunchRefusal;
      /** The verified decision, for blocked, recheck_required and authorized_only. */
      decision?: SignedDecision;
      /** HTTP status of the last answer, when the refusal came from one. */
      status?: number;
      /** The error catalogue code of that answer, when it had the error envelope. */
      errorCode?: string;
    };

export interface LaunchGuard {
  check(request: LaunchRequest): Promise<LaunchVerdict>;
}

function positive(name: string, value: number | undefined, fallback: number, allowZero = false): number {
  const chosen = value ?? fallback;
  if (!Number.isFinite(chosen) || chosen < 0 || (!allowZero && chosen === 0)) {
    throw new SdkConfigError(`${name} must be a finite number ${allowZero ? ">= 0" : "> 0"} (got ${value}).`);
  }
  return chosen;
}

function checkedOptions(options: LaunchGuardOptions) {
  for (const field of ["baseUrl", "apiKey", "launchpadId"] as const) {
    if (typeof options[field] !== "string" || options[field].length === 0) {
      throw new SdkConfigError(`createLaunchGuard needs ${field}.`);
    }
  }
  if (!isEnvironment(options.environment)) {
    throw new SdkConfigError(`environment must be "sandbox" or "production" (got ${options.environment}).`);
  }
  const fetchFn = options.fetch ?? globalThis.fetch?.bind(globalThis);
  if (typeof fetchFn !== "function") throw new SdkConfigError("No fetch here; pass one as options.fetch.");
  return {
    apiBase: apiBaseUrl(options.baseUrl),
    timeoutMs: positive("timeoutMs", options.timeoutMs, DEFAULT_GUARD_TIMEOUT_MS),
    keyCacheMs: positive("keyCacheMs", options.keyCacheMs, DEFAULT_KEY_CACHE_MS, true),
    skewSeconds: positive("skewSeconds", options.skewSeconds, DEFAULT_SKEW_SECONDS, true),
    fetch: fetchFn as Fetch,
    now: options.now ?? Date.now,
  };
}

function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function errorCodeOf(text: string): string | undefined {
  try {
    const code = (JSON.parse(text) as { error?: { code?: unknown } } | null)?.error?.code;
    return typeof code === "string" ? code : undefined;
  } catch {
    return undefined;
  }
}

/** The refusal for anything but a 200. */
function refusalOf(outcome: Exclude<HttpOutcome, { kind: "answer"; status: 200 }>): LaunchVerdict {
  if (outcome.kind === "timeout") return { launch: false, reason: "timeout" };
  if (outcome.kind === "network_error") return { launch: false, reason: "network_error" };
  const { status } = outcome;
  const reason: LaunchRefusal =
    status === 429
      ? "rate_limited"
      : status === 503
        ? "service_unavailable"
        : status >= 500
          ? "server_error"
          : status === 401
            ? "unauthorized"
            : status === 403
              ? "forbidden"
              : status === 400
                ? "invalid_request"
                : "http_error";
  const errorCode = errorCodeOf(outcome.text);
  return { launch: false, reason, status, ...(errorCode === undefined ? {} : { errorCode }) };
}

function parsedObject(text: string): Record<string, unknown> | null {
  try {
    const body = JSON.parse(text) as unknown;
    return typeof body === "object" && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

const OUTCOME_REFUSALS: Readonly<Record<string, LaunchRefusal>> = {
  block: "blocked",
  recheck_required: "recheck_required",
  allow_authorized_only: "authorized_only",
};

export function createLaunchGuard(options: LaunchGuardOptions): LaunchGuard {
  const settings = checkedOptions(options);
  const keys = new KeyCache({
    apiBase: settings.apiBase,
    environment: options.environment,
    cacheMs: settings.keyCacheMs,
    fetch: settings.fetch,
    now: Date.now,
  });

  async function check(request: LaunchRequest, deadline: number): Promise<LaunchVerdict> {
    const nonce = request.nonce ?? randomNonce();
    const outcome = await send(
      settings.fetch,
      {
        method: "POST",
        url: `${settings.apiBase}/v1/launches/validate`,
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          "content-type": "application/json",
          accept: "application/json",
          // The same key on every retry: a retry after a lost answer gets the decision already signed.
          "idempotency-key": nonce,
        },
        body: JSON.stringify({
          chain: request.chain,
          name: request.name,
          ticker: request.ticker,
          launcher: request.launcher,
          launchpad: options.launchpadId,
          nonce,
        }),
      },
      { deadline, retry: true },
    );
    if (outcome.kind !== "answer" || outcome.status !== 200) {
      return refusalOf(outcome as Exclude<HttpOutcome, { kind: "answer"; status: 200 }>);
    }
    const decision = parsedObject(outcome.text);
    if (decision === null) return { launch: false, reason: "malformed_response", status: 200 };

    const verifyWith = (published: Parameters<typeof verifyDecision>[1]) =>
      verifyDecision(decision, published, {
        now: settings.now(),
        skewSeconds: settings.skewSeconds,
        expect: {
          environment: options.environment,
          launchpadId: options.launchpadId,
          chain: request.chain,
          launcher: request.launcher,
          nonce,
          identityKey: `${foldV1(request.name)}::${foldV1(request.ticker)}`,
        },
      });
    let published = await keys.current(deadline);
    if (published === null) return { launch: false, reason: "keys_unavailable" };
    let verdict = await verifyWith(published);
    if (verdict.reason === "unknown_key" && !published.some((key) => key.kid === decision.keyId)) {
      // A key the cache does not know (a rotation since the last fetch): fetch once more, then decide.
      published = await keys.refresh(deadline, decision.keyId as string);
      if (published === null) return { launch: false, reason: "keys_unavailable" };
      verdict = await verifyWith(published);
    }
    if (!verdict.valid) return { launch: false, reason: verdict.reason as LaunchRefusal };
    const verified = decision as unknown as SignedDecision;
    const refusal = OUTCOME_REFUSALS[verified.decision];
    if (refusal !== undefined) return { launch: false, reason: refusal, decision: verified };
    // The verifier admits only the four outcomes, so what is left is allow.
    return { launch: true, decision: verified };
  }

  return {
    async check(request) {
      try {
        const deadline = Date.now() + settings.timeoutMs;
        let timer: ReturnType<typeof setTimeout> | undefined;
        // The deadline holds even if something inside overruns it (a slow key fetch, a hung verifier).
        const expiry = new Promise<LaunchVerdict>((resolve) => {
          timer = setTimeout(() => resolve({ launch: false, reason: "timeout" }), settings.timeoutMs + 50);
        });
        try {
          return await Promise.race([check(request, deadline), expiry]);
        } finally {
          clearTimeout(timer);
        }
      } catch {
        return { launch: false, reason: "internal_error" };
      }
    },
  };
}
