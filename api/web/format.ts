// Small pieces shared by the public pages: instants (UTC on the server, local time in the browser), status
// badges and the decisions in words.
import { html } from "hono/html";
import type { CheckDecision, IdentityStatus } from "../../core/status";
import { relativeTime } from "./client/time";

const RELATIVE = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** `2026-11-25 13:05 UTC (in 3 days)`; the browser script rewrites it in the reader's local time. */
export function instant(iso: string | null, nowMs: number, none = "none") {
  if (iso === null) return html`${none}`;
  const at = Date.parse(iso);
  const utc = `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  return html`<span class="when"><time datetime="${iso}" data-local>${utc}</time>
    <span data-relative>(${relativeTime(at, nowMs, RELATIVE)})</span></span>`;
}

/** Which badge colour a status wears (its word is always shown beside it). */
const STATUS_TONE: Readonly<Record<IdentityStatus, "good" | "held" | "bad" | "unsure">> = {
  available: "good",
  expired: "good",
  cleared: "good",
  launched: "good",
  authorized: "good",
  reserved: "held",
  protected: "held",
  blocked: "bad",
  delayed: "unsure",
  unknown: "unsure",
};

export function statusBadge(status: IdentityStatus) {
  return html`<span class="badge ${STATUS_TONE[status]}" data-status="${status}">${status}</span>`;
}

/** What a decision tells a creator to do, in words. */
export const DECISION_WORDS: Readonly<Record<CheckDecision, string>> = {
  allow: "Allowed: a launch may go ahead.",
  allow_authorized_only: "Held: only the authorized launcher may launch it.",
  block: "Blocked: do not launch it.",
  recheck_required: "Recheck shortly: the chain data is catching up; do not launch meanwhile.",
  unavailable: "Unavailable: the data could not be read; do not launch, try again later.",
};

/** Query string of the given fields, leaving out empty ones. */
export function queryOf(fields: Readonly<Record<string, string | undefined>>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value) params.set(name, value);
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}
