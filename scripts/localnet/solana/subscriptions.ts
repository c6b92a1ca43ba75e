// Websocket subscriptions with the notification shapes of a validator's PubSub service:
// signature (what web3.js confirmTransaction waits on), account, logs (Anchor events) and slot.
import { WebSocket } from "ws";
import { encodeAccount, encodingOf } from "./accountEncoding";
import type { SolanaChain } from "./chain";
import type { Commitment, TransactionRecord } from "./ledger";
import { addressParam, commitmentOf, configParam, type Params, stringParam } from "./params";
import { invalidParams, RpcError, RpcErrorCode } from "./rpcError";

interface Subscription {
  id: number;
  socket: WebSocket;
  kind: "signature" | "account" | "logs" | "slot";
  commitment: Commitment;
  matches(record: TransactionRecord): boolean;
  encoding?: string;
  address?: string;
  signature?: string;
  /** Matching transactions not yet at the subscription's commitment (logs and account kinds). */
  pending: TransactionRecord[];
}

const NOTIFICATION_METHOD: Record<Subscription["kind"], string> = {
  signature: "signatureNotification",
  account: "accountNotification",
  logs: "logsNotification",
  slot: "slotNotification",
};

function logsFilter(filter: unknown): (record: TransactionRecord) => boolean {
  if (filter === "all" || filter === "allWithVotes") return () => true;
  const mentions = (filter as { mentions?: unknown })?.mentions;
  if (Array.isArray(mentions) && mentions.length === 1) {
    const address = addressParam(mentions, 0);
    return (record) => record.accountKeys.includes(address);
  }
  throw invalidParams('Invalid logs filter: use "all", "allWithVotes" or { "mentions": [<one address>] }');
}

export class SubscriptionHub {
  private nextId = 1;
  private readonly subscriptions = new Map<number, Subscription>();
  private readonly unsubscribeChain: () => void;

  constructor(private readonly chain: SolanaChain) {
    this.unsubscribeChain = chain.subscribe({
      transaction: (record) => this.onTransaction(record),
      block: () => this.onBlock(),
    });
  }

  close(): void {
    this.unsubscribeChain();
    this.subscriptions.clear();
  }

  dropSocket(socket: WebSocket): void {
    for (const [id, subscription] of this.subscriptions)
      if (subscription.socket === socket) this.subscriptions.delete(id);
  }

  /** Handles one websocket JSON-RPC call; returns its result or throws an RpcError. */
  call(socket: WebSocket, method: string, params: Params): unknown {
    if (method.endsWith("Unsubscribe")) {
      const id = params[0];
      if (typeof id !== "number" || !this.subscriptions.delete(id)) {
        throw new RpcError(RpcErrorCode.invalidParams, "Invalid subscription id.");
      }
      return true;
    }
    const subscribers: Record<string, () => number> = {
      signatureSubscribe: () => this.signature(socket, params),
      accountSubscribe: () => this.account(socket, params),
      logsSubscribe: () => this.logs(socket, params),
      slotSubscribe: () => this.add({ socket, kind: "slot", commitment: "processed", matches: () => false }),
    };
    const subscribe = Object.hasOwn(subscribers, method) ? subscribers[method] : undefined;
    if (!subscribe) throw new RpcError(RpcErrorCode.methodNotFound, `Method not found: ${method}`);
    return subscribe();
  }

  private add(fields: Omit<Subscription, "id" | "pending">): number {
    const id = this.nextId++;
    this.subscriptions.set(id, { id, pending: [], ...fields });
    return id;
  }

  private signature(socket: WebSocket, params: Params): number {
    const signature = stringParam(params, 0, "a transaction signature");
    const commitment = commitmentOf(configParam(params, 1));
    const id = this.add({
      socket,
      kind: "signature",
      commitment,
      signature,
      matches: (r) => r.signature === signature,
    });
    // Answer already-landed signatures at once, after the subscription id has gone out.
    setImmediate(() => this.settleSignature(id));
    return id;
  }

  private account(socket: WebSocket, params: Params): number {
    const address = addressParam(params, 0);
    const config = configParam(params, 1);
    return this.add({
      socket,
      kind: "account",
      commitment: commitmentOf(config),
      encoding: encodingOf(config),
      address,
      matches: (record) => record.accountKeys.includes(address),
    });
  }

  private logs(socket: WebSocket, params: Params): number {
    const matches = logsFilter(params[0]);
    return this.add({ socket, kind: "logs", commitment: commitmentOf(configParam(params, 1)), matches });
  }

  private notify(subscription: Subscription, result: unknown): void {
    if (subscription.socket.readyState !== WebSocket.OPEN) return;
    subscription.socket.send(
      JSON.stringify({
        jsonrpc: "2.0",
        method: NOTIFICATION_METHOD[subscription.kind],
        params: { result, subscription: subscription.id },
      }),
    );
  }

  private context(slot: number) {
    return { slot };
  }

  /** Signature subscriptions fire once, when the transaction reaches their commitment. */
  private settleSignature(id: number): void {
    const subscription = this.subscriptions.get(id);
    if (!subscription?.signature) return;
    const record = this.chain.ledger.transaction(subscription.signature);
    if (!record || record.slot > this.chain.ledger.blockAt(subscription.commitment).slot) return;
    this.subscriptions.delete(id);
    this.notify(subscription, { context: this.context(record.slot), value: { err: record.err } });
  }

  private onTransaction(record: TransactionRecord): void {
    for (const subscription of this.subscriptions.values()) {
      if (!subscription.matches(record)) continue;
      if (subscription.kind === "signature") this.settleSignature(subscription.id);
      if (subscription.kind === "logs" || subscription.kind === "account") {
        subscription.pending.push(record);
        this.flush(subscription);
      }
    }
  }

  /** Sends the pending notifications whose transactions have reached the subscription's commitment. */
  private flush(subscription: Subscription): void {
    const visibleSlot = this.chain.ledger.blockAt(subscription.commitment).slot;
    while (
      subscription.pending.length > 0 &&
      (subscription.pending[0] as TransactionRecord).slot <= visibleSlot
    ) {
      const record = subscription.pending.shift() as TransactionRecord;
      const context = this.context(record.slot);
      if (subscription.kind === "logs") {
        this.notify(subscription, {
          context,
          value: { signature: record.signature, err: record.err, logs: record.logMessages },
        });
      } else if (subscription.address) {
        // The account as it is now; a closed one reads as empty and owned by the System Program.
        const state = this.chain.account(subscription.address) ?? {
          lamports: 0n,
          data: new Uint8Array(0),
          owner: "11111111111111111111111111111111",
          executable: false,
        };
        this.notify(subscription, {
          context,
          value: encodeAccount(state, subscription.encoding ?? "base64"),
        });
      }
    }
  }

  private onBlock(): void {
    const head = this.chain.ledger.head;
    for (const subscription of [...this.subscriptions.values()]) {
      if (subscription.kind === "signature") this.settleSignature(subscription.id);
      if (subscription.kind === "logs" || subscription.kind === "account") this.flush(subscription);
      if (subscription.kind === "slot") {
        this.notify(subscription, {
          parent: head.parentSlot,
          root: this.chain.ledger.blockAt("finalized").slot,
          slot: head.slot,
        });
      }
    }
  }
}
