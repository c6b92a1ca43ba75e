// `/`: the check form (a GET form named like the API's query, so a result has a shareable URL), the identity
// key as the user types, and the check's answer.
import { html } from "hono/html";
import { foldV1 } from "../../core/fold";
import { sandboxScenarios } from "../../core/status";
import type { CheckResult } from "../../services/identity";
import type { ChainHealth } from "../../services/mirror";
import { DECISION_WORDS, instant, queryOf, statusBadge } from "./format";

export interface LookupInput {
  name?: string;
  ticker?: string;
  chain?: string;
  launcher?: string;
}

export interface LookupView {
  input: LookupInput;
  chains: readonly ChainHealth[] | null;
  sandbox: boolean;
  nowMs: number;
  result?: CheckResult;
  /** Why the input was refused (the API's 400 message). */
  problem?: string;
}

function form(view: LookupView) {
  const { input } = view;
  const chainNames = (view.chains ?? []).map((chain) => chain.chain);
  if (input.chain && !chainNames.includes(input.chain)) chainNames.push(input.chain);
  return html`<form id="lookup" method="get" action="/" aria-describedby="lookup-help">
  <div>
    <label for="name">Name</label>
    <input id="name" name="name" value="${input.name ?? ""}" required maxlength="256" autocomplete="off" spellcheck="false">
  </div>
  <div>
    <label for="ticker">Ticker</label>
    <input id="ticker" name="ticker" value="${input.ticker ?? ""}" required maxlength="64" autocomplete="off" spellcheck="false">
  </div>
  <div>
    <label for="chain">Chain</label>
    <select id="chain" name="chain">
      <option value="">Every chain</option>
      ${chainNames.map((name) => html`<option value="${name}"${name === input.chain ? html` selected` : ""}>${name}</option>`)}
    </select>
  </div>
  <div>
    <label for="launcher">Launcher <span class="help">(optional wallet)</span></label>
    <input id="launcher" name="launcher" value="${input.launcher ?? ""}" maxlength="128" autocomplete="off" spellcheck="false" aria-describedby="launcher-help">
    <p class="help" id="launcher-help">0x… on EVM chains, base58 on Solana: may it launch?</p>
  </div>
  <div class="actions">
    <button type="submit">Check</button>
    <p class="live">Identity key: <output id="live-key" for="name ticker" aria-live="polite">${foldV1(input.name ?? "")}::${foldV1(input.ticker ?? "")}</output>
      <span id="live-hint" class="problem" aria-live="polite"></span></p>
  </div>
</form>
<p class="help" id="lookup-help">Names and tickers are compared after folding: case, spaces, symbols and look-alike digits do not make a new identity. Without a chain, every chain is checked and the most restrictive answer wins.</p>`;
}

/** A name that looks like another, protected or reserved identity: said apart from the answer, which it does not change. */
function lookalikeWarning(result: CheckResult) {
  const copied = result.lookalikeOf;
  if (copied === undefined) return "";
  const [name, ticker] = copied.identityKey.split("::");
  return html`<p class="problem" role="note" id="lookalike" data-field="lookalikeOf">Looks like <a href="/${queryOf({ name, ticker })}"><code>${copied.identityKey}</code></a>, ${copied.status} on ${copied.chain}: a copy in other letters is still a copy.</p>`;
}

function resultSection(result: CheckResult, input: LookupInput, nowMs: number) {
  const timeline = `/identity${queryOf({ key: result.identityKey })}`;
  const json = `/api/v1/identity/check${queryOf({ ...input })}`;
  return html`<section class="result" id="result" aria-labelledby="result-title">
  <h2 id="result-title"><code>${result.identityKey}</code> is ${statusBadge(result.status)}</h2>
  <p><strong data-decision="${result.decision}">${DECISION_WORDS[result.decision]}</strong> ${result.message}</p>
  <dl>
    <dt>Status</dt><dd data-field="status">${result.status}</dd>
    <dt>Decision</dt><dd data-field="decision"><code>${result.decision}</code></dd>
    <dt>Deciding chain</dt><dd data-field="chain">${result.chain}</dd>
    <dt>Protected until</dt><dd data-field="protectedUntil">${instant(result.protectedUntil, nowMs)}</dd>
    <dt>Authorized launcher</dt><dd data-field="authorizedLauncher">${
      result.authorizedLauncher === null ? "none" : html`<code>${result.authorizedLauncher}</code>`
    }</dd>
    ${
      result.launcherAuthorized === null
        ? ""
        : html`<dt>Your launcher</dt><dd data-field="launcherAuthorized">${
            result.launcherAuthorized ? "authorized for this identity" : "not the authorized launcher"
          }</dd>`
    }
    <dt>Data freshness</dt><dd data-field="dataAsOf">${instant(result.dataAsOf, nowMs, "not known")}, read from the ${result.adapter}</dd>
  </dl>
  ${lookalikeWarning(result)}
  <p><a href="${timeline}">Timeline of ${result.identityKey}</a> · <a href="${json}">This answer as JSON</a></p>
</section>`;
}

function scenarioList() {
  const scenarios = sandboxScenarios([], new Date(0));
  return html`<section aria-labelledby="scenarios-title">
  <h2 id="scenarios-title">Seeded sandbox scenarios</h2>
  <ul class="scenarios">
    ${scenarios.map(({ identityKey, seededState }) => {
      const [name, ticker] = identityKey.split("::");
      return html`<li><a href="/${queryOf({ name, ticker })}"><code>${identityKey}</code></a>: ${seededState}</li>`;
    })}
  </ul>
</section>`;
}

export function lookupPage(view: LookupView) {
  return html`<h1>Check a token name and ticker</h1>
<p>Before you pick a name, see whether someone reserved or protected it, on which chain, and until when.</p>
${form(view)}
${view.problem === undefined ? "" : html`<p class="problem" role="alert" id="problem">${view.problem}</p>`}
${view.result === undefined ? "" : resultSection(view.result, view.input, view.nowMs)}
${view.sandbox ? scenarioList() : ""}`;
}
