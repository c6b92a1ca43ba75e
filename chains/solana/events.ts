// The program's Anchor-style events, decoded from a transaction's log messages with the committed IDL.
import { BorshCoder, EventParser } from "@coral-xyz/anchor";
import { PublicKey } from "@solana/web3.js";
import { loadIdl } from "./idl";

export interface ReservationCreated {
  kind: "created";
  launcher: string;
  nameHash: string;
  tickerHash: string;
  normalizedName: string;
  normalizedTicker: string;
  reservedAt: bigint;
  expiresAt: bigint;
  feeLamports: bigint;
  partnerRef: string | null;
}

export interface ReservationRenewed {
  kind: "renewed";
  launcher: string;
  nameHash: string;
  tickerHash: string;
  expiresAt: bigint;
  durationSeconds: bigint;
  feeLamports: bigint;
}

export type RegistryEvent = ReservationCreated | ReservationRenewed;

/** Fields as Anchor's BorshCoder decodes them with the raw IDL: snake_case names, integers as BN. */
interface Decimal {
  toString(): string;
}
interface RawCreated {
  launcher: PublicKey;
  name_hash: number[];
  ticker_hash: number[];
  name: string;
  ticker: string;
  reserved_at: Decimal;
  expires_at: Decimal;
  fee_lamports: Decimal;
  partner_ref: number[];
}
interface RawRenewed {
  launcher: PublicKey;
  name_hash: number[];
  ticker_hash: number[];
  expires_at: Decimal;
  duration_seconds: Decimal;
  fee_lamports: Decimal;
}

const hex = (bytes: number[] | Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}`;
const big = (value: Decimal) => BigInt(value.toString());

/** Returns a decoder for one program id: log lines in, registry events out (other events ignored). */
export function registryEventDecoder(programId: string): (logs: string[]) => RegistryEvent[] {
  const parser = new EventParser(new PublicKey(programId), new BorshCoder(loadIdl()));
  return (logs) => {
    const events: RegistryEvent[] = [];
    for (const event of parser.parseLogs(logs)) {
      if (event.name === "ReservationCreated") {
        const data = event.data as unknown as RawCreated;
        const partner = data.partner_ref;
        events.push({
          kind: "created",
          launcher: data.launcher.toBase58(),
          nameHash: hex(data.name_hash),
          tickerHash: hex(data.ticker_hash),
          normalizedName: data.name,
          normalizedTicker: data.ticker,
          reservedAt: big(data.reserved_at),
          expiresAt: big(data.expires_at),
          feeLamports: big(data.fee_lamports),
          partnerRef: partner.every((byte) => byte === 0) ? null : hex(partner),
        });
      } else if (event.name === "ReservationRenewed") {
        const data = event.data as unknown as RawRenewed;
        events.push({
          kind: "renewed",
          launcher: data.launcher.toBase58(),
          nameHash: hex(data.name_hash),
          tickerHash: hex(data.ticker_hash),
          expiresAt: big(data.expires_at),
          durationSeconds: big(data.duration_seconds),
          feeLamports: big(data.fee_lamports),
        });
      }
    }
    return events;
  };
}
