// What the browser tests measure on every page they visit: the bytes transferred, requests to other origins,
// console errors (a CSP violation is one), text contrast and horizontal overflow.
import type { Page, Request } from "playwright-core";

/** A page as loaded: its URL and the bytes of every response it fetched (headers and body, as transferred). */
export interface PageWeight {
  url: string;
  requests: number;
  bytes: number;
}

/** Watches a browser page: every request it makes and every console error or uncaught exception. */
export class PageWatch {
  readonly requests: Request[] = [];
  private errors: string[] = [];
  private mark = 0;

  constructor(readonly page: Page) {
    page.on("request", (request) => this.requests.push(request));
    page.on("console", (message) => {
      if (message.type() === "error") this.errors.push(message.text());
    });
    page.on("pageerror", (error) => this.errors.push(error.message));
  }

  /** Runs a navigation (a goto, a click, a key) and returns the weight of the document it loaded. */
  async load(navigate: () => Promise<unknown>): Promise<PageWeight> {
    this.mark = this.requests.length;
    // Listening first: a click or a key only starts the navigation, and the load to wait for is the next one.
    await Promise.all([this.page.waitForEvent("load"), navigate()]);
    const requests = this.requests.slice(this.mark).filter((request) => !request.url().startsWith("data:"));
    let bytes = 0;
    for (const request of requests) {
      const sizes = await request.sizes();
      bytes += sizes.responseHeadersSize + sizes.responseBodySize;
    }
    return { url: this.page.url(), requests: requests.length, bytes };
  }

  /** The console errors and uncaught exceptions since the last call. */
  takeErrors(): string[] {
    return this.errors.splice(0);
  }

  /** Origins of every request that was not to one of `origins` (data: URLs are not requests on the wire). */
  foreignRequests(origins: readonly string[]): string[] {
    return this.requests
      .map((request) => request.url())
      .filter((url) => !url.startsWith("data:") && !origins.includes(new URL(url).origin));
  }
}

/**
 * Elements whose own text has a contrast ratio under WCAG AA against the background it is drawn on (4.5:1, or
 * 3:1 for large text). A string, not a function: the test runner's transpiler may add helpers a page lacks.
 */
export const LOW_CONTRAST_SCRIPT = `(() => {
  const rgb = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => {
    const channel = (value) => { const c = value / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const backgroundOf = (element) => {
    for (let node = element; node; node = node.parentElement) {
      const color = rgb(getComputedStyle(node).backgroundColor);
      if (color.length === 3 || (color.length === 4 && color[3] > 0)) return color.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const failures = [];
  for (const element of document.body.querySelectorAll("*")) {
    const ownText = [...element.childNodes].some((node) => node.nodeType === 3 && node.textContent.trim() !== "");
    if (!ownText || element.getClientRects().length === 0) continue;
    const style = getComputedStyle(element);
    if (style.visibility === "hidden" || element.closest(".skip")) continue;
    const [a, b] = [luminance(rgb(style.color)), luminance(backgroundOf(element))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) failures.push(element.tagName + " '" + element.textContent.trim().slice(0, 40) + "' " + ratio.toFixed(2));
  }
  return failures;
})()`;

/** True when the page is wider than its viewport (content a phone would have to scroll sideways). */
export const OVERFLOWS_SCRIPT = "document.documentElement.scrollWidth > document.documentElement.clientWidth";
