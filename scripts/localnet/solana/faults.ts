// Fault injection for tests: makes the local RPC misbehave the way hosted RPC providers and busy
// clusters do, so indexers and the API can be tested against it. Off unless set.
import type { CommitmentLag } from "./ledger";

/** What the next matching HTTP request gets instead of a normal answer. */
export type InjectedFailure = 429 | 500 | 502 | 503 | "timeout";

export interface FaultPlan {
  /** Failures served in order to the next matching requests, then normal service resumes. */
  script?: InjectedFailure[];
  /** Probability (0-1) that a matching request fails with one of `randomFailures`. */
  failureRate?: number;
  randomFailures?: InjectedFailure[];
  /** Only requests whose (first) method is listed are affected; all when absent. */
  methods?: string[];
  /** Delay added before every HTTP answer. */
  latencyMs?: number;
  /** How long a "timeout" holds the request before dropping the connection unanswered. */
  timeoutMs?: number;
  /** Probability (0-1) that producing a block skips 1-3 slots first. */
  skipSlotRate?: number;
  /** While true no new blocks are produced: every transaction lands in the same slot. */
  freezeBlocks?: boolean;
  /** Blocks by which `confirmed` and `finalized` trail the newest block. */
  commitmentLag?: Partial<CommitmentLag>;
  /** Report `blockTime: null`, as nodes without the time for old slots do. */
  nullBlockTime?: boolean;
  /**
   * A second node this many blocks behind, behind the same URL: a round-robin load balancer sends every other
   * HTTP request (of `methods`, when listed) to it. Its reads at every commitment trail by these blocks and it
   * checks `minContextSlot` against its own slot (-32016); account state is the newest on both (litesvm keeps one).
   */
  laggingReplicaBlocks?: number;
  /** Seed for the random choices, so a failing test can be replayed. */
  seed?: number;
}

/** Mulberry32: a tiny seeded generator, enough to make random faults reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultInjector {
  private plan: FaultPlan = {};
  private script: InjectedFailure[] = [];
  private random = seededRandom(1);
  private replicaTurn = false;

  set(plan: FaultPlan): void {
    this.plan = { ...plan };
    this.script = [...(plan.script ?? [])];
    this.random = seededRandom(plan.seed ?? 1);
    this.replicaTurn = false;
  }

  get current(): FaultPlan {
    return { ...this.plan, script: [...this.script] };
  }

  /** The failure to serve for a request to `method`, if any. */
  failureFor(method: string | undefined): InjectedFailure | undefined {
    const { methods, failureRate, randomFailures } = this.plan;
    if (methods && (method === undefined || !methods.includes(method))) return undefined;
    const scripted = this.script.shift();
    if (scripted !== undefined) return scripted;
    if (failureRate && randomFailures?.length && this.random() < failureRate) {
      return randomFailures[Math.floor(this.random() * randomFailures.length)];
    }
    return undefined;
  }

  get latencyMs(): number {
    return this.plan.latencyMs ?? 0;
  }

  get timeoutMs(): number {
    return this.plan.timeoutMs ?? 30_000;
  }

  /** Blocks by which the node answering a request to `method` trails this one: 0, or the lagging replica's turn. */
  replicaLagFor(method: string | undefined): number {
    const { methods, laggingReplicaBlocks } = this.plan;
    if (!laggingReplicaBlocks || (methods && (method === undefined || !methods.includes(method)))) return 0;
    this.replicaTurn = !this.replicaTurn;
    return this.replicaTurn ? laggingReplicaBlocks : 0;
  }

  /** Slots to skip before the next block. */
  slotsToSkip(): number {
    const rate = this.plan.skipSlotRate ?? 0;
    return rate > 0 && this.random() < rate ? 1 + Math.floor(this.random() * 3) : 0;
  }

  get blocksFrozen(): boolean {
    return this.plan.freezeBlocks === true;
  }

  get nullBlockTime(): boolean {
    return this.plan.nullBlockTime === true;
  }
}
