// Runs the Postgres protocol messages of many client connections on PGlite's single session, one at a time.
//
// pglite-socket's own queue keeps a connection's turn only while a transaction is open. That is not enough:
// an extended-protocol query (Parse, Bind, Describe, Execute, then Sync) lives in the session's unnamed
// statement and portal, which another connection's message in between replaces or destroys — a simple
// `BEGIN` drops it ("unnamed prepared statement does not exist"), another Parse swaps the statement and a
// query silently answers with another query's rows. So a connection also keeps its turn from its first
// extended-protocol message until its Sync.
//
// PGlite cannot stream COPY FROM STDIN: its backend runs one protocol call at a time, finds no CopyData after
// the COPY query, loses protocol synchronization and logs a FATAL in a loop that never yields (the process
// grew ~30 MB/s until a 5,000-event Ponder backfill ran out of a 6 GB heap; Ponder writes with COPY
// FROM STDIN on Postgres). So the queue plays the COPY itself: it answers the query with CopyInResponse,
// keeps the connection's turn while collecting its CopyData, and on CopyDone runs the same COPY from
// PGlite's `/dev/blob` with the collected data.
//
// Durability is not a client's to turn off here. PGlite runs Postgres as a single-user backend, which has no
// WAL writer: with `synchronous_commit = off` (Ponder sets it on each of its connections) a commit's WAL stays
// in memory until a later synchronous commit or shutdown, and because every connection shares the one
// session, the setting would reach every other client's commits too. Killed then, the process lost every
// acknowledged write since Ponder connected. So after any statement that names the setting, the queue sets it
// back on before another message runs.
//
// Statement names are the connection's own (./statementNames): the queue renames them on the way in, and drops a
// connection's statements when it goes away, once no other connection holds the turn.
import type { PGlite } from "@electric-sql/pglite";
import { deallocateMessage, isParse, isStatementClose, withConnectionStatementName } from "./statementNames";

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
const [QUERY, COPY_DATA, COPY_DONE, COPY_FAIL] = ["Q", "d", "c", "f"].map((type) => type.charCodeAt(0));
const COPY_FROM_STDIN = /^\s*(COPY\s+.+?\s+FROM\s+)STDIN\b([^;]*);?\s*$/is;
const [PARSE, SYNC] = ["P", "S"].map((type) => type.charCodeAt(0));
const NAMES_SYNCHRONOUS_COMMIT = /synchronous_commit/i;
const SYNCHRONOUS_COMMIT_ON = "SET synchronous_commit TO on";
/** The queue's own messages (dropping a closed connection's statements): never a connection's turn. */
const SESSION_HANDLER = -1;
const ignore = () => undefined;

/** Whether a Query or Parse message's text may change `synchronous_commit` (SET, set_config, RESET, ...). */
function mayChangeSynchronousCommit(message: Uint8Array): boolean {
  const type = message[0];
  if (type !== QUERY && type !== PARSE) return false;
  return NAMES_SYNCHRONOUS_COMMIT.test(
    Buffer.from(message.buffer, message.byteOffset, message.length).toString("latin1"),
  );
}

/** One backend message: type byte, int32 length (itself included), body. */
function backendMessage(type: string, body: Uint8Array): Uint8Array {
  const message = Buffer.alloc(5 + body.length);
  message.write(type, 0, "latin1");
  message.writeInt32BE(4 + body.length, 1);
  message.set(body, 5);
  return message;
}

const cString = (text: string) => Buffer.from(`${text}\0`, "utf8");

interface Copy {
  handlerId: number;
  /** The COPY reading PGlite's /dev/blob instead of STDIN. */
  sql: string;
  chunks: Uint8Array[];
}

