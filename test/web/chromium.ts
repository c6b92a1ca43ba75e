// Debian's Chromium driven by playwright-core (no browser download): the web tests and `npm run bench -- web`.
// Every launch gets a fresh profile (playwright's own temporary --user-data-dir) and no background traffic, so
// any request the browser makes is one a page asked for.
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

export const CHROMIUM_PATH = "/usr/bin/chromium";

const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Headless Chromium; `hosts` are resolved to 127.0.0.1 (the test hosts, e.g. the sandbox host). */
export async function launchChromium(hosts: readonly string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: install Debian's browser with \`apt-get install -y chromium chromium-driver\` (.ci/run does).`,
    );
  }
  const rules = hosts.map((host) => `MAP ${host} 127.0.0.1`).join(", ");
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...FLAGS, ...(rules === "" ? [] : [`--host-resolver-rules=${rules}`])],
  });
}
