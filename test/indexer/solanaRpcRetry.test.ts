// The Solana indexer's RPC client: what it retries (429, 5xx, timeouts, dropped connections, a node behind the
// asked minContextSlot) and what it does not (other JSON-RPC error answers), against a real local HTTP server
// scripted per request.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { RpcAbandonedError, RpcUnavailableError, SolanaRpcError, solanaRpc } from "../../indexer/solana/rpc";

type Reply = { status: number; body?: unknown } | "hang" | "drop";

describe("Solana indexer RPC client retries", () => {
  let server: Server;
  let url: string;
  let script: Reply[] = [];
  let requests = 0;

  before(async () => {
    server = createServer((request, response) => {
      requests++;
      request.resume();
      const reply = script.shift() ?? { status: 200, body: { jsonrpc: "2.0", id: 1, result: 42 } };
      if (reply === "hang") return;
      if (reply === "drop") {
        request.socket.destroy();
        return;
      }
      response
        .writeHead(reply.status, { "content-type": "application/json" })
        .end(JSON.stringify(reply.body ?? {}));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  beforeEach(() => {
    requests = 0;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const policy = { attempts: 6, initialDelayMs: 1, maxDelayMs: 5, timeoutMs: 200 };

  it("retries 429, 5xx, a timeout and a dropped connection, then returns the answer", async () => {
    script = [{ status: 429 }, { status: 503 }, "hang", "drop", { status: 500 }];
    const result = await solanaRpc(url, policy)<number>("getSlot", []);
    expect(result).to.equal(42);
    expect(requests).to.equal(6);
  });

  it("gives up after the configured attempts with an error that says the RPC is unavailable", async () => {
    script = Array.from({ length: 6 }, () => ({ status: 502 }));
    const call = solanaRpc(url, policy)("getSlot", []);
    await call.then(
      () => expect.fail("should have failed"),
      (error) => {
        expect(error).to.be.instanceOf(RpcUnavailableError);
        expect((error as Error).message).to.include("HTTP 502");
      },
    );
    expect(requests).to.equal(6);
  });

  it("does not retry a JSON-RPC error answer", async () => {
    script = [
      { status: 200, body: { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Invalid param" } } },
    ];
    const call = solanaRpc(url, policy)("getTransaction", ["bad"]);
    await call.then(
      () => expect.fail("should have failed"),
      (error) => {
        expect(error).to.be.instanceOf(SolanaRpcError);
        expect((error as SolanaRpcError).code).to.equal(-32602);
      },
    );
    expect(requests).to.equal(1);
  });

  it("retries a node behind the asked minContextSlot (-32016), as another node behind the same URL may have it", async () => {
    const behind = { code: -32016, message: "Minimum context slot has not been reached" };
    script = [{ status: 200, body: { jsonrpc: "2.0", id: 1, error: behind } }];
    expect(await solanaRpc(url, policy)<number>("getSlot", [{ minContextSlot: 42 }])).to.equal(42);
    expect(requests).to.equal(2);
  });

  it("abandons a hung call when its signal is aborted, without retrying it", async () => {
    script = ["hang"];
    const controller = new AbortController();
    // A timeout far beyond the test's: only the signal can end the call.
    const call = solanaRpc(url, { ...policy, timeoutMs: 600_000 })("getSlot", [], controller.signal);
    while (requests === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error("the watchdog restarted the Solana loop"));
    await call.then(
      () => expect.fail("should have been abandoned"),
      (error) => {
        expect(error).to.be.instanceOf(RpcAbandonedError);
        expect((error as Error).message).to.equal(
          "getSlot abandoned: the watchdog restarted the Solana loop",
        );
      },
    );
    expect(requests).to.equal(1);
  });
});
