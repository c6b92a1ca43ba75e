// The public pages' two static assets, read once at start: the stylesheet (inlined in every page and allowed by
// its hash) and the lookup script (served from a content-addressed path, cached for a year). The page's
// Content-Security-Policy allows exactly these and nothing else: no third-party origin, no inline script.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { projectPath } from "../../config/projectRoot";

const ASSETS = projectPath("api", "web", "assets");

export const PAGE_CSS = readFileSync(join(ASSETS, "page.css"), "utf8");
export const LOOKUP_SCRIPT = readFileSync(join(ASSETS, "lookup.js"));

const digest = (content: string | Buffer) => createHash("sha256").update(content).digest();

/** The script's path carries its content hash, so a new build is a new URL and the old one may be cached forever. */
export const LOOKUP_SCRIPT_PATH = `/assets/lookup.${digest(LOOKUP_SCRIPT).toString("hex").slice(0, 16)}.js`;

export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  `style-src 'sha256-${digest(PAGE_CSS).toString("base64")}'`,
  // The favicon is an empty data: URL, so the browser asks no /favicon.ico.
  "img-src data:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");
