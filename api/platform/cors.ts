// CORS, declared per route in the route table by its access class (RouteSpec.cors; corsClassOf gives the default):
//   any-origin     keyless routes: any page may read them (`Access-Control-Allow-Origin: *`, never credentials),
//                  and their Cross-Origin-Resource-Policy is cross-origin, since the data is public
//   embed-origins  the embed pair: only pages on the web origins registered for an enabled allowlisted launchpad
//   none           keyed routes (an API key never belongs in a web page) and sandbox key creation
// Written here rather than with the `cors` package: the policy is per path and method, the embed origins are a
// database lookup, and a refused preflight must be a 4xx with the error envelope, where the package answers every
// preflight 204 and only leaves its headers out.
import type { Request, RequestHandler, Response } from "express";
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

export interface CorsLayer {
  /** The middleware an actual request of this class passes through; undefined for `none`. */
  actual(corsClass: CorsClass): RequestHandler | undefined;
  /** Answers OPTIONS on `path` (as shown to callers) from the methods served there. */
  preflight(path: string, methods: PathCors): RequestHandler;
}

/** What an any-origin answer carries, for answers given outside Express too (direct reads). */
export const ANY_ORIGIN_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
  "Cross-Origin-Resource-Policy": "cross-origin",
  "Access-Control-Expose-Headers": EXPOSED_HEADERS,
};

function allowAnyOrigin(res: Response): void {
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Cross-Origin-Resource-Policy", "cross-origin");
}

function allowOrigin(res: Response, origin: string): void {
  res.setHeader("Access-Control-Allow-Origin", origin);
}

function requestedHeaders(req: Request): string[] {
  const header = req.headers["access-control-request-headers"];
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

  const anyOrigin: RequestHandler = (_req, res, next) => {
    for (const [name, value] of Object.entries(ANY_ORIGIN_HEADERS)) res.setHeader(name, value);
    next();
  };

  // A request without Origin comes from a server (browsers always send it on a POST): no origin check applies.
  const embedOrigins: RequestHandler = async (req, res, next) => {
    res.vary("Origin");
    const origin = req.headers.origin;
    if (origin !== undefined) {
      await assertRegistered(origin);
      allowOrigin(res, origin);
      res.setHeader("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    }
    next();
  };

  function preflight(path: string, methods: PathCors): RequestHandler {
    return async (req, res) => {
      const served = [...methods.keys()].map((method) => method.toUpperCase());
      const requested = req.headers["access-control-request-method"];
      if (requested === undefined) {
        // A plain OPTIONS (not a preflight): the methods served here.
        res.setHeader("Allow", [...served, "OPTIONS"].join(", "));
        res.status(204).end();
        return;
      }
      const origin = req.headers.origin;
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
      const refused = requestedHeaders(req).filter((name) => !ALLOWED_REQUEST_HEADERS.has(name));
      if (refused.length > 0) {
        throw new ApiError(
          "cors_not_allowed",
          `A page may send only Content-Type to this API; refused: ${refused.join(", ").slice(0, 200)}. Public endpoints need no key, and an API key never belongs in a web page.`,
          { headers: refused.slice(0, 20) },
        );
      }
      if (corsClass === "embed-origins") {
        res.vary("Origin");
        await assertRegistered(origin);
        allowOrigin(res, origin);
      } else allowAnyOrigin(res);
      const sameClass = [...methods].filter(([, other]) => other === corsClass).map(([name]) => name);
      res.setHeader("Access-Control-Allow-Methods", sameClass.map((name) => name.toUpperCase()).join(", "));
      res.setHeader("Access-Control-Allow-Headers", "Content-Type");
      res.setHeader("Access-Control-Max-Age", String(MAX_AGE_SECONDS[corsClass]));
      res.status(204).end();
    };
  }

  return {
    actual: (corsClass) =>
      corsClass === "any-origin" ? anyOrigin : corsClass === "embed-origins" ? embedOrigins : undefined,
    preflight,
  };
}
