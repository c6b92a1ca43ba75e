import {
  type Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
} from "@solana/web3.js";
import { expect } from "chai";
import { WebSocket } from "ws";
import { type SolanaRpc, startSolanaRpc } from "../../../scripts/localnet/solana/server";
import { connect, letWebsocketIdle, rawRpc, rpcResult } from "./rpcClient";

describe("localnet Solana RPC fault mode", () => {
  let rpc: SolanaRpc;
  let connection: Connection;
  let payer: Keypair;

  before(async () => {
    rpc = await startSolanaRpc({ port: 0, slotMs: 50 });
    connection = connect(rpc);
    payer = Keypair.generate();
    const signature = await connection.requestAirdrop(payer.publicKey, 100 * LAMPORTS_PER_SOL);
    await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
  });

  afterEach(async () => {
    await rpcResult(rpc.rpcUrl, "localnet_setFaults", [{}]);
  });

  after(async () => {
    await letWebsocketIdle();
    await rpc.stop();
  });

  const pay = (lamports: number) =>
    new Transaction().add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports,
      }),
    );

  it("serves scripted 429s with Retry-After, which web3.js retries through", async () => {
    await rpcResult(rpc.rpcUrl, "localnet_setFaults", [{ script: [429] }]);
    const limited = await rawRpc(rpc.rpcUrl, "getSlot");
    expect(limited.status).to.equal(429);
    expect(limited.body.error?.code).to.equal(429);

    await rpcResult(rpc.rpcUrl, "localnet_setFaults", [{ script: [429, 429] }]);
    expect(await connection.getBalance(payer.publicKey)).to.be.greaterThan(0);
    expect((await rpcResult<{ script: unknown[] }>(rpc.rpcUrl, "localnet_getFaults")).script).to.deep.equal(
      [],
    );
  });

  it("fails only the listed methods with 5xx", async () => {
    await rpcResult(rpc.rpcUrl, "localnet_setFaults", [{ script: [503, 502], methods: ["getBalance"] }]);
    expect((await rawRpc(rpc.rpcUrl, "getSlot")).status).to.equal(200);
    const error = await connection.getBalance(payer.publicKey).catch((e: Error) => e);
    expect(String(error)).to.contain("503");
    expect((await rawRpc(rpc.rpcUrl, "getBalance", [payer.publicKey.toBase58()])).status).to.equal(502);
    expect((await rawRpc(rpc.rpcUrl, "getBalance", [payer.publicKey.toBase58()])).status).to.equal(200);
  });

  it("holds a timed-out request unanswered until the client gives up", async () => {
    await rpcResult(rpc.rpcUrl, "localnet_setFaults", [{ script: ["timeout"], timeoutMs: 5_000 }]);
    const aborted = await fetch(rpc.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getSlot" }),
      signal: AbortSignal.timeout(300),
    }).catch((e: Error) => e);
    expect(aborted).to.be.instanceOf(Error);
    expect((aborted as Error).name).to.equal("TimeoutError");
  });

  it("adds latency to every answer but never to its own control methods", async () => {
    await rpcResult(rpc.rpcUrl, "localnet_setFaults", [{ latencyMs: 300 }]);
    const started = performance.now();
    await rawRpc(rpc.rpcUrl, "getHealth");
    expect(performance.now() - started).to.be.at.least(290);
  });

  it("fails a reproducible share of requests at random for a given seed", async () => {
    const outcomes = async () => {
      await rpcResult(rpc.rpcUrl, "localnet_setFaults", [
        { failureRate: 0.5, randomFailures: [500], seed: 7 },
      ]);
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await rawRpc(rpc.rpcUrl, "getHealth")).status);
      return statuses;
    };
    const first = await outcomes();
    expect(first).to.include(500).and.to.include(200);
    expect(await outcomes()).to.deep.equal(first);
  });

  it("skips slots: no block, getBlockTime -32009, getBlocks leaves them out", async () => {
    await rpcResult(rpc.rpcUrl, "localnet_setFaults", [{ skipSlotRate: 1, freezeBlocks: false }]);
    rpc.chain.stop();
    try {
      const from = rpc.chain.ledger.head.slot;
      rpc.chain.produceBlock();
      rpc.chain.produceBlock();
      const to = rpc.chain.ledger.head.slot;
      const produced = await rpcResult<number[]>(rpc.rpcUrl, "getBlocks", [from, to]);
      expect(produced).to.have.length(3);
      expect(to - from).to.be.at.least(4);
      const skipped = Array.from({ length: to - from }, (_, i) => from + i).find(
        (slot) => !produced.includes(slot),
      );
      const reply = await rawRpc(rpc.rpcUrl, "getBlockTime", [skipped]);
      expect(reply.body.error?.code).to.equal(-32009);
      const block = await connection.getBlock(to, { maxSupportedTransactionVersion: 0 });
      expect(block?.parentSlot).to.be.lessThan(to - 1);
    } finally {
      rpc.chain.start();
    }
  });

  it("lands many transactions in one slot while blocks are frozen", async () => {
    await rpcResult(rpc.rpcUrl, "localnet_setFaults", [{ freezeBlocks: true }]);
    const signatures = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => sendAndConfirmTransaction(connection, pay(n * 1_000_000), [payer])),
    );
    const statuses = await connection.getSignatureStatuses(signatures);
    const slots = new Set(statuses.value.map((status) => status?.slot));
    expect(slots.size).to.equal(1);
    await rpcResult(rpc.rpcUrl, "localnet_setFaults", [{}]);
    await rpcResult(rpc.rpcUrl, "localnet_produceBlocks", [1]);
    const block = await connection.getBlock([...slots][0] as number, { maxSupportedTransactionVersion: 0 });
    const inBlock = block?.transactions.map((entry) => entry.transaction.signatures[0]);
    expect(inBlock).to.include.members(signatures);
  });

  it("lets finalized trail confirmed: history and statuses follow the commitment", async () => {
    await rpcResult(rpc.rpcUrl, "localnet_setFaults", [
      { commitmentLag: { confirmed: 0, finalized: 4 }, freezeBlocks: true },
    ]);
    const signature = await sendAndConfirmTransaction(connection, pay(2_000_000), [payer], {
      commitment: "confirmed",
    });
    const [status] = (await connection.getSignatureStatuses([signature])).value;
    expect(status?.confirmationStatus).to.equal("confirmed");
    expect(status?.confirmations).to.equal(0);
    expect(
      await connection.getTransaction(signature, {
        commitment: "finalized",
        maxSupportedTransactionVersion: 0,
      }),
    ).to.equal(null);
    const finalizedHistory = await connection.getSignaturesForAddress(
      payer.publicKey,
      { limit: 5 },
      "finalized",
    );
    expect(finalizedHistory.map((entry) => entry.signature)).not.to.include(signature);
    expect(await connection.getSlot("finalized")).to.be.lessThan(await connection.getSlot("confirmed"));

    await rpcResult(rpc.rpcUrl, "localnet_produceBlocks", [2]);
    const [deeper] = (await connection.getSignatureStatuses([signature])).value;
    expect(deeper?.confirmations).to.equal(2);
    expect(deeper?.confirmationStatus).to.equal("confirmed");
    await rpcResult(rpc.rpcUrl, "localnet_produceBlocks", [2]);
    const [later] = (await connection.getSignatureStatuses([signature])).value;
    expect(later?.confirmationStatus).to.equal("finalized");
    expect(later?.confirmations).to.equal(null);
    expect(
      await connection.getTransaction(signature, {
        commitment: "finalized",
        maxSupportedTransactionVersion: 0,
      }),
    ).not.to.equal(null);
  });

  it("holds logs notifications back until the transaction reaches the subscription's commitment", async () => {
    await rpcResult(rpc.rpcUrl, "localnet_setFaults", [
      { commitmentLag: { confirmed: 0, finalized: 3 }, freezeBlocks: true },
    ]);
    const socket = new WebSocket(rpc.wsUrl);
    await new Promise((resolve) => socket.once("open", resolve));
    const messages: { method?: string; params?: { result: { value: { signature: string } } } }[] = [];
    socket.on("message", (data) => messages.push(JSON.parse(String(data))));
    socket.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "logsSubscribe",
        params: [{ mentions: [payer.publicKey.toBase58()] }, { commitment: "finalized" }],
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const signature = await sendAndConfirmTransaction(connection, pay(1_100_000), [payer]);
    const notifications = () => messages.filter((message) => message.method === "logsNotification");
    await rpcResult(rpc.rpcUrl, "localnet_produceBlocks", [2]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(notifications()).to.have.length(0);
    await rpcResult(rpc.rpcUrl, "localnet_produceBlocks", [1]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(notifications().map((message) => message.params?.result.value.signature)).to.deep.equal([
      signature,
    ]);
    socket.close();
  });

  it("answers every other request from a replica behind by the given blocks, which refuses a minContextSlot past its slot", async () => {
    await rpcResult(rpc.rpcUrl, "localnet_setFaults", [{ freezeBlocks: true }]);
    for (let block = 0; block < 4; block++) rpc.chain.produceBlock();
    const [head, , , behind] = rpc.chain.ledger.recentBlocks(4).map((block) => block.slot);
    await rpcResult(rpc.rpcUrl, "localnet_setFaults", [{ freezeBlocks: true, laggingReplicaBlocks: 3 }]);
    const confirmed = [{ commitment: "confirmed" }];
    const slots = [
      await rpcResult<number>(rpc.rpcUrl, "getSlot", confirmed),
      await rpcResult<number>(rpc.rpcUrl, "getSlot", confirmed),
    ];
    expect(slots).to.deep.equal([behind, head]);
    const atHead = [{ commitment: "confirmed", minContextSlot: head }];
    const answers = [
      await rawRpc(rpc.rpcUrl, "getSlot", atHead),
      await rawRpc(rpc.rpcUrl, "getSlot", atHead),
    ];
    expect(answers.map((answer) => answer.body.error?.code ?? answer.body.result)).to.deep.equal([
      -32016,
      head,
    ]);
  });

  it("reports null block times when asked to", async () => {
    const signature = await sendAndConfirmTransaction(connection, pay(1_500_000), [payer]);
    await rpcResult(rpc.rpcUrl, "localnet_setFaults", [{ nullBlockTime: true }]);
    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(landed?.blockTime).to.equal(null);
    expect(await connection.getBlockTime(landed?.slot as number)).to.equal(null);
  });

  it("drops websocket clients, which can reconnect and subscribe again", async () => {
    const subscribe = async () => {
      const socket = new WebSocket(rpc.wsUrl);
      await new Promise((resolve, reject) => {
        socket.once("open", resolve);
        socket.once("error", reject);
      });
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "slotSubscribe" }));
      await new Promise((resolve) => socket.once("message", resolve));
      return socket;
    };
    await letWebsocketIdle(); // web3.js would otherwise keep reconnecting its dropped socket
    const first = await subscribe();
    const closed = new Promise((resolve) => first.once("close", resolve));
    rpc.dropWebsockets();
    await closed;
    const second = await subscribe();
    const notification = await new Promise<string>((resolve) =>
      second.once("message", (data) => resolve(String(data))),
    );
    expect(JSON.parse(notification).method).to.equal("slotNotification");
    second.close();
  });

  it("moves chain time forward for expiry and renewal tests", async () => {
    const before = rpc.chain.now();
    const after = await rpcResult<number>(rpc.rpcUrl, "localnet_warpTime", [3600]);
    expect(after - before).to.be.within(3600, 3601);
    await rpcResult(rpc.rpcUrl, "localnet_produceBlocks", [1]);
    const slot = await connection.getSlot("finalized");
    expect(await connection.getBlockTime(slot)).to.be.at.least(after);
  });
});