export class SessionQueue {
  private readonly queue: QueuedMessage[] = [];
  private processing = false;
  /** The connection whose turn it is until its transaction ends or its extended query reaches Sync. */
  private owner: number | null = null;
  /** The owner's COPY FROM STDIN being collected. */
  private copy: Copy | null = null;
  /** A statement that names synchronous_commit ran or waits for its Sync: set it back on at the next chance. */
  private synchronousCommitAtRisk = false;
  /** Each connection's prepared statements, by their session-wide names. */
  private readonly statements = new Map<number, Set<string>>();

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: OnData): Promise<number> {
    const named = withConnectionStatementName(handlerId, message);
    if (named.name !== undefined) this.track(handlerId, named.message, named.name);
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message: named.message, onData, resolve, reject });
      void this.process();
    });
  }

  private track(handlerId: number, message: Uint8Array, name: string): void {
    if (isParse(message)) {
      const names = this.statements.get(handlerId) ?? new Set<string>();
      this.statements.set(handlerId, names.add(name));
    } else if (isStatementClose(message)) {
      this.statements.get(handlerId)?.delete(name);
    }
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
    // Its statements would otherwise stay in the session for good (pools open and close connections).
    for (const name of this.statements.get(handlerId) ?? []) {
      const message = deallocateMessage(name);
      this.queue.push({
        handlerId: SESSION_HANDLER,
        message,
        onData: ignore,
        resolve: ignore,
        reject: ignore,
      });
    }
    this.statements.delete(handlerId);
    void this.process();
  }

  /** A connection that goes away mid-turn must not hold the session: roll back and hand the turn on. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    this.copy = null;
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
        if (this.copy !== null || current.message[0] === QUERY) {
          const copied = await this.playCopy(current);
          if (copied !== undefined) {
            this.owner = this.copy === null && !this.db.isInTransaction() ? null : current.handlerId;
            current.resolve(copied);
            continue;
          }
        }
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
        if (mayChangeSynchronousCommit(current.message)) this.synchronousCommitAtRisk = true;
        await this.keepCommitsSynchronous(current.message);
        current.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }

  /**
   * Sets synchronous_commit back on once the statement that may have changed it has run: after a simple Query,
   * or after the Sync that ends an extended query (between Parse and Sync, another statement would replace the
   * unnamed one). Inside a transaction the SET is part of it, so a rollback restores `on` as well; in an
   * aborted transaction it fails and the rollback to come restores it.
   */
  private async keepCommitsSynchronous(message: Uint8Array): Promise<void> {
    if (!this.synchronousCommitAtRisk) return;
    const type = message[0];
    if (type !== QUERY && type !== SYNC) return;
    this.synchronousCommitAtRisk = false;
    await this.db.exec(SYNCHRONOUS_COMMIT_ON).catch(() => undefined);
  }

  /**
   * A COPY FROM STDIN's query, CopyData, CopyDone or CopyFail, answered as Postgres would; undefined for any
   * other message. Returns the bytes answered.
   */
  private async playCopy(current: QueuedMessage): Promise<number | undefined> {
    const type = current.message[0];
    const body = current.message.subarray(5);
    const answer = (...messages: Uint8Array[]) => {
      const bytes = Buffer.concat(messages);
      current.onData(bytes);
      return bytes.length;
    };
    const readyForQuery = () => backendMessage("Z", Buffer.from(this.db.isInTransaction() ? "T" : "I"));
    if (this.copy === null) {
      const match = COPY_FROM_STDIN.exec(Buffer.from(body).toString("utf8").replace(/\0$/, ""));
      if (match === null) return undefined;
      this.copy = { handlerId: current.handlerId, sql: `${match[1]}'/dev/blob'${match[2]}`, chunks: [] };
      // Text format, columns unstated (clients send rows as they are).
      return answer(backendMessage("G", Buffer.from([0, 0, 0])));
    }
    const copy = this.copy;
    if (type === COPY_DATA) {
      copy.chunks.push(Buffer.from(body));
      return 0;
    }
    if (type !== COPY_DONE && type !== COPY_FAIL) return undefined;
    this.copy = null;
    const failure = (code: string, message: string) =>
      answer(
        backendMessage(
          "E",
          Buffer.concat([
            cString("SERROR"),
            cString("VERROR"),
            cString(`C${code}`),
            cString(`M${message}`),
            Buffer.from([0]),
          ]),
        ),
        readyForQuery(),
      );
    if (type === COPY_FAIL) return failure("57014", "COPY from stdin failed: the client sent CopyFail");
    try {
      // db.query takes PGlite's own lock (runExclusive around it would wait for itself).
      const result = await this.db.query(copy.sql, [], { blob: new Blob(copy.chunks) });
      return answer(backendMessage("C", cString(`COPY ${result.affectedRows ?? 0}`)), readyForQuery());
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      return failure(code ?? "XX000", message ?? String(error));
    }
  }
}
