// Admission by a route's access: partner keys (Bearer key -> host/environment rule -> key lookup and rate count,
// one query per batch of concurrent requests -> revocation -> rate limit -> scope) and the keyless windows per
// client address. This is the HTTP side (header, host rule, rate-limit headers); the key rules are
// services/partners (admission, keyAuthentication).
import type { Request, Response } from "express";
import type { Pool } from "pg";
import type { Environment } from "../../core/environment";
import { ApiError } from "../../core/errors/catalogue";
import {
  assertScope,
  type KeyedCall,
  keyEnvironmentOf,
  keyedCallOf,
  type PartnerContext,
} from "../../services/partners/admission";
import { type Authenticator, batchedAuthenticator } from "../../services/partners/keyAuthentication";
import {
  isOverLimit,
  type RateState,
  rateLimitedError,
  rateLimitHeaders,
} from "../../services/partners/rateWindow";
import type { PartnerScope } from "../../services/partners/scopes";
import { type HostClass, hostEnvironmentOf } from "./hosts";
import { KeylessLimiter } from "./keylessLimiter";
import type { RouteAccess } from "./openapi/routeTable";

declare global {
  namespace Express {
    interface Locals {
      /** The web pages' host class (api/app.ts). */
      hostClass: HostClass;
      /** The dataset the pages show: "sandbox" on sandbox hosts, else "production". */
      hostEnvironment: Environment;
    }
  }
}

export interface PartnerAuthOptions {
  pool: Pool;
  /** Milliseconds since the epoch; the rate window is the clock minute of this time. */
  now: () => number;
  /** Per-minute limit of keyless calls to "keyless" routes, per client address and process; 0: off. */
  keylessLimitPerMinute: number;
  /** Per-minute limit of calls to "public-write" routes (they write and check signatures), counted the same way. */
  publicWriteLimitPerMinute: number;
}

const BEARER = /^Bearer ([^\s]+)$/i;

const KEYLESS_ROUTE_KEY_REVOKED_MESSAGE =
  "This API key was revoked. This endpoint needs no key: send the request without the Authorization header for the public answer, or use the key's replacement.";

function bearerKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = BEARER.exec(header.trim());
  if (!match) {
    throw new ApiError("unauthorized", "Send the API key as `Authorization: Bearer <API_KEY>`.");
  }
  return match[1];
}

function assertHostAccepts(hostClass: HostClass, keyEnvironment: Environment): void {
  if (hostClass !== "canonical" && hostClass !== keyEnvironment) {
    throw new ApiError(
      "wrong_environment",
      `This is the ${hostClass} host and the key is a ${keyEnvironment} key. Use svc_sbx_ keys on the sandbox host and svc_live_ keys on the production host (the canonical host accepts both).`,
      { host: hostClass, keyEnvironment },
    );
  }
}

/** Where the rate-limit headers of a request go. */
export type HeaderSink = (name: string, value: string) => void;

/** Applies the rate state: headers on every answer, a 429 once the window's count passes the limit. */
function enforceRate(rate: RateState, setHeader: HeaderSink): void {
  for (const [name, value] of Object.entries(rateLimitHeaders(rate))) setHeader(name, value);
  if (isOverLimit(rate)) throw rateLimitedError(rate);
}

/** Told of the caller as soon as its key is found and unrevoked, before the rate and scope checks. */
export type CallerSink = (partner: PartnerContext) => void;

async function authenticate(
  options: PartnerAuthOptions,
  authenticator: Authenticator,
  raw: string,
  { hostClass, setHeader, seen }: AdmissionRequest,
): Promise<KeyedCall> {
  assertHostAccepts(hostClass, keyEnvironmentOf(raw));
  const call = keyedCallOf(await authenticator({ raw, nowMs: options.now() }));
  // A refused call of a known key (429, 403 scope) is its holder's request too: it is logged and counted.
  seen?.(call.partner);
  enforceRate(call.rate, setHeader);
  return call;
}

/** What an admission reads of a request, and where it reports. */
export interface AdmissionRequest {
  authorization: string | undefined;
  hostClass: HostClass;
  /** Where the call's rate headers go. */
  setHeader: HeaderSink;
  /**
   * Replaces the batched key statement, for a route that reads its own data in the same statement
   * (RouteDeclaration.readWithKey).
   */
  authenticator?: Authenticator | undefined;
  /** Told the caller once its key is known (the request log). */
  seen?: CallerSink | undefined;
}

/**
 * Admits a partner call: the Authorization header's key, valid on this host, within its rate limit and
 * holding `scope` (any key when omitted). Rate-limit headers go to `setHeader`, on refusals too.
 */
