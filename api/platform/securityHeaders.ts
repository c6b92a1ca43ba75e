// Security headers for a JSON API, set in one step from a precomputed list (helmet's defaults are aimed at
// HTML pages and cost a dozen middleware calls per request).
import type { NextFunction, Request, Response } from "express";

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  // Answers may carry secrets shown once (new keys); routes that are cacheable say so themselves.
  "Cache-Control": "no-store",
  // Nothing here is ever rendered as a page; forbid every source and framing.
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
  "Cross-Origin-Opener-Policy": "same-origin",
  // The public reads (CORS any-origin) set cross-origin instead (api/platform/cors.ts).
  "Cross-Origin-Resource-Policy": "same-origin",
  "Referrer-Policy": "no-referrer",
  "Strict-Transport-Security": "max-age=31536000; includeSubDomains",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "X-Permitted-Cross-Domain-Policies": "none",
};

/** SECURITY_HEADERS as [name, value] pairs, listed once for every answer that writes them. */
export const SECURITY_HEADER_ENTRIES = Object.entries(SECURITY_HEADERS);

export function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  for (const [name, value] of SECURITY_HEADER_ENTRIES) res.setHeader(name, value);
  next();
}
