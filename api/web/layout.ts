// The frame of every public page: head (inlined stylesheet, the one script), navigation, the sandbox label,
// the chain health strip (GET /v1/chains) and the footer.
import { html, raw } from "hono/html";
import type { Environment } from "../../core/environment";
import type { AdapterWhileBehind } from "../../services/identity";
import type { ChainHealth } from "../../services/mirror";
import { LOOKUP_SCRIPT_PATH, PAGE_CSS } from "./assets";

export type PageName = "lookup" | "protected" | "identity" | "error";

export interface Frame {
  title: string;
  page: PageName;
  environment: Environment;
  /** The indexed chains with their health; null when they could not be read. */
  chains: readonly ChainHealth[] | null;
  /** What checks on a chain answer from while its mirror is behind (services.identity.adapterWhileBehind). */
  adapterWhileBehind: (chain: string) => AdapterWhileBehind;
  nowMs: number;
}

const CHAIN_WORDS: Readonly<Record<ChainHealth["status"], string>> = {
  ok: "fresh",
  stale: "behind",
  not_started: "not indexed yet",
};

/** Said after "behind": what answers come from meanwhile. The sandbox's note already says its answers' source. */
const ANSWERS_WHILE_BEHIND: Readonly<Record<AdapterWhileBehind, string>> = {
  chain: ", answers read from the chain's registry",
  unavailable: ", answers say recheck",
  mock: "",
};

function chainWords(chain: ChainHealth, adapterWhileBehind: Frame["adapterWhileBehind"]): string {
  const words = CHAIN_WORDS[chain.status];
  return chain.status === "stale"
    ? `${words}${ANSWERS_WHILE_BEHIND[adapterWhileBehind(chain.chain)]}`
    : words;
}

function chainStrip(chains: readonly ChainHealth[] | null, adapterWhileBehind: Frame["adapterWhileBehind"]) {
  if (chains === null) {
    return html`<p class="chains" role="status">Chain health could not be read.</p>`;
  }
  return html`<ul class="chains" aria-label="Chain health">
    ${chains.map(
      (chain) =>
        html`<li class="${chain.status}" data-chain="${chain.chain}"><strong>${chain.chain}</strong> ${chainWords(chain, adapterWhileBehind)}${
          chain.secondsSinceIndexed === null ? "" : html`, indexed ${chain.secondsSinceIndexed} s ago`
        }${chain.lag === null ? "" : html`, ${chain.lag} ${chain.family === "evm" ? "blocks" : "slots"} behind`}</li>`,
    )}
  </ul>`;
}

function navLink(href: string, label: string, current: boolean) {
  return html`<li><a href="${href}"${current ? raw(' aria-current="page"') : ""}>${label}</a></li>`;
}

export function layout(frame: Frame, body: unknown) {
  const sandbox = frame.environment === "sandbox";
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${frame.title}${sandbox ? " (sandbox)" : ""} · Token identity check</title>
<link rel="icon" href="data:,">
<style>${raw(PAGE_CSS)}</style>
<script src="${LOOKUP_SCRIPT_PATH}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<nav aria-label="Pages"><ul>
  <li class="brand">Token identity check</li>
  ${navLink("/", "Check a name", frame.page === "lookup")}
  ${navLink("/protected", "Protected identities", frame.page === "protected")}
  <li><a href="/api/v1/openapi">API</a></li>
</ul></nav>
${
  sandbox
    ? html`<p class="env" role="note" data-environment="sandbox"><strong>Sandbox.</strong> Answers come from sandbox data (the seeded scenarios), not production.</p>`
    : ""
}
${chainStrip(frame.chains, frame.adapterWhileBehind)}
</header>
<main id="main">
${body}
</main>
<footer>
<p>The same answers as the public API (<code>GET /api/v1/identity/check</code>, <code>/identity/status</code>, <code>/protected-identities</code>, <code>/chains</code>), read on the ${frame.environment} data. Fold v1: names and tickers are folded to A-Z, 2, 6 and 9 before they are compared.</p>
</footer>
</body>
</html>`;
}
