/** Date-form version of the response format; every JSON response carries it as `responseVersion`. */
export const RESPONSE_VERSION = "2026-11-01";
