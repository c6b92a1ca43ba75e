// Ponder's tables for the registry. `reservation` is the current state of every pair on every chain (the
// row the API's read model mirrors); `renewal` keeps the history of renewals. Hex columns are lowercase. Keyed by
// chain id, as isolated ordering requires (ponder.config.ts); `chain` is the manifest's name, which the mirror uses.
import { index, onchainTable, primaryKey } from "ponder";

export const reservation = onchainTable(
  "reservation",
  (t) => ({
    chainId: t.integer().notNull(),
    chain: t.text().notNull(),
    nameHash: t.hex().notNull(),
    tickerHash: t.hex().notNull(),
    normalizedName: t.text().notNull(),
    normalizedTicker: t.text().notNull(),
    launcher: t.hex().notNull(),
    /** Unix seconds of the block that reserved the pair. */
    reservedAt: t.bigint().notNull(),
    expiresAt: t.bigint().notNull(),
    /** The whole window: the reserved duration plus every renewal. */
    durationSeconds: t.integer().notNull(),
    /** Wei paid for the window: the reservation fee plus every renewal fee. */
    feePaid: t.bigint().notNull(),
    /** bytes32 attribution given at reservation, null when zero. */
    partnerRef: t.hex(),
    /** The reserve or renew transaction that produced this state. */
    txHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.nameHash, table.tickerHash] }),
    launcherIndex: index().on(table.launcher),
  }),
);

export const renewal = onchainTable(
  "renewal",
  (t) => ({
    chainId: t.integer().notNull(),
    chain: t.text().notNull(),
    txHash: t.hex().notNull(),
    logIndex: t.integer().notNull(),
    nameHash: t.hex().notNull(),
    tickerHash: t.hex().notNull(),
    launcher: t.hex().notNull(),
    previousExpiresAt: t.bigint().notNull(),
    expiresAt: t.bigint().notNull(),
    durationSeconds: t.integer().notNull(),
    feePaid: t.bigint().notNull(),
    partnerRef: t.hex(),
    blockNumber: t.bigint().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.txHash, table.logIndex] }),
    pairIndex: index().on(table.chain, table.nameHash, table.tickerHash),
  }),
);
