/** Date-form version of the response format; every JSON response carries it as `responseVersion`. */
export const RESPONSE_VERSION = "2026-11-01";

/** A JSON object body with `responseVersion` added; other bodies (arrays, the OpenAPI document's text) as they are. */
export function versioned(body: unknown): unknown {
  return body && typeof body === "object" && !Array.isArray(body)
    ? { ...body, responseVersion: RESPONSE_VERSION }
    : body;
}
