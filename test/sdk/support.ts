// Shared by the SDK tests: a running API with two chains and fresh checkpoints (the decision tests' setup),
// a production key bound to a launchpad, and fetch wrappers that count, observe or corrupt real answers.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createLaunchGuard, type Fetch, type LaunchGuardOptions } from "../../sdk/src";
import { bindLaunchpad } from "../../services/partners/launchpads";
import { CHAINS, setCheckpoints } from "../api/routes/identity/support";
import { issueKey, startTestApi, type TestApi, type TestApiOptions } from "../api/support/harness";

export const LAUNCHPAD = "pad-sdk";
export const OPERATOR = { actor: "test-operator", reason: "sdk test" };

export interface SdkFixture {
  api: TestApi;
  live: { secret: string; partnerId: string; keyId: string };
  guard(options?: Partial<LaunchGuardOptions>): ReturnType<typeof createLaunchGuard>;
}

export async function startSdkFixture(deps: TestApiOptions["deps"] = {}): Promise<SdkFixture> {
  const api = await startTestApi({ deps: { decisions: { chains: CHAINS }, ...deps } });
  await setCheckpoints(api.db.pool);
  const live = await issueKey(api, "production", { rateLimitPerMinute: 2000 });
  await bindLaunchpad(api.db.pool, LAUNCHPAD, live.partnerId, OPERATOR);
  return {
    api,
    live,
    guard: (options = {}) =>
      createLaunchGuard({
        baseUrl: api.url,
        apiKey: live.secret,
        launchpadId: LAUNCHPAD,
        environment: "production",
        timeoutMs: 3000,
        ...options,
      }),
  };
}

export interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
}

/** A fetch that records every call and lets `rewrite` replace a real answer (or throw instead). */
export function observedFetch(
  rewrite: (call: Call, response: Response, index: number) => Promise<Response> | Response = (_c, r) => r,
): { fetch: Fetch; calls: Call[] } {
  const calls: Call[] = [];
  const fetchFn: Fetch = async (url, init) => {
    const call = {
      url,
      method: init.method ?? "GET",
      headers: { ...(init.headers as Record<string, string>) },
    };
    calls.push(call);
    return rewrite(call, await fetch(url, init), calls.length - 1);
  };
  return { fetch: fetchFn, calls };
}

/** A copy of a JSON answer with its body changed by `edit`. */
export async function editedJson(response: Response, edit: (body: Record<string, unknown>) => void) {
  const body = (await response.json()) as Record<string, unknown>;
  edit(body);
  return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
}

/** An HTTP server that accepts connections and never answers (a hung service). */
export async function startSilentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
