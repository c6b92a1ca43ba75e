// The SDK's browser entry in headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core): the
// self-contained bundle is loaded by a page, which fetches the published keys from the running service
// (GET /v1/keys is open to any origin) and verifies a real decision with Web Crypto and noble. No Node here.
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import type { Browser } from "playwright-core";
import { browserBundle } from "../../scripts/sdk/build";
import type { SignedDecision } from "../../sdk/src";
import { EVM_OTHER } from "../api/routes/identity/support";
import { CHROMIUM_PATH, launchChromium } from "../web/chromium";
import { LAUNCHPAD, type SdkFixture, startSdkFixture } from "./support";

// Plain JavaScript run in the page (a string: the test runner's transform would add helpers a page lacks).
const IN_PAGE = `async ({ apiUrl, decision, launchpadId }) => {
  const sdk = await import("/sdk.js");
  const response = await fetch(apiUrl + "/api/v1/keys?environment=production");
  const keys = sdk.parseKeys(await response.text(), "production");
  const expect = { environment: "production", chain: "hardhat", launcher: decision.launcher, launchpadId };
  const verify = (candidate, expected = expect) => sdk.verifyDecision(candidate, keys, { expect: expected });
  const secret = "whsec_YnJvd3Nlci1zZWNyZXQtYnJvd3Nlci1zZWNyZXQtYnJvd3Nlcg";
  const event = { id: "dlv_b", type: "launch.reported", createdAt: new Date().toISOString(), data: {} };
  const signed = await sdk.signTestWebhook(event, secret);
  return {
    node: typeof globalThis.process,
    subtle: typeof crypto.subtle.verify,
    ok: await verify(decision),
    tampered: await verify({ ...decision, decision: "block" }),
    otherLaunchpad: await verify(decision, { ...expect, launchpadId: "pad-x" }),
    webhook: (await sdk.verifyWebhook(signed.body, signed.headers, secret)).id,
  };
}`;

describe("sdk: the browser entry in headless Chromium", function () {
  this.timeout(60_000);
  let fx: SdkFixture;
  let page: Server;
  let pageUrl: string;
  let browser: Browser;

  before(async () => {
    expect(existsSync(CHROMIUM_PATH), `${CHROMIUM_PATH} (Debian package chromium) is needed`).to.equal(true);
    fx = await startSdkFixture();
    const bundle = await browserBundle();
    page = createServer((request, response) => {
      if (request.url === "/sdk.js") {
        response.writeHead(200, { "content-type": "text/javascript" }).end(bundle);
      } else {
        response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>sdk</title>");
      }
    });
    await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
    pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (page ? page.close(() => resolve()) : resolve()));
    await fx?.api.close();
  });

  it("verifies a real decision with the keys it fetched itself, refuses a tampered one, verifies a webhook", async () => {
    const verdict = await fx
      .guard()
      .check({ chain: "hardhat", name: "Browser Coin", ticker: "BRWS", launcher: EVM_OTHER });
    expect(verdict.launch, JSON.stringify(verdict)).to.equal(true);
    const tab = await browser.newPage();
    await tab.goto(pageUrl);
    const args = { apiUrl: fx.api.url, decision: verdict.decision as SignedDecision, launchpadId: LAUNCHPAD };
    const results = await tab.evaluate(`(${IN_PAGE})(${JSON.stringify(args)})`);
    expect(results).to.deep.equal({
      node: "undefined",
      subtle: "function",
      ok: { valid: true, reason: "ok" },
      tampered: { valid: false, reason: "bad_signature" },
      otherLaunchpad: { valid: false, reason: "launchpad_mismatch" },
      webhook: "dlv_b",
    });
  });
});
