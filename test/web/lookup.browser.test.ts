// The public pages in headless Chromium against the whole service on local chains: the identity key folds live
// as the user types (the official vectors), a check of a pair reserved on the local chain in this test reads
// reserved, the sandbox host shows the seeded scenarios, the list pages, keyboard-only use, a phone-sized
// viewport. On every page: under 100 KB transferred, no request to another origin, no console error (a CSP
// violation is one), text contrast at WCAG AA. A screenshot of each page goes to test-results/web/.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { TEST_HOSTS } from "../api/support/harness";
import { type ChainWallet, type E2e, startE2e, uniquePair, waitUntil } from "../e2e/support";
import vectorsFile from "../vectors/fold-v1.json";
import { launchChromium } from "./chromium";
import { LOW_CONTRAST_SCRIPT, OVERFLOWS_SCRIPT, PageWatch, type PageWeight } from "./pageChecks";

const SCREENSHOTS = join(__dirname, "..", "..", "test-results", "web");
const PAGE_BUDGET_BYTES = 100 * 1024;
/** The focused element: its id, its text and its outline (a string: see LOW_CONTRAST_SCRIPT). */
const FOCUSED_SCRIPT = `(() => {
  const element = document.activeElement;
  return { id: element.id, text: (element.textContent || "").trim(), outline: getComputedStyle(element).outlineStyle };
})()`;
/** A *.localhost name: Chromium resolves it to the loopback and treats it as a secure origin, as 127.0.0.1. */
const SANDBOX_HOST = "sandbox.localhost";

