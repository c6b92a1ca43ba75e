// A web origin as browsers send it in the Origin header: scheme://host[:port] and nothing else. Launchpads
// register theirs for the embed endpoints' CORS, and the API compares the header with them as text, so only the
// exact form browsers send is accepted (lower-case host, punycode, no default port, no path, no trailing slash).

/** Hosts a developer's page may be served from over plain http. */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
export const MAX_ORIGIN_LENGTH = 255;

const SHAPE =
  "an origin is scheme://host[:port] exactly as browsers send it, e.g. https://app.example.com (https; http only for localhost), without a path or trailing slash";

/** What is wrong with `text` as a web origin, or undefined when it is one. */
export function webOriginProblem(text: string): string | undefined {
  if (text.length > MAX_ORIGIN_LENGTH) return `${SHAPE}; this one is over ${MAX_ORIGIN_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `${SHAPE}; got ${JSON.stringify(text)}`;
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname))) {
    return `${SHAPE}; ${JSON.stringify(text)} is not https`;
  }
  if (url.origin !== text) return `${SHAPE}; did you mean ${url.origin}?`;
  return undefined;
}

export function isWebOrigin(text: string): boolean {
  return webOriginProblem(text) === undefined;
}
