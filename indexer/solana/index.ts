// The Solana indexer: mirrors the identity_registry program into the API's read model over standard
// JSON-RPC. It backfills from the program's deployment and follows the head with getSignaturesForAddress
// cursors; the reservation accounts each transaction wrote are read and mirrored as they are (./mirror.ts),
// only ever at the configured commitment, and it resumes from its cursor after a crash. A failed pass (RPC or
// database down) is retried with bounded backoff (core/retry/backoff.ts) for as long as it takes. A websocket
// logsSubscribe, when available, only wakes it up early. With `stallMs`, the watchdog (../watchdog.ts) samples the
// head and the checkpoint; a loop whose pass hangs is restarted: the pass's RPC calls are abandoned (an
// AbortSignal) and a new loop starts.
import type { Pool } from "pg";
import WebSocket from "ws";
import type { SolanaManifestEntry } from "../../config/manifest";
import { type BackoffPolicy, backoffPolicy, createBackoff } from "../../core/retry/backoff";
import { startPassLoop } from "../../core/retry/passLoop";
import { resetChainIfHistoryChanged } from "../chainHistory";
import { recordHead, recordIndexed } from "../checkpoints";
import { publishProgress } from "../progress";
import { indexerWatchdog } from "../watchdog";
import { type Commitment, type MirrorContext, mirrorBatch } from "./mirror";
import { DEFAULT_RETRY, RpcAbandonedError, type RpcCall, type RpcRetryPolicy, solanaRpc } from "./rpc";

/** What the indexer needs of a manifest's Solana entry. */
export type IndexedProgram = Pick<
  SolanaManifestEntry,
  "chain" | "rpcUrl" | "wsUrl" | "programId" | "deploySlot"
>;

export type { Commitment } from "./mirror";

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
  /**
   * The watchdog: the loop is restarted when the head (sampled every min(poll interval, 1 s)) is ahead of the
   * checkpoint and the checkpoint has not moved for this long (INDEXER_STALL_MS). None without it: the role
   * always sets it; tests of the loop alone leave it out, so no sampling meets the RPC faults they script.
   */
  stallMs?: number;
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
  /**
   * Null while indexing runs (the current loop has completed a pass, and no watchdog restart awaits progress);
   * otherwise what it waits for. The role's readiness.
   */
  indexing(): string | null;
  stop(): Promise<void>;
}

interface SignatureInfo {
  signature: string;
}

const PAGE_LIMIT = 1000;
/** getTransaction calls in flight at once; each batch's accounts are read together and applied in one DB transaction. */
const FETCH_BATCH = 50;
/**
 * Part of the chain's history id: a mirror built by an earlier rule (the program's events, which missed
 * reservations made through other programs) is dropped and rebuilt from the accounts once.
 */
const MIRROR_RULE = "accounts";

