// Runs the Postgres protocol messages of many client connections on PGlite's single session, one at a time.
//
// pglite-socket's own queue keeps a connection's turn only while a transaction is open. That is not enough:
// an extended-protocol query (Parse, Bind, Describe, Execute, then Sync) lives in the session's unnamed
// statement and portal, which another connection's message in between replaces or destroys — a simple
// `BEGIN` drops it ("unnamed prepared statement does not exist"), another Parse swaps the statement and a
// query silently answers with another query's rows. So a connection also keeps its turn from its first
// extended-protocol message until its Sync.
import type { PGlite } from "@electric-sql/pglite";

type OnData = (data: Uint8Array) => void;

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  onData: OnData;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
}

// Frontend message types that leave state in the unnamed statement or portal until the next Sync:
// Parse, Bind, Describe, Execute, Close, Flush.
const EXTENDED_QUERY_TYPES = new Set(["P", "B", "D", "E", "C", "H"].map((type) => type.charCodeAt(0)));

export class SessionQueue {
  private readonly queue: QueuedMessage[] = [];
  private processing = false;
  /** The connection whose turn it is until its transaction ends or its extended query reaches Sync. */
  private owner: number | null = null;

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: OnData): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.process();
    });
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number): void {
    for (let index = this.queue.length - 1; index >= 0; index--) {
      const queued = this.queue[index] as QueuedMessage;
      if (queued.handlerId !== handlerId) continue;
      this.queue.splice(index, 1);
      queued.reject(new Error("Handler disconnected"));
    }
  }

  /** A connection that goes away mid-turn must not hold the session: roll back and hand the turn on. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec("ROLLBACK");
    this.owner = null;
    void this.process();
  }

  private next(): QueuedMessage | undefined {
    if (this.owner === null) return this.queue.shift();
    const index = this.queue.findIndex((queued) => queued.handlerId === this.owner);
    return index === -1 ? undefined : this.queue.splice(index, 1)[0];
  }

  private keepsTurn(message: Uint8Array): boolean {
    return this.db.isInTransaction() || EXTENDED_QUERY_TYPES.has(message[0] ?? 0);
  }

  private async process(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      for (let queued = this.next(); queued !== undefined; queued = this.next()) {
        const current = queued;
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(current.message, {
              onRawData: (data) => {
                bytes += data.length;
                current.onData(data);
              },
            }),
          );
        } catch (error) {
          this.owner = null;
          current.reject(error);
          continue;
        }
        this.owner = this.keepsTurn(current.message) ? current.handlerId : null;
        current.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }
}
