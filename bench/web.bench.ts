// Time to first render of the public pages in headless Chromium (Debian's, through playwright-core), each
// beside a baseline measured in the same run: the very same HTML and script, captured from the service once and
// served by a bare node:http server with the same headers. The difference is what rendering the page in the
// service costs (host routing, the keyless count, the database reads, the templates); the baseline is what the
// browser itself needs to fetch, parse and paint that many bytes.
//
// Each server has its own tab with the HTTP cache off (every load fetches the document and the script, as a first
// visit does), and the two take turns so both see the same drift of a shared machine. Database: DATABASE_URL when set, else the embedded one.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { Browser, Page } from "playwright-core";
import { LOOKUP_SCRIPT_PATH } from "../api/web/assets";
import { startTestApi, TEST_HOSTS, type TestApi } from "../test/api/support/harness";
import { insertCheckpoint, insertReservation } from "../test/api/support/readModelRows";
import { stopSharedEmbeddedServer } from "../test/support/testDatabase";
import { launchChromium } from "../test/web/chromium";
import type { Emit } from "./run";
import { listenOnFreePort } from "./support/childServer";
import { percentile } from "./support/stats";

const SAMPLES = 20;
const WARMUP = 3;
const SANDBOX_HOST = "sandbox.localhost";
const WALLET = "0x52908400098527886e0f7030069857d2e4169ee7";
const RESERVATIONS = 60;

/** The pages measured: name, path and whether they are read on the sandbox host. */
const PAGES = [
  { name: "lookup", path: "/", sandbox: false },
  { name: "lookup_result", path: "/?name=Bench+Page+7&ticker=BPG7&chain=hardhat", sandbox: false },
  { name: "identity", path: "/identity?key=BENCHPAGET%3A%3ABPGT", sandbox: false },
  { name: "protected", path: "/protected", sandbox: false },
  { name: "sandbox_result", path: "/?name=SandboxFox&ticker=SFOX", sandbox: true },
] as const;

interface Captured {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

async function capture(url: string, host?: string): Promise<Captured> {
  const response = await fetch(url, host ? { headers: { host } } : {});
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers.entries()),
    body: Buffer.from(await response.arrayBuffer()),
  };
}

/** A bare node:http server answering each captured path with its captured status, headers and bytes. */
function staticServer(answers: ReadonlyMap<string, Captured>): Server {
  const server = createServer((req, res) => {
    const answer = answers.get(req.url ?? "");
    if (answer === undefined) {
      res.writeHead(404).end();
      return;
    }
    const headers = { ...answer.headers };
    delete headers["transfer-encoding"];
    delete headers.connection;
    delete headers["keep-alive"];
    delete headers.date;
    res.writeHead(answer.status, headers as Record<string, string>).end(answer.body);
  });
  return server;
}

interface Sample {
  /** Navigation start to the first contentful paint. */
  firstRender: number;
  /** Navigation start to the first byte of the answer (the server's share). */
  firstByte: number;
}

const TIMINGS = `(() => {
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  const navigation = performance.getEntriesByType("navigation")[0];
  return paint && navigation ? { firstRender: paint.startTime, firstByte: navigation.responseStart } : null;
})()`;