export async function startSolanaIndexer(options: SolanaIndexerOptions): Promise<SolanaIndexer> {
  const { pool, manifestEntry: entry } = options;
  const commitment = options.commitment ?? "finalized";
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const log = options.log ?? ((line: string) => process.stderr.write(`[indexer:solana] ${line}\n`));
  const rpc = solanaRpc(entry.rpcUrl, options.retry);
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
  const pass = async (run: PassState) => {
    run.signal.throwIfAborted();
    const call: RpcCall = (method, params) => rpc(method, params, run.signal);
    if (!identified) {
      const genesis = await call<string>("getGenesisHash", []);
      await resetChainIfHistoryChanged(
        pool,
        entry.chain,
        `${entry.programId}@${genesis}@${entry.deploySlot}@${MIRROR_RULE}`,
      );
      identified = true;
    }
    await syncOnce({ pool, rpc: call, chain: entry.chain, programId: entry.programId, commitment });
    run.passed = true;
    markCaughtUp();
  };
  // Passes never overlap (not even an abandoned loop's with its successor's), and a failed pass never stops
  // the ones queued after it.
  let running: Promise<void> = Promise.resolve();
  const runPass = (run: PassState) => {
    const next = running.then(() => pass(run));
    running = next.catch(() => undefined);
    return next;
  };

  const startLoop = (): LoopRun => {
    const controller = new AbortController();
    const state: PassState = { signal: controller.signal, passed: false };
    const loop = startPassLoop({
      pass: () =>
        runPass(state).catch((error: unknown) => {
          // An abandoned pass did not fail: its loop is over.
          if (!state.signal.aborted) throw error;
        }),
      intervalMs: pollIntervalMs,
      backoff: createBackoff({
        what: `Solana indexer pass (${entry.chain})`,
        log,
        policy: backoffPolicy(pollIntervalMs, options.backoff),
      }),
    });
    return {
      state,
      wake: loop.wake,
      stop(why) {
        const stopped = loop.stop();
        controller.abort(new Error(why));
        return stopped;
      },
    };
  };
  let current = startLoop();

  const watchdog =
    options.stallMs === undefined
      ? undefined
      : indexerWatchdog({
          pool,
          family: "solana",
          stallMs: options.stallMs,
          restarts: "the Solana loop",
          restart: () => {
            // The hung pass's calls are abandoned; its successor's first pass waits for it to end.
            void current.stop("the watchdog restarted the Solana loop");
            current = startLoop();
          },
          log,
        });
  const monitor =
    watchdog &&
    startStallMonitor({
      pool,
      entry,
      commitment,
      // One attempt per sample: a head the RPC does not give now is sampled again at the next tick.
      rpc: solanaRpc(entry.rpcUrl, { ...(options.retry ?? DEFAULT_RETRY), attempts: 1 }),
      intervalMs: Math.min(pollIntervalMs, 1000),
      backoff: options.backoff,
      log,
      observe: (head, indexed) => watchdog.observe(entry.chain, head, indexed),
    });
  // A log notification cuts a poll pause short, never a backoff.
  const hint = entry.wsUrl
    ? subscribeToProgramLogs(entry.wsUrl, entry.programId, () => current.wake())
    : undefined;

  return {
    caughtUp,
    sync: () => runPass(current.state),
    indexing() {
      if (!current.state.passed) return "the indexing loop has not completed a pass yet";
      return watchdog?.restarting() ?? null;
    },
    async stop() {
      watchdog?.stop();
      await monitor?.stop();
      hint?.close();
      // A pass commits batch by batch with its cursor: abandoning its RPC calls loses nothing.
      await current.stop("the Solana indexer is stopping");
      await running;
      abandonCatchUp(new Error(`The Solana indexer of "${entry.chain}" was stopped before it caught up.`));
    },
  };
}

/** What the passes of one loop share: its signal (aborted when the watchdog abandons it), whether one completed. */
interface PassState {
  signal: AbortSignal;
  passed: boolean;
}

/** One indexing loop. */
interface LoopRun {
  state: PassState;
  wake(): void;
  /** Ends the loop, abandoning the RPC calls of its pass under way (`why` is their error). */
  stop(why: string): Promise<void>;
}

interface StallMonitorOptions {
  pool: Pool;
  entry: IndexedProgram;
  commitment: Commitment;
  rpc: RpcCall;
  intervalMs: number;
  backoff?: Partial<BackoffPolicy>;
  log: (line: string) => void;
  observe: (head: bigint, indexed: bigint) => Promise<void>;
}

/**
 * Beside the loop, so a hung pass cannot stop it: every interval the head slot (recorded, so the lag shows the
 * stall) and how far the indexer has got: its checkpoint, or the cursor a long backfill pass moves batch by
 * batch before the pass ends and records the checkpoint (the deploy slot before either exists).
 */