describe("web: the public pages in headless Chromium (local chains)", function () {
  this.timeout(90_000);
  let e2e: E2e;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let watch: PageWatch;
  let base: string;
  let sandboxBase: string;
  let wallet: ChainWallet;
  const reserved = uniquePair("Web Heron");
  const solanaPair = uniquePair("Web Otter");
  const weights: PageWeight[] = [];

  /** Loads a page, checks its weight, contrast and console, and writes its screenshot. */
  async function visit(name: string, navigate: () => Promise<unknown>): Promise<void> {
    const weight = await watch.load(navigate);
    weights.push(weight);
    expect(weight.bytes, `${name}: ${weight.bytes} bytes transferred`).to.be.below(PAGE_BUDGET_BYTES);
    expect(await page.evaluate(LOW_CONTRAST_SCRIPT), `${name}: low-contrast text`).to.deep.equal([]);
    expect(watch.takeErrors(), `${name}: console errors`).to.deep.equal([]);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  const text = async (selector: string) =>
    ((await page.textContent(selector)) ?? "").replace(/\s+/g, " ").trim();

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    // Side by side; whichever started is kept for after() to stop when the other failed (no Chromium, say).
    const [started, launched] = await Promise.allSettled([
      startE2e({ hosts: { ...TEST_HOSTS, sandbox: [SANDBOX_HOST] } }),
      launchChromium(),
    ]);
    if (started.status === "fulfilled") e2e = started.value;
    if (launched.status === "fulfilled") browser = launched.value;
    if (started.status === "rejected") throw started.reason;
    if (launched.status === "rejected") throw launched.reason;
    base = e2e.api.url;
    sandboxBase = base.replace("127.0.0.1", SANDBOX_HOST);
    // A reservation on each local chain, each by a dev wallet sending straight to the registry.
    wallet = await e2e.evm.newWallet();
    const solanaWallet = await e2e.solana.newWallet();
    await Promise.all([
      e2e.evm.reserveDirectly(wallet, reserved.name, reserved.ticker),
      e2e.solana.reserveDirectly(solanaWallet, solanaPair.name, solanaPair.ticker),
    ]);
    for (const pair of [reserved, solanaPair]) {
      await waitUntil(
        () =>
          e2e.api.call({
            path: `/api/v1/identity/check?name=${encodeURIComponent(pair.name)}&ticker=${pair.ticker}`,
          }),
        (response) => (response.body as { status?: string }).status === "reserved",
        `${pair.name} indexed as reserved`,
      );
    }
    context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    page = await context.newPage();
    watch = new PageWatch(page);
  });
  after(async () => {
    if (weights.length > 0)
      writeFileSync(join(SCREENSHOTS, "page-weight.json"), `${JSON.stringify(weights, null, 2)}\n`);
    await browser?.close();
    await e2e?.stop();
  });

  it("shows the folded identity key as the user types, for every official vector, with the bounds hint", async () => {
    await visit("lookup", () => page.goto(`${base}/`));
    await page.locator("#name").pressSequentially("pe");
    expect(await text("#live-key")).to.equal("PE::");
    await page.locator("#name").pressSequentially("pe 2 the $frog");
    await page.locator("#ticker").pressSequentially("p3p@");
    expect(await text("#live-key")).to.equal("PEPE2THESFROG::PEPA");
    for (const vector of vectorsFile.vectors) {
      await page.fill("#name", vector.name);
      await page.fill("#ticker", vector.ticker);
      expect(await text("#live-key"), vector.id).to.equal(vector.identityKey.replace(/\s+/g, ""));
      expect((await text("#live-hint")) === "", `${vector.id}: hint shown iff out of bounds`).to.equal(
        vector.reason === "ok",
      );
    }
  });

  it("submitting a pair reserved on the local chain in this test shows reserved, its launcher and local times", async () => {
    await page.fill("#name", reserved.name.toLowerCase());
    await page.fill("#ticker", reserved.ticker.toLowerCase());
    await page.selectOption("#chain", e2e.evm.chain);
    await visit("lookup-result", () => page.click("button[type=submit]"));
    const url = new URL(page.url());
    expect([...url.searchParams.keys()], "empty launcher left out").to.deep.equal([
      "name",
      "ticker",
      "chain",
    ]);
    expect(url.searchParams.get("name")).to.equal(reserved.name.toLowerCase());
    expect(url.searchParams.get("chain")).to.equal(e2e.evm.chain);
    expect(await text("[data-field=status]")).to.equal("reserved");
    expect(await text("[data-field=decision]")).to.equal("allow_authorized_only");
    expect((await text("[data-field=authorizedLauncher]")).toLowerCase()).to.equal(
      wallet.address.toLowerCase(),
    );
    // The script rewrote the UTC instant in local time and the relative time stays.
    const until = await text("[data-field=protectedUntil]");
    expect(until).to.not.include("UTC");
    expect(until).to.match(/\((in )?(23|24) hours\)/);
    expect(await text("[data-field=dataAsOf]")).to.match(/read from the index$/);
    // A shared link shows the same answer without any script.
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const plain = await noScript.newPage();
    await plain.goto(page.url());
    expect(await plain.textContent("[data-field=status]")).to.equal("reserved");
    expect(await plain.textContent("[data-field=protectedUntil] time")).to.match(/UTC$/);
    await noScript.close();
  });

  it("the timeline page of the identity, from the result's link", async () => {
    await visit("identity", () => page.click(`a:has-text("Timeline of")`));
    expect(await text("h1")).to.equal(
      `Timeline of ${reserved.name.replace(/ /g, "").toUpperCase()}::${reserved.ticker}`,
    );
    expect(await text("ol")).to.match(new RegExp(`^Reserved on ${e2e.evm.chain}`));
  });

  it("the list pages: both reservations, cursor paging and the search filter", async () => {
    await visit("protected", () => page.goto(`${base}/protected?limit=1`));
    const keys = () => page.$$eval("#rows tbody th code", (cells) => cells.map((cell) => cell.textContent));
    const first = await keys();
    expect(first).to.have.length(1);
    await visit("protected-next", () => page.click("a[rel=next]"));
    const second = await keys();
    expect([...first, ...second].sort()).to.deep.equal(
      [reserved, solanaPair]
        .map((pair) => `${pair.name.replace(/ /g, "").toUpperCase()}::${pair.ticker}`)
        .sort(),
    );
    await page.fill("#q", "otter");
    await page.selectOption("#status", "reserved");
    await visit("protected-search", () => page.press("#q", "Enter"));
    expect(new URL(page.url()).search).to.equal("?q=otter&status=reserved");
    expect(await keys()).to.deep.equal([
      `${solanaPair.name.replace(/ /g, "").toUpperCase()}::${solanaPair.ticker}`,
    ]);
    expect(await text("[data-chain]")).to.match(/ fresh, indexed \d+ s ago/);
  });

  it("the sandbox host is labelled and shows the seeded scenarios", async () => {
    await visit("sandbox", () => page.goto(`${sandboxBase}/`));
    expect(await text("[data-environment=sandbox]")).to.include("Sandbox.");
    expect(await page.locator(".scenarios li").count()).to.equal(7);
    await visit("sandbox-result", () => page.click(`a:has-text("SANDBOXFOX::SFOX")`));
    expect(await text("[data-field=status]")).to.equal("reserved");
    expect(await text("[data-field=authorizedLauncher]")).to.equal(
      "0x5afef0c55afef0c55afef0c55afef0c55afef0c5",
    );
  });

  it("works with the keyboard alone: skip link, visible focus, the form, submit, the timeline link", async () => {
    await visit("keyboard", () => page.goto(`${base}/`));
    const focused = async () =>
      (await page.evaluate(FOCUSED_SCRIPT)) as { id: string; text: string; outline: string };
    await page.keyboard.press("Tab");
    expect(await focused()).to.deep.include({ text: "Skip to content", outline: "solid" });
    for (let presses = 0; (await focused()).id !== "name"; presses += 1) {
      expect(presses, "Tab reaches the name field").to.be.below(8);
      await page.keyboard.press("Tab");
      expect((await focused()).outline, "focus is visible").to.equal("solid");
    }
    await page.keyboard.type(reserved.name);
    await page.keyboard.press("Tab");
    await page.keyboard.type(reserved.ticker);
    await page.keyboard.press("Tab");
    expect((await focused()).id).to.equal("chain");
    await page.keyboard.press("Tab");
    expect((await focused()).id).to.equal("launcher");
    await page.keyboard.type(wallet.address);
    await visit("keyboard-result", () => page.keyboard.press("Enter"));
    expect(await text("[data-field=launcherAuthorized]")).to.equal("authorized for this identity");
    for (let presses = 0; !(await focused()).text.startsWith("Timeline of"); presses += 1) {
      expect(presses, "Tab reaches the timeline link").to.be.below(20);
      await page.keyboard.press("Tab");
    }
    await visit("keyboard-identity", () => page.keyboard.press("Enter"));
    expect(new URL(page.url()).pathname).to.equal("/identity");
  });

  it("fits a phone's width without sideways scrolling", async () => {
    const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true });
    const small = await phone.newPage();
    for (const [name, path] of [
      ["phone-result", `/?name=${encodeURIComponent(reserved.name)}&ticker=${reserved.ticker}`],
      ["phone-protected", "/protected"],
    ] as const) {
      await small.goto(`${base}${path}`);
      expect(await small.evaluate(OVERFLOWS_SCRIPT), `${name} overflows`).to.equal(false);
      await small.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    }
    await phone.close();
  });

  it("no page made a request to another origin", () => {
    expect(watch.requests.length).to.be.above(10);
    expect(watch.foreignRequests([new URL(base).origin, new URL(sandboxBase).origin])).to.deep.equal([]);
  });
});