/** One load of `url` in `page` (its cache disabled, so the script is fetched each time too). */
async function sample(page: Page, url: string): Promise<Sample> {
  await page.goto(url, { waitUntil: "load" });
  // Read with evaluate (CDP, outside the page's CSP): waitForFunction evaluates strings inside the page, which
  // the page's script-src forbids.
  for (;;) {
    const timings = (await page.evaluate(TIMINGS)) as Sample | null;
    if (timings !== null) return timings;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A tab whose HTTP cache is off: every load fetches the document and the script as a first visit does. */
async function coldTab(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  const session = await page.context().newCDPSession(page);
  await session.send("Network.enable");
  await session.send("Network.setCacheDisabled", { cacheDisabled: true });
  return page;
}

const round1 = (value: number) => Number(value.toFixed(1));

async function seeded(): Promise<TestApi> {
  const api = await startTestApi({
    deps: { hosts: { ...TEST_HOSTS, sandbox: [SANDBOX_HOST] }, decisions: { chains: [] } },
  });
  const now = Date.now();
  for (const [chain, family] of [
    ["hardhat", "evm"],
    ["solana", "solana"],
  ] as const) {
    await insertCheckpoint(api.db.pool, {
      chain,
      family,
      head: 1_000,
      indexed: 1_000,
      indexedAt: new Date(),
    });
  }
  for (let index = 0; index < RESERVATIONS; index += 1) {
    await insertReservation(api.db.pool, {
      chain: index % 2 === 0 ? "hardhat" : "solana",
      name: `Bench Page ${index}`,
      ticker: `BPG${index}`,
      launcher: WALLET,
      reservedAt: new Date(now - (index + 1) * 60_000),
      expiresAt: new Date(now + 86_400_000),
    });
  }
  return api;
}

export async function run(emit: Emit): Promise<void> {
  const [api, browser] = await Promise.all([seeded(), launchChromium()]);
  let bare: Server | undefined;
  try {
    const origin = (host: string | undefined, port: string) => `http://${host ?? "127.0.0.1"}:${port}`;
    const servicePort = new URL(api.url).port;
    const answers = new Map<string, Captured>();
    for (const { path, sandbox } of PAGES) {
      const captured = await capture(
        `${api.url}${path}`,
        sandbox ? `${SANDBOX_HOST}:${servicePort}` : undefined,
      );
      if (captured.status !== 200) throw new Error(`${path} answered ${captured.status}`);
      answers.set(path, captured);
    }
    answers.set(LOOKUP_SCRIPT_PATH, await capture(`${api.url}${LOOKUP_SCRIPT_PATH}`));
    bare = staticServer(answers);
    const barePort = new URL(await listenOnFreePort(bare)).port;

    const tabs = { service: await coldTab(browser), bare: await coldTab(browser) };
    for (const page of PAGES) {
      const host = page.sandbox ? SANDBOX_HOST : undefined;
      const urls = {
        service: `${origin(host, servicePort)}${page.path}`,
        bare: `${origin(host, barePort)}${page.path}`,
      };
      const samples: Record<keyof typeof urls, Sample[]> = { service: [], bare: [] };
      for (let round = 0; round < WARMUP + SAMPLES; round += 1) {
        for (const mode of round % 2 === 0
          ? (["service", "bare"] as const)
          : (["bare", "service"] as const)) {
          const timings = await sample(tabs[mode], urls[mode]);
          if (round >= WARMUP) samples[mode].push(timings);
        }
      }
      emit(`${page.name}.html_bytes`, (answers.get(page.path) as Captured).body.length, "bytes");
      const p50 = (mode: keyof typeof urls, metric: keyof Sample) =>
        percentile(
          samples[mode].map((timings) => timings[metric]).sort((a, b) => a - b),
          0.5,
        );
      for (const mode of ["service", "bare"] as const) {
        const sorted = samples[mode].map((timings) => timings.firstRender).sort((a, b) => a - b);
        emit(`${page.name}.first_render.${mode}.p50`, round1(percentile(sorted, 0.5)), "ms");
        emit(`${page.name}.first_render.${mode}.p90`, round1(percentile(sorted, 0.9)), "ms");
        emit(`${page.name}.first_byte.${mode}.p50`, round1(p50(mode, "firstByte")), "ms");
      }
      emit(
        `${page.name}.first_render.ratio_service_vs_bare`,
        Number((p50("service", "firstRender") / p50("bare", "firstRender")).toFixed(3)),
        "ratio",
      );
    }
  } finally {
    bare?.close();
    await browser.close();
    await api.close();
    await stopSharedEmbeddedServer();
  }
}