function startStallMonitor(options: StallMonitorOptions): { stop(): Promise<void> } {
  const { pool, entry } = options;
  const loop = startPassLoop({
    pass: async () => {
      const head = BigInt(await options.rpc<number>("getSlot", [{ commitment: options.commitment }]));
      await recordHead(pool, entry.chain, "solana", head);
      // GREATEST skips what does not exist yet.
      const { rows } = await pool.query<{ indexed: string }>(
        `SELECT GREATEST((SELECT indexed_number FROM chain_checkpoints WHERE chain = $1),
                         (SELECT slot FROM solana_cursors WHERE chain = $1), $2::bigint) AS indexed`,
        [entry.chain, entry.deploySlot],
      );
      const indexed = BigInt(rows[0]?.indexed ?? entry.deploySlot);
      await options.observe(head, indexed);
    },
    intervalMs: options.intervalMs,
    backoff: createBackoff({
      what: `Solana watchdog (${entry.chain})`,
      log: options.log,
      policy: backoffPolicy(options.intervalMs, options.backoff),
    }),
  });
  return { stop: () => loop.stop() };
}

/**
 * One pass: note the head, list every program signature newer than the cursor (newest first, paged) from a node
 * at or past the head, then mirror them oldest first. Everything up to the head slot is then in the mirror, and
 * only then is the head recorded as indexed: behind a load balancer, the head and the list can come from nodes at
 * different slots, and `minContextSlot` keeps the list (and each batch's account reads) from being older than the
 * data the checkpoint claims. A reservation's row waits on the pass's round trips before it (the copycat window),
 * so the cursor is read beside the head, and the head's record and block time beside the listing.
 */
async function syncOnce(context: MirrorContext): Promise<void> {
  const { pool, rpc, chain, programId, commitment } = context;
  const [head, cursor] = await Promise.all([
    rpc<number>("getSlot", [{ commitment }]),
    // Passes never overlap: the cursor is the last pass's, whenever it is read.
    pool.query<{ signature: string }>("SELECT signature FROM solana_cursors WHERE chain = $1", [chain]),
  ]);
  publishProgress(() => ({ chain, step: "pass-started", number: BigInt(head), at: performance.now() }));
  const headRecorded = recordHead(pool, chain, "solana", BigInt(head));
  // Its failure fails the pass where it is awaited, not as an unhandled rejection meanwhile.
  headRecorded.catch(() => undefined);
  const headBlockTime = rpc<number | null>("getBlockTime", [head]).then(
    (blockTime) => ({ blockTime }),
    (error: unknown) => ({ error }),
  );
  // The head's record is settled before the pass ends, however it ends: no write of a pass outlives it.
  const settled = async <T>(step: Promise<T>) => {
    try {
      return await step;
    } catch (error) {
      await Promise.allSettled([headRecorded, headBlockTime]);
      throw error;
    }
  };
  const until = cursor.rows[0]?.signature;
  const pending: SignatureInfo[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await settled(
      rpc<SignatureInfo[]>("getSignaturesForAddress", [
        programId,
        {
          limit: PAGE_LIMIT,
          commitment,
          minContextSlot: head,
          ...(until ? { until } : {}),
          ...(before ? { before } : {}),
        },
      ]),
    );
    pending.push(...page);
    if (page.length < PAGE_LIMIT) break;
    before = page[page.length - 1]?.signature;
  }
  pending.reverse();
  let lastBlockTime: number | null = null;
  for (let start = 0; start < pending.length; start += FETCH_BATCH) {
    const signatures = pending.slice(start, start + FETCH_BATCH).map((info) => info.signature);
    const batch = await settled(mirrorBatch(context, signatures));
    lastBlockTime = batch.blockTime ?? lastBlockTime;
    if (!batch.complete) {
      await headRecorded;
      return;
    }
  }
  await headRecorded;
  const answer = await headBlockTime;
  if ("error" in answer && answer.error instanceof RpcAbandonedError) throw answer.error;
  const blockTime = "blockTime" in answer ? answer.blockTime : lastBlockTime;
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
