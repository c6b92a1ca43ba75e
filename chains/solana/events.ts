// The program's ReservationCreated / ReservationRenewed events, decoded from a transaction's log messages with the
// committed IDL. Logs are a hint, not the record: the runtime truncates them past 10,000 bytes, so the mirror reads
// the reservation accounts (indexer/solana). What accounts cannot tell, one transaction's own fee and the expiry it
// set, the reconciler reads from the transaction's event (settlementOf in registryClient.ts).
import type { PublicKey } from "@solana/web3.js";
import { registryCoder } from "./idl";

/** One reserve or renew as its event tells it. */
export interface RegistryEvent {
  kind: "created" | "renewed";
  launcher: string;
  nameHash: string;
  tickerHash: string;
  /** The pair's expiry after the transaction. */
  expiresAt: bigint;
  /** What this reserve or renewal paid, not the running total. */
  feeLamports: bigint;
}

/** The fields both events share, as Anchor's BorshCoder decodes them with the raw IDL (integers as BN). */
interface RawEvent {
  launcher: PublicKey;
  name_hash: number[];
  ticker_hash: number[];
  expires_at: { toString(): string };
  fee_lamports: { toString(): string };
}

const EVENT_KINDS: Record<string, RegistryEvent["kind"]> = {
  ReservationCreated: "created",
  ReservationRenewed: "renewed",
};

const INVOKE = /^Program ([1-9A-HJ-NP-Za-km-z]+) invoke \[\d+\]$/;
const EXIT = /^Program [1-9A-HJ-NP-Za-km-z]+ (success|failed)/;
const DATA = "Program data: ";

const hex = (bytes: number[]) => `0x${Buffer.from(bytes).toString("hex")}`;

/**
 * The `Program data:` payloads that `programId` logged, at any depth: the invoke stack says which program wrote
 * each line. (Anchor's EventParser drops what a program logs inside another program's invocation.)
 */
export function programDataOf(logs: readonly string[], programId: string): string[] {
  const stack: string[] = [];
  const payloads: string[] = [];
  for (const line of logs) {
    const invoked = INVOKE.exec(line);
    if (invoked) stack.push(invoked[1] as string);
    else if (EXIT.test(line)) stack.pop();
    else if (line.startsWith(DATA) && stack.at(-1) === programId) payloads.push(line.slice(DATA.length));
  }
  return payloads;
}

/** Whether the runtime cut the logs at its limit: an event missing from them may still have been emitted. */
export function logsTruncated(logs: readonly string[]): boolean {
  return logs.includes("Log truncated");
}

/** Returns a decoder for one program id: log lines in, its reserve and renew events out (others ignored). */
export function registryEventDecoder(programId: string): (logs: readonly string[]) => RegistryEvent[] {
  const coder = registryCoder().events;
  return (logs) =>
    programDataOf(logs, programId).flatMap((payload) => {
      const event = coder.decode(payload);
      const kind = event ? EVENT_KINDS[event.name] : undefined;
      if (!event || !kind) return [];
      const data = event.data as unknown as RawEvent;
      return [
        {
          kind,
          launcher: data.launcher.toBase58(),
          nameHash: hex(data.name_hash),
          tickerHash: hex(data.ticker_hash),
          expiresAt: BigInt(data.expires_at.toString()),
          feeLamports: BigInt(data.fee_lamports.toString()),
        },
      ];
    });
}
