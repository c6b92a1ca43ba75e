// A dispatcher's claimed deliveries in memory: one queue per endpoint, taken round robin (an endpoint moves to
// the back after each send), and the counts the bounds are checked on (leases held, attempts sending, attempts
// sent but not recorded yet), overall and per endpoint.
import type { Queued } from "./attempt";
import type { ClaimedDelivery } from "./claims";

export interface SendBounds {
  /** Attempts in flight in this worker. */
  maxInFlight: number;
  /** Attempts in flight to one endpoint. */
  perEndpoint: number;
  /** Sent attempts whose outcomes are not recorded yet, at most. */
  maxUnrecorded: number;
  /** Leases held at most: overall, and on one endpoint. */
  maxHeld: number;
  maxHeldPerEndpoint: number;
}

/** What `take` found: the deliveries to send now, and those claimed too long ago to send (their leases to give back). */
export interface Taken {
  send: Queued[];
  stale: ClaimedDelivery[];
}

function add(counts: Map<string, number>, key: string, by: number): void {
  counts.set(key, (counts.get(key) ?? 0) + by);
}

export class SendQueues {
  private readonly queues = new Map<string, Queued[]>();
  /** Ids of every lease held: queued, sending, or sent and waiting for its outcome's commit. */
  private readonly held = new Set<string>();
  private readonly heldPerEndpoint = new Map<string, number>();
  private readonly sendingPerEndpoint = new Map<string, number>();
  private sending = 0;
  private unrecorded = 0;
  /** Endpoints whose last claim filled their room (more may be due), and whether it filled its whole limit. */
  private readonly mayHaveMore = new Set<string>();
  private claimFilled = false;

  constructor(private readonly bounds: SendBounds) {}

  /** How many more leases a claim may take. */
  get room(): number {
    return this.bounds.maxHeld - this.held.size;
  }

  /** The ids of every lease held (a claim never takes one of them again, whatever the clocks say). */
  heldIds(): string[] {
    return [...this.held];
  }

  /** Queues what a claim of at most `limit` deliveries took. */
  enqueue(queued: readonly Queued[], limit: number): void {
    for (const entry of queued) {
      const { id, endpointId } = entry.claimed;
      this.held.add(id);
      add(this.heldPerEndpoint, endpointId, 1);
      const queue = this.queues.get(endpointId) ?? [];
      queue.push(entry);
      this.queues.set(endpointId, queue);
    }
    this.claimFilled = queued.length === limit;
    const touched = new Set([...this.mayHaveMore, ...queued.map((entry) => entry.claimed.endpointId)]);
    for (const endpointId of touched) {
      if ((this.heldPerEndpoint.get(endpointId) ?? 0) >= this.bounds.maxHeldPerEndpoint)
        this.mayHaveMore.add(endpointId);
      else this.mayHaveMore.delete(endpointId);
    }
  }

  /**
   * Takes queued deliveries while the bounds allow, one endpoint after another, counting each taken one as
   * sending; a delivery `isStale` judges too old is taken out and its lease counted as given back.
   */
  take(isStale: (entry: Queued) => boolean): Taken {
    const taken: Taken = { send: [], stale: [] };
    const { maxInFlight, perEndpoint, maxUnrecorded } = this.bounds;
    for (const [endpointId, queue] of this.queues) {
      if (this.sending >= maxInFlight || this.unrecorded >= maxUnrecorded) break;
      if ((this.sendingPerEndpoint.get(endpointId) ?? 0) >= perEndpoint) continue;
      const next = queue.shift();
      this.queues.delete(endpointId);
      if (next === undefined) continue;
      // Back of the line: the loop reaches this endpoint again after the others.
      if (queue.length > 0) this.queues.set(endpointId, queue);
      if (isStale(next)) {
        taken.stale.push(next.claimed);
        this.release(next.claimed);
      } else {
        this.sending++;
        this.unrecorded++;
        add(this.sendingPerEndpoint, endpointId, 1);
        taken.send.push(next);
      }
    }
    return taken;
  }

  /** The receiver answered, or the attempt ended without an answer: its sending slot is free. */
  answered(claimed: ClaimedDelivery): void {
    this.sending--;
    add(this.sendingPerEndpoint, claimed.endpointId, -1);
  }

  /** The attempt's outcome is recorded (or given up on): its lease is no longer held here. */
  recorded(claimed: ClaimedDelivery): void {
    this.unrecorded--;
    this.release(claimed);
  }

  /** Whether a claim should run now for this endpoint's queue (run low while more may be due) or overall. */
  wantsRefill(endpointId: string): boolean {
    const queued = this.queues.get(endpointId)?.length ?? 0;
    return (
      (this.mayHaveMore.has(endpointId) && queued <= this.bounds.maxHeldPerEndpoint / 2) ||
      (this.claimFilled && this.held.size <= this.bounds.maxHeld / 2)
    );
  }

  /** Empties every queue: the deliveries not sent, their leases counted as given back. */
  drain(): ClaimedDelivery[] {
    const unsent = [...this.queues.values()].flat().map((entry) => entry.claimed);
    this.queues.clear();
    for (const claimed of unsent) this.release(claimed);
    return unsent;
  }

  private release(claimed: ClaimedDelivery): void {
    this.held.delete(claimed.id);
    add(this.heldPerEndpoint, claimed.endpointId, -1);
  }
}