type PartnerAdmission = (
  request: AdmissionRequest & { scope: PartnerScope | undefined },
) => Promise<KeyedCall>;

/**
 * Counts a web page's call against the keyless limit of its client address, whatever headers it carries (the
 * pages never spend a partner key's budget); throws 429 rate_limited past the limit.
 */
export type KeylessCounter = (req: Request, res: Response) => void;

/**
 * Admits a call to a keyless route: a sent key as PartnerAdmission does (no scope needed), or without one the client
 * address's keyless count in the host's environment. The answer carries the partner only for a key, and the
 * rate window whenever one was counted.
 */
type KeylessAdmission = (
  request: AdmissionRequest & { clientAddress: string | undefined },
) => Promise<Partial<KeyedCall>>;

/**
 * Counts a call in the keyless-write window of its client address and host environment (429 rate_limited past
 * it), whatever the route's access class: for a read that also writes, the identity check carrying a reservation
 * transaction (it asks a chain and may write the mirror).
 */
export type PublicWriteCounter = (
  hostClass: HostClass,
  clientAddress: string | undefined,
  setHeader: HeaderSink,
) => RateState | undefined;

/** Admits a call by its route's access: the caller's partner when a key admitted it, and its rate window. */
export type AccessAdmission = (
  access: RouteAccess,
  request: AdmissionRequest & { clientAddress: string | undefined },
) => Promise<Partial<KeyedCall>>;

/**
 * Counts keyless calls per client address and host environment in this process against `limitPerMinute`
 * (0: off, nothing counted); 429 past it, with the rate headers on every counted answer.
 */
function clientCounter(limitPerMinute: number, now: () => number) {
  const limiter = new KeylessLimiter(limitPerMinute);
  return (
    hostClass: HostClass,
    clientAddress: string | undefined,
    setHeader: HeaderSink,
  ): RateState | undefined => {
    if (limitPerMinute <= 0) return undefined;
    const rate = limiter.count(`${hostEnvironmentOf(hostClass)}:${clientAddress ?? "unknown"}`, now());
    enforceRate(rate, setHeader);
    return rate;
  };
}

/** The admissions of the route accesses (`admit`) and the page's keyless counter. */
export function partnerGuard(options: PartnerAuthOptions) {
  const authenticator = batchedAuthenticator(options.pool);
  const keyedCall = (raw: string, request: AdmissionRequest) =>
    authenticate(options, request.authenticator ?? authenticator, raw, request);
  const admitPartner: PartnerAdmission = async (request) => {
    const raw = bearerKey(request.authorization);
    if (raw === undefined) {
      throw new ApiError(
        "unauthorized",
        "This endpoint needs an API key: send `Authorization: Bearer <API_KEY>`.",
      );
    }
    const call = await keyedCall(raw, request);
    if (request.scope) assertScope(call.partner, request.scope);
    return call;
  };
  /**
   * A key is used when sent; keyless callers are counted per client address and host environment. A sent key is
   * judged like anywhere else, so a revoked one is 401 key_revoked, not served as keyless: a caller learns of the
   * revocation at its next request (spec: a revoked key is rejected immediately), and the message says the
   * keyless answer is one header away.
   */
  const countKeylessCall = clientCounter(options.keylessLimitPerMinute, options.now);
  const countKeyless: KeylessCounter = (req, res) => {
    countKeylessCall(res.locals.hostClass, req.socket.remoteAddress, (name, value) =>
      res.setHeader(name, value),
    );
  };
  const admitKeyless: KeylessAdmission = async (request) => {
    const raw = bearerKey(request.authorization);
    if (raw !== undefined) {
      return keyedCall(raw, request).catch((error: unknown) => {
        throw error instanceof ApiError && error.code === "key_revoked"
          ? new ApiError("key_revoked", KEYLESS_ROUTE_KEY_REVOKED_MESSAGE)
          : error;
      });
    }
    const rate = countKeylessCall(request.hostClass, request.clientAddress, request.setHeader);
    return rate === undefined ? {} : { rate };
  };
  /** Keyless writes: no key is read, every call counts against the client address's own window. */
  const countPublicWrite = clientCounter(options.publicWriteLimitPerMinute, options.now);
  const admit: AccessAdmission = async (access, request) => {
    if (access === "public") return {};
    if (access === "keyless") return admitKeyless(request);
    if (access === "public-write") {
      const rate = countPublicWrite(request.hostClass, request.clientAddress, request.setHeader);
      return rate === undefined ? {} : { rate };
    }
    return admitPartner({ ...request, scope: access === "partner" ? undefined : access.scope });
  };
  return { admit, countKeyless, countPublicWrite: countPublicWrite satisfies PublicWriteCounter };
}
