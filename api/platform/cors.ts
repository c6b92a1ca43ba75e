// CORS, declared per route in the route table by its access class (RouteSpec.cors; corsClassOf gives the default):
//   any-origin     keyless routes: any page may read them (`Access-Control-Allow-Origin: *`, never credentials),
//                  and their Cross-Origin-Resource-Policy is cross-origin, since the data is public
//   embed-origins  the embed pair: only pages on the web origins registered for an enabled allowlisted launchpad
//   none           keyed routes (an API key never belongs in a web page) and sandbox key creation
// Written here rather than with the `cors` package: the policy is per path and method, the embed origins are a
// database lookup, and a refused preflight must be a 4xx with the error envelope, where the package answers every
// preflight 204 and only leaves its headers out. The request sequence (api/platform/requestSequence.ts) applies it.
import type { IncomingHttpHeaders } from "node:http";
import { ApiError } from "../../core/errors/catalogue";
import { isWebOrigin, MAX_ORIGIN_LENGTH } from "../../core/web/origin";

export type CorsClass = "any-origin" | "embed-origins" | "none";

/** Request headers a page may send: the JSON body's type. Not Authorization: keys stay on servers. */
const ALLOWED_REQUEST_HEADERS = new Set(["content-type"]);
/** Response headers a page may read beyond the CORS-safelisted ones. */
const EXPOSED_HEADERS = "RateLimit, RateLimit-Policy, RateLimit-Remaining, Retry-After, Request-Id";
/** How long a browser may cache a preflight: Chromium's ceiling for the fixed public policy, less for registered
 * origins, which operators change (the actual request is checked again anyway). */
const MAX_AGE_SECONDS: Record<Exclude<CorsClass, "none">, number> = {
  "any-origin": 7200,
  "embed-origins": 600,
};

/** A route's CORS class: keyless routes are open to any origin unless they declare otherwise; keyed ones never. */
export function corsClassOf(keyed: boolean, declared: CorsClass | undefined, route: string): CorsClass {
  if (!keyed) return declared ?? "any-origin";
  if (declared !== undefined && declared !== "none") {
    throw new Error(
      `${route} takes an API key, so it cannot be open to browsers (an API key never belongs in a page).`,
    );
  }
  return "none";
}

/** The methods served on one path (lower-case; GET also answers HEAD), each with its CORS class. */
export type PathCors = Map<string, CorsClass>;

export interface CorsOptions {
  /** Whether `origin` is registered for an enabled, allowlisted launchpad. */
  embedOriginAllowed(origin: string): Promise<boolean>;
}

/** Where an answer's headers go. */
type HeaderSink = (name: string, value: string) => void;

export interface CorsLayer {
  /**
   * Puts an actual request's CORS headers on its answer, or refuses its page (origin_not_allowed); nothing for
   * `none`. Before the body is read, so that a page also reads the envelope of a refused body.
   */
  actual(
    corsClass: CorsClass,
    headers: IncomingHttpHeaders,
    setHeader: HeaderSink,
  ): Promise<void> | undefined;
  /** The headers of the answer to OPTIONS on `path` (as shown to callers), from the methods served there; 204. */
  preflight(path: string, methods: PathCors, headers: IncomingHttpHeaders): Promise<Record<string, string>>;
}

/** What an any-origin answer carries. */
export const ANY_ORIGIN_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
  "Cross-Origin-Resource-Policy": "cross-origin",
  "Access-Control-Expose-Headers": EXPOSED_HEADERS,
};

function requestedHeaders(headers: IncomingHttpHeaders): string[] {
  const header = headers["access-control-request-headers"];
  return (header ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "");
}

export function corsLayer(options: CorsOptions): CorsLayer {
  /** Refuses a page whose origin is not registered for an enabled allowlisted launchpad (nothing executes). */
  async function assertRegistered(origin: string): Promise<void> {
    if (!isWebOrigin(origin) || !(await options.embedOriginAllowed(origin))) {
      throw new ApiError("origin_not_allowed", undefined, { origin: origin.slice(0, MAX_ORIGIN_LENGTH) });
    }
  }

  // A request without Origin comes from a server (browsers always send it on a POST): no origin check applies.
  async function embedOrigins(headers: IncomingHttpHeaders, setHeader: HeaderSink): Promise<void> {
    setHeader("Vary", "Origin");
    const origin = headers.origin;
    if (origin !== undefined) {
      await assertRegistered(origin);
      setHeader("Access-Control-Allow-Origin", origin);
      setHeader("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    }
  }

  async function preflight(
    path: string,
    methods: PathCors,
    headers: IncomingHttpHeaders,
  ): Promise<Record<string, string>> {
    const served = [...methods.keys()].map((method) => method.toUpperCase());
    const requested = headers["access-control-request-method"];
    // A plain OPTIONS (not a preflight): the methods served here.
    if (requested === undefined) return { Allow: [...served, "OPTIONS"].join(", ") };
    const origin = headers.origin;
    if (origin === undefined) {
      throw new ApiError(
        "invalid_request",
        "A CORS preflight needs the Origin header of the page that asks; browsers send it themselves.",
        {
          in: "header",
          issues: [{ path: "Origin", message: "required with Access-Control-Request-Method" }],
        },
      );
    }
    const method = requested.toLowerCase() === "head" ? "get" : requested.toLowerCase();
    const corsClass = methods.get(method);
    if (corsClass === undefined) {
      throw new ApiError(
        "cors_not_allowed",
        `${requested.slice(0, 16)} is not served on ${path}; it serves ${served.join(", ")}.`,
        { method: requested.slice(0, 16) },
      );
    }
    if (corsClass === "none") {
      throw new ApiError(
        "cors_not_allowed",
        `${method.toUpperCase()} ${path} takes an API key and is not open to browsers: call it from your server (an API key never belongs in a web page).`,
        { method: method.toUpperCase() },
      );
    }
    const refused = requestedHeaders(headers).filter((name) => !ALLOWED_REQUEST_HEADERS.has(name));
    if (refused.length > 0) {
      throw new ApiError(
        "cors_not_allowed",
        `A page may send only Content-Type to this API; refused: ${refused.join(", ").slice(0, 200)}. Public endpoints need no key, and an API key never belongs in a web page.`,
        { headers: refused.slice(0, 20) },
      );
    }
    const answer: Record<string, string> = {};
    if (corsClass === "embed-origins") {
      answer.Vary = "Origin";
      await assertRegistered(origin);
      answer["Access-Control-Allow-Origin"] = origin;
    } else {
      answer["Access-Control-Allow-Origin"] = "*";
      answer["Cross-Origin-Resource-Policy"] = "cross-origin";
    }
    const sameClass = [...methods].filter(([, other]) => other === corsClass).map(([name]) => name);
    answer["Access-Control-Allow-Methods"] = sameClass.map((name) => name.toUpperCase()).join(", ");
    answer["Access-Control-Allow-Headers"] = "Content-Type";
    answer["Access-Control-Max-Age"] = String(MAX_AGE_SECONDS[corsClass]);
    return answer;
  }

  return {
    actual(corsClass, headers, setHeader) {
      if (corsClass === "any-origin") {
        for (const name in ANY_ORIGIN_HEADERS) setHeader(name, ANY_ORIGIN_HEADERS[name] as string);
        return undefined;
      }
      return corsClass === "embed-origins" ? embedOrigins(headers, setHeader) : undefined;
    },
    preflight,
  };
}
