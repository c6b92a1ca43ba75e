// Indexing functions: Reserved starts (or, after expiry, replaces) a pair's record; Renewed extends it.
import { ponder } from "ponder:registry";
import { renewal, reservation } from "ponder:schema";
import { sql } from "ponder";
import { mirrorTriggerStatements } from "./mirrorTrigger";

const ZERO_REF = `0x${"0".repeat(64)}`;

function partnerRefOrNull(ref: `0x${string}`): `0x${string}` | null {
  return ref.toLowerCase() === ZERO_REF ? null : ref;
}

ponder.on("IdentityRegistry:setup", async ({ context }) => {
  const deploymentSchema = process.env.DATABASE_SCHEMA;
  if (!deploymentSchema) throw new Error("DATABASE_SCHEMA is not set; start the indexer through run.ts.");
  const serviceSchema = process.env.SERVICE_SCHEMA ?? "public";
  for (const statement of mirrorTriggerStatements(deploymentSchema, serviceSchema)) {
    await context.db.sql.execute(sql.raw(statement));
  }
});

ponder.on("IdentityRegistry:Reserved", async ({ event, context }) => {
  const { args } = event;
  const record = {
    normalizedName: args.normalizedName,
    normalizedTicker: args.normalizedTicker,
    launcher: args.launcher,
    reservedAt: event.block.timestamp,
    expiresAt: args.expiresAt,
    durationSeconds: args.durationSeconds,
    feePaid: args.feeWei,
    partnerRef: partnerRefOrNull(args.partnerRef),
    txHash: event.transaction.hash,
    blockNumber: event.block.number,
  };
  await context.db
    .insert(reservation)
    .values({
      chainId: context.chain.id,
      chain: context.chain.name,
      nameHash: args.nameHash,
      tickerHash: args.tickerHash,
      ...record,
    })
    .onConflictDoUpdate(record);
});

ponder.on("IdentityRegistry:Renewed", async ({ event, context }) => {
  const { args } = event;
  const chain = context.chain.name;
  await context.db.insert(renewal).values({
    chainId: context.chain.id,
    chain,
    txHash: event.transaction.hash,
    logIndex: event.log.logIndex,
    nameHash: args.nameHash,
    tickerHash: args.tickerHash,
    launcher: args.launcher,
    previousExpiresAt: args.previousExpiresAt,
    expiresAt: args.expiresAt,
    durationSeconds: args.durationSeconds,
    feePaid: args.feeWei,
    partnerRef: partnerRefOrNull(args.partnerRef),
    blockNumber: event.block.number,
  });
  // The registry only emits Renewed for a live reservation, so the row exists.
  await context.db
    .update(reservation, { chainId: context.chain.id, nameHash: args.nameHash, tickerHash: args.tickerHash })
    .set((row) => ({
      expiresAt: args.expiresAt,
      durationSeconds: row.durationSeconds + args.durationSeconds,
      feePaid: row.feePaid + args.feeWei,
      txHash: event.transaction.hash,
      blockNumber: event.block.number,
    }));
});
