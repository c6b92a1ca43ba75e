// `/identity?key=`: an identity's record as GET /v1/identity/status answers it: the current answer, the answer
// on each chain and the timeline.
import { html } from "hono/html";
import type { TimelineEntryType } from "../../core/status";
import type { IdentityStatusView } from "../../services/identity";
import { DECISION_WORDS, instant, queryOf, statusBadge } from "./format";

const ENTRY_WORDS: Readonly<Record<TimelineEntryType, string>> = {
  reserved: "Reserved",
  reservation_expired: "Reservation expired",
  locked: "Locked",
  lock_expired: "Lock expired",
  launched: "Launched",
  guardian_blocked: "Blocked by a guardian",
  guardian_cleared: "Cleared by a guardian",
  lock_refused: "Lock report refused",
  dispute_open: "Dispute filed",
  dispute_under_review: "Dispute under review",
  dispute_upheld: "Dispute upheld",
  dispute_rejected: "Dispute rejected",
  dispute_withdrawn: "Dispute withdrawn",
};

function detailsOf(details: Record<string, unknown>) {
  const entries = Object.entries(details).filter(([, value]) => value !== null && value !== undefined);
  if (entries.length === 0) return "";
  return html`<ul>${entries.map(
    ([name, value]) =>
      html`<li>${name}: <code>${typeof value === "string" ? value : JSON.stringify(value)}</code></li>`,
  )}</ul>`;
}

export function identityPage(view: IdentityStatusView, nowMs: number) {
  const { current } = view;
  return html`<h1>Timeline of <code>${view.identityKey}</code></h1>
<section class="result" aria-labelledby="current-title">
  <h2 id="current-title">Now: ${statusBadge(current.status)}</h2>
  <p><strong data-decision="${current.decision}">${DECISION_WORDS[current.decision]}</strong> ${current.message}</p>
</section>
<h2>On each chain</h2>
<div class="table"><table>
  <caption class="help">The answer per chain; a check without a chain takes the most restrictive.</caption>
  <thead><tr><th scope="col">Chain</th><th scope="col">Status</th><th scope="col">Protected until</th><th scope="col">Authorized launcher</th></tr></thead>
  <tbody>${view.chains.map(
    (chain) =>
      html`<tr><th scope="row">${chain.chain}</th><td>${statusBadge(chain.status)}</td><td>${instant(
        chain.protectedUntil,
        nowMs,
      )}</td><td>${chain.authorizedLauncher === null ? "none" : html`<code>${chain.authorizedLauncher}</code>`}</td></tr>`,
  )}</tbody>
</table></div>
<h2>Timeline</h2>
<ol reversed>${[...view.timeline]
    .reverse()
    .map(
      (entry) =>
        html`<li><strong>${ENTRY_WORDS[entry.type]}</strong>${entry.chain === null ? "" : html` on ${entry.chain}`}, ${instant(
          entry.at,
          nowMs,
        )}${detailsOf(entry.details)}</li>`,
    )}</ol>
<p><a href="/api/v1/identity/status${queryOf({ key: view.identityKey })}">This record as JSON</a></p>`;
}
