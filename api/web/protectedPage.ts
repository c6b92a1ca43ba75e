// `/protected`: the protected identities as GET /v1/protected-identities lists them (production data on every
// host, as the endpoint), with its search, filters and cursor paging.
import { html } from "hono/html";
import type { ChainHealth } from "../../services/mirror";
import type { ProtectedIdentitiesPage } from "../routes/protectedIdentities";
import { instant, queryOf } from "./format";

export interface ProtectedFilters {
  q?: string;
  chain?: string;
  status: string;
  cursor?: string;
  limit?: string;
}

export interface ProtectedView {
  filters: ProtectedFilters;
  statusFilters: readonly string[];
  chains: readonly ChainHealth[] | null;
  sandbox: boolean;
  nowMs: number;
  page?: ProtectedIdentitiesPage;
  problem?: string;
}

function filterForm(view: ProtectedView) {
  const { filters } = view;
  const chainNames = (view.chains ?? []).map((chain) => chain.chain);
  if (filters.chain && !chainNames.includes(filters.chain)) chainNames.push(filters.chain);
  return html`<form id="filters" method="get" action="/protected" role="search">
  <div>
    <label for="q">Search identity keys</label>
    <input id="q" name="q" type="search" value="${filters.q ?? ""}" maxlength="200" autocomplete="off" spellcheck="false">
  </div>
  <div>
    <label for="chain">Chain</label>
    <select id="chain" name="chain">
      <option value="">Every chain</option>
      ${chainNames.map((name) => html`<option value="${name}"${name === filters.chain ? html` selected` : ""}>${name}</option>`)}
    </select>
  </div>
  <div>
    <label for="status">Status</label>
    <select id="status" name="status" aria-describedby="status-help">
      ${view.statusFilters.map(
        (status) =>
          html`<option value="${status}"${status === filters.status ? html` selected` : ""}>${status}</option>`,
      )}
    </select>
  </div>
  <div class="submit"><button type="submit">Filter</button></div>
</form>
<p class="help" id="status-help">Status active: reserved, protected or blocked; all adds expired, launched and cleared.</p>`;
}

function rowsTable(page: ProtectedIdentitiesPage, nowMs: number) {
  if (page.rows.length === 0) return html`<p id="no-rows">No identity matches these filters.</p>`;
  return html`<div class="table"><table id="rows">
  <caption class="help">Newest first.</caption>
  <thead><tr><th scope="col">Identity</th><th scope="col">Chain</th><th scope="col">Status</th><th scope="col">Source</th><th scope="col">Since</th><th scope="col">Protected until</th><th scope="col">Authorized launcher</th></tr></thead>
  <tbody>${page.rows.map(
    (row) => html`<tr>
      <th scope="row"><a href="/identity${queryOf({ key: row.identityKey })}"><code>${row.identityKey}</code></a></th>
      <td>${row.chain ?? "every chain"}</td>
      <td data-status="${row.status}">${row.status}</td>
      <td>${row.source}</td>
      <td>${instant(row.since, nowMs)}</td>
      <td>${instant(row.protectedUntil, nowMs, row.source === "launch" ? "not protected" : "permanent")}</td>
      <td>${row.authorizedLauncher === null ? "none" : html`<code>${row.authorizedLauncher}</code>`}</td>
    </tr>`,
  )}</tbody>
</table></div>`;
}

export function protectedPage(view: ProtectedView) {
  const { filters, page } = view;
  const base = {
    q: filters.q,
    chain: filters.chain,
    status: filters.status === "active" ? undefined : filters.status,
    limit: filters.limit,
  };
  return html`<h1>Protected identities</h1>
<p>Names and tickers reserved on-chain, locked after a launch, or blocked by a guardian.${
    view.sandbox ? html` <strong>This list is production data on every host, as the API's.</strong>` : ""
  }</p>
${filterForm(view)}
${view.problem === undefined ? "" : html`<p class="problem" role="alert" id="problem">${view.problem}</p>`}
${page === undefined ? "" : rowsTable(page, view.nowMs)}
<nav class="pager" aria-label="Pages of results">
  ${filters.cursor === undefined ? "" : html`<a href="/protected${queryOf(base)}">First page</a>`}
  ${page?.nextCursor ? html`<a href="/protected${queryOf({ ...base, cursor: page.nextCursor })}" rel="next">Next page</a>` : ""}
</nav>
<p><a href="/api/v1/protected-identities${queryOf({ ...base, cursor: filters.cursor })}">This page as JSON</a></p>`;
}
