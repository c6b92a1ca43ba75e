// The Solana indexer: mirrors the identity_registry program into the API's read model over standard
// JSON-RPC. It backfills from the program's deployment and follows the head with getSignaturesForAddress
// cursors and getTransaction, only ever at the configured commitment, and resumes from its cursor after
// a crash. A failed pass (RPC or database down) is retried with bounded backoff (core/retry/backoff.ts)
// for as long as it takes. A websocket logsSubscribe, when available, only wakes it up early.
import type { Pool } from "pg";
import WebSocket from "ws";
import { type RegistryEvent, registryEventDecoder } from "../../chains/solana/events";
import type { SolanaManifestEntry } from "../../config/manifest";
import { type BackoffPolicy, backoffPolicy, createBackoff } from "../../core/retry/backoff";
import { startPassLoop } from "../../core/retry/passLoop";
import { withTransaction } from "../../storage/transaction";
import { resetChainIfHistoryChanged } from "../chainHistory";
import { recordHead, recordIndexed } from "../checkpoints";
import { applyTransactions, type ProgramTransaction } from "./apply";
import { type RpcCall, type RpcRetryPolicy, solanaRpc } from "./rpc";

/** What the indexer needs of a manifest's Solana entry. */
export type IndexedProgram = Pick<
  SolanaManifestEntry,
  "chain" | "rpcUrl" | "wsUrl" | "programId" | "deploySlot"
>;

export type Commitment = "confirmed" | "finalized";

export interface SolanaIndexerOptions {
  pool: Pool;
  manifestEntry: IndexedProgram;
  /** Only transactions at this commitment are applied and checkpointed. Default "finalized". */
  commitment?: Commitment;
  /** Pause between passes when nothing woke the indexer. Default 1000 ms. */
  pollIntervalMs?: number;
  retry?: RpcRetryPolicy;
  /** Waits after failed passes: from the poll interval doubling to max(poll interval, 5 s). */
  backoff?: Partial<BackoffPolicy>;
  log?: (line: string) => void;
}

export interface SolanaIndexer {
  /**
   * Resolves after the first complete pass (the backfill), however many failed passes come before it;
   * rejects only when the indexer is stopped before that.
   */
  caughtUp: Promise<void>;
  /** Runs one pass now and resolves when it is done (tests and benches use it to wait). */
  sync(): Promise<void>;
  stop(): Promise<void>;
}

interface SignatureInfo {
  signature: string;
  slot: number;
  err: unknown;
}

interface TransactionAnswer {
  slot: number;
  blockTime: number | null;
  meta: { err: unknown; logMessages?: string[] | null } | null;
}

const PAGE_LIMIT = 1000;
/** getTransaction calls in flight at once; their effects are applied in order, one DB transaction per batch. */
const FETCH_BATCH = 50;

export async function startSolanaIndexer(options: SolanaIndexerOptions): Promise<SolanaIndexer> {
  const { pool, manifestEntry: entry } = options;
  const commitment = options.commitment ?? "finalized";
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const log = options.log ?? ((line: string) => process.stderr.write(`[indexer:solana] ${line}\n`));
  const rpc = solanaRpc(entry.rpcUrl, options.retry);
  const decode = registryEventDecoder(entry.programId);
  const failures = createBackoff({
    what: `Solana indexer pass (${entry.chain})`,
    log,
    policy: backoffPolicy(pollIntervalMs, options.backoff),
  });
  let markCaughtUp: () => void = () => undefined;
  let abandonCatchUp: (error: Error) => void = () => undefined;
  const caughtUp = new Promise<void>((resolve, reject) => {
    markCaughtUp = resolve;
    abandonCatchUp = reject;
  });
  // Only callers that await it should hear that it was abandoned.
  caughtUp.catch(() => undefined);

  // Identifying the chain belongs to the first pass that succeeds, so an RPC or a database that is down
  // at start is retried like any pass instead of ending the role.
  let identified = false;
  const pass = async () => {
    if (!identified) {
      const genesis = await rpc<string>("getGenesisHash", []);
      await resetChainIfHistoryChanged(
        pool,
        entry.chain,
        `${entry.programId}@${genesis}@${entry.deploySlot}`,
      );
      identified = true;
    }
    await syncOnce({ pool, rpc, chain: entry.chain, programId: entry.programId, commitment, decode });
    markCaughtUp();
  };
  // Passes never overlap, and a failed pass never stops the ones queued after it.
  let running: Promise<void> = Promise.resolve();
  const runPass = () => {
    const next = running.then(pass);
    running = next.catch(() => undefined);
    return next;
  };

  const loop = startPassLoop({ pass: runPass, intervalMs: pollIntervalMs, backoff: failures });
  // A log notification cuts a poll pause short, never a backoff.
  const hint = entry.wsUrl ? subscribeToProgramLogs(entry.wsUrl, entry.programId, loop.wake) : undefined;

  return {
    caughtUp,
    sync: runPass,
    async stop() {
      hint?.close();
      await loop.stop();
      await running;
      abandonCatchUp(new Error(`The Solana indexer of "${entry.chain}" was stopped before it caught up.`));
    },
  };
}

