// The gauges read from the database when the worker's metrics are scraped (never per request): each chain's
// indexing lag and the seconds since its indexer last advanced (chain_checkpoints), and the outbox's backlog
// and the age of its oldest undelivered event. The worker serves them because it is the role that drains the
// outbox and samples chain posture; the reads are bounded (telemetry/probes.ts PROBE_TIMEOUT_MS).
import type { Pool } from "pg";
import { mirrorService } from "../services/mirror";
import { readOutboxBacklog } from "../services/webhooks";
import { scrapedGauge, scrapeRegistry } from "../telemetry/metrics";
import { PROBE_TIMEOUT_MS, type ScrapeCollector } from "../telemetry/probes";

export function databaseGauges(pool: Pool, now: () => number = Date.now): ScrapeCollector {
  const registry = scrapeRegistry();
  const mirror = mirrorService(pool, now, PROBE_TIMEOUT_MS);
  const lag = scrapedGauge(
    registry,
    "chain_lag_blocks",
    "Blocks (EVM) or slots (Solana) between the chain head the indexer saw and what it has indexed.",
    ["chain", "family"],
  );
  const sinceIndexed = scrapedGauge(
    registry,
    "chain_seconds_since_indexed",
    "Seconds since the chain's indexer last advanced its checkpoint.",
    ["chain", "family"],
  );
  const backlog = scrapedGauge(
    registry,
    "outbox_backlog",
    "Undelivered outbox work: stage fan_out (domain events not yet turned into deliveries) and delivery (deliveries pending); capped at 100000.",
    ["stage"],
  );
  const oldest = scrapedGauge(
    registry,
    "outbox_oldest_undelivered_age_seconds",
    "Age of the oldest undelivered event by stage (0 when none).",
    ["stage"],
  );
  return {
    registry,
    async collect() {
      const [health, outbox] = await Promise.all([
        mirror.health(),
        readOutboxBacklog(pool, now(), PROBE_TIMEOUT_MS),
      ]);
      if (!health.ok) throw new Error(`chain checkpoints unreadable: ${health.reason}`);
      lag.reset();
      sinceIndexed.reset();
      for (const chain of health.chains) {
        const labels = { chain: chain.chain, family: chain.family };
        if (chain.lag !== null) lag.set(labels, chain.lag);
        if (chain.secondsSinceIndexed !== null) sinceIndexed.set(labels, chain.secondsSinceIndexed);
      }
      backlog.set({ stage: "fan_out" }, outbox.undispatchedEvents);
      backlog.set({ stage: "delivery" }, outbox.pendingDeliveries);
      oldest.set({ stage: "fan_out" }, outbox.oldestUndispatchedSeconds);
      oldest.set({ stage: "delivery" }, outbox.oldestPendingSeconds);
    },
  };
}
