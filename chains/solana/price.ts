// The program's price rules (programs/identity_registry/src/price.c), computed the same way off-chain so a
// quote is refused exactly when the program would refuse the reservation, and charges what it will charge.
import type { PublicKey } from "@solana/web3.js";

/** The config fields the price check reads. */
export interface PriceRules {
  priceUpdate: PublicKey;
  priceOwner: PublicKey;
  feedId: string;
  maxPriceAgeSecs: bigint;
  /** The widest confidence interval accepted, in basis points of the price. */
  maxConfidenceBps: bigint;
}

/** A PriceUpdateV2 account as read from the chain. */
export interface PriceAccount {
  address: PublicKey;
  owner: PublicKey;
  verifiedFull: boolean;
  feedId: string;
  price: bigint;
  /** Pyth's confidence interval, in the price's own units. */
  conf: bigint;
  exponent: number;
  publishTime: bigint;
}

export type PriceCheck =
  | { ok: true; price: bigint; exponent: number; publishTime: bigint; expiresAt: bigint }
  | {
      ok: false;
      error: "PriceAccountMismatch" | "InvalidPrice" | "PriceConfidenceTooWide" | "StalePrice";
      detail: string;
    };

const MIN_EXPONENT = -12;

/** The checks `read_price` makes, in its order, against the chain clock `now` (unix seconds). */
export function checkPrice(rules: PriceRules, account: PriceAccount, now: bigint): PriceCheck {
  if (
    !account.address.equals(rules.priceUpdate) ||
    !account.owner.equals(rules.priceOwner) ||
    !account.verifiedFull ||
    account.feedId !== rules.feedId
  ) {
    return {
      ok: false,
      error: "PriceAccountMismatch",
      detail: `price account ${account.address.toBase58()} is not the fully verified ${rules.feedId} feed the registry config names (${rules.priceUpdate.toBase58()})`,
    };
  }
  if (account.price <= 0n || account.exponent > 0 || account.exponent < MIN_EXPONENT) {
    return {
      ok: false,
      error: "InvalidPrice",
      detail: `price ${account.price} with exponent ${account.exponent} is not a usable price`,
    };
  }
  const expiresAt = account.publishTime + rules.maxPriceAgeSecs;
  if (account.publishTime < now - rules.maxPriceAgeSecs) {
    return {
      ok: false,
      error: "StalePrice",
      detail: `the price was published at ${isoOf(account.publishTime)}, more than ${rules.maxPriceAgeSecs} s before the chain's clock (${isoOf(now)}); the registry refuses reservations until a fresh price is posted`,
    };
  }
  if (account.conf * 10_000n > account.price * rules.maxConfidenceBps) {
    return {
      ok: false,
      error: "PriceConfidenceTooWide",
      detail: `the price's confidence interval (${account.conf} on ${account.price}) is wider than the ${rules.maxConfidenceBps} basis points of the price the registry accepts; it refuses reservations until the market settles`,
    };
  }
  return {
    ok: true,
    price: account.price,
    exponent: account.exponent,
    publishTime: account.publishTime,
    expiresAt,
  };
}

/** The fee the program charges: ceil(usd_micros * 10^(3 - exponent) / price) lamports. */
export function feeLamports(usdMicros: bigint, price: bigint, exponent: number): bigint {
  const numerator = usdMicros * 10n ** BigInt(3 - exponent);
  return (numerator + price - 1n) / price;
}

/** The price in USD per SOL as a number (display only; amounts are computed in integers). */
export function priceUsdOf(price: bigint, exponent: number): number {
  return Number(price) * 10 ** exponent;
}

function isoOf(unixSeconds: bigint): string {
  return new Date(Number(unixSeconds) * 1000).toISOString();
}