interface PassContext {
  pool: Pool;
  rpc: RpcCall;
  chain: string;
  programId: string;
  commitment: Commitment;
  decode: (logs: string[]) => RegistryEvent[];
}

/**
 * One pass: note the head, list every program signature newer than the cursor (newest first, paged),
 * then apply them oldest first. Everything up to the head slot read at the start is then in the mirror.
 * Transactions are fetched in parallel batches, and each batch is applied in one database transaction.
 */
async function syncOnce(context: PassContext): Promise<void> {
  const { pool, rpc, chain, programId, commitment } = context;
  const head = await rpc<number>("getSlot", [{ commitment }]);
  await recordHead(pool, chain, "solana", BigInt(head));
  const cursor = await pool.query<{ signature: string }>(
    "SELECT signature FROM solana_cursors WHERE chain = $1",
    [chain],
  );
  const until = cursor.rows[0]?.signature;
  const pending: SignatureInfo[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await rpc<SignatureInfo[]>("getSignaturesForAddress", [
      programId,
      { limit: PAGE_LIMIT, commitment, ...(until ? { until } : {}), ...(before ? { before } : {}) },
    ]);
    pending.push(...page);
    if (page.length < PAGE_LIMIT) break;
    before = page[page.length - 1]?.signature;
  }
  pending.reverse();
  let lastBlockTime: number | null = null;
  for (let start = 0; start < pending.length; start += FETCH_BATCH) {
    const batch = pending.slice(start, start + FETCH_BATCH);
    const answers = await Promise.all(
      batch.map((info) =>
        rpc<TransactionAnswer | null>("getTransaction", [
          info.signature,
          { commitment, encoding: "json", maxSupportedTransactionVersion: 0 },
        ]),
      ),
    );
    // A transaction listed but not yet served at this commitment (a lagging node) ends the pass there:
    // apply what precedes it, the next pass resumes from the cursor.
    const served = answers.indexOf(null);
    const ready = (served === -1 ? answers : answers.slice(0, served)) as TransactionAnswer[];
    const programTxs: ProgramTransaction[] = ready.map((tx, index) => ({
      signature: (batch[index] as SignatureInfo).signature,
      slot: tx.slot,
      events: tx.meta && !tx.meta.err ? context.decode(tx.meta.logMessages ?? []) : [],
    }));
    await withTransaction(pool, (client) => applyTransactions(client, chain, programTxs));
    lastBlockTime = ready.at(-1)?.blockTime ?? lastBlockTime;
    if (served !== -1) return;
  }
  const blockTime = await rpc<number | null>("getBlockTime", [head]).catch(() => lastBlockTime);
  await recordIndexed(
    pool,
    chain,
    "solana",
    BigInt(head),
    blockTime === null ? null : new Date(blockTime * 1000),
  );
}

/** Wakes the indexer when the program logs; reconnects after a drop. Never a source of data. */
function subscribeToProgramLogs(wsUrl: string, programId: string, onLogs: () => void): { close(): void } {
  let socket: WebSocket | undefined;
  let closed = false;
  const connect = () => {
    socket = new WebSocket(wsUrl);
    socket.on("open", () =>
      socket?.send(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "logsSubscribe",
          params: [{ mentions: [programId] }],
        }),
      ),
    );
    socket.on("message", (data) => {
      if (String(data).includes('"logsNotification"')) onLogs();
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      if (!closed) setTimeout(connect, 1_000);
    });
  };
  connect();
  return {
    close() {
      closed = true;
      socket?.close();
    },
  };
}
