// The rules that turn a passed reservation transaction into a mirror row (or refuse to): renewals, a record
// that moved on, Solana's whole-account rows. The chain round trips are tested in test/e2e/reservationTx.test.ts.
import { expect } from "chai";
import type { OnChainReservation, RegistrySettlement } from "../../../chains/registryClient";
import { normalizeIdentity } from "../../../core/fold";
import {
  alreadyMirrored,
  mirroredRowOf,
  readingOfOutcome,
  recordIsSettlement,
  settlesIdentity,
} from "../../../services/mirror/reservationTransactionRules";
import type { MirroredReservation } from "../../../storage/chainReservations";

const identity = normalizeIdentity("Rule Coin", "RULE");
const LAUNCHER = "0xAbCdEf0000000000000000000000000000000001";
const HASH = `0x${"AB".repeat(32)}`;
const DAY = 86_400;
const at = (seconds: number) => new Date(seconds * 1000);

const settlement = (overrides: Partial<RegistrySettlement> = {}): RegistrySettlement => ({
  kind: "reserve",
  nameHash: identity.nameHash,
  tickerHash: identity.tickerHash,
  launcher: LAUNCHER.toLowerCase(),
  expiresAt: at(1_000_000 + DAY),
  feePaid: 5n,
  durationSeconds: DAY,
  partnerRef: null,
  ...overrides,
});

const record = (overrides: Partial<OnChainReservation> = {}): OnChainReservation => ({
  launcher: LAUNCHER,
  expiresAt: at(1_000_000 + DAY),
  active: true,
  ...overrides,
});

const settled = (value: RegistrySettlement) => ({
  outcome: "settled" as const,
  blockNumber: 42,
  settlement: value,
});

describe("services/mirror: reservation transaction rules", () => {
  it("only a success goes on to its settlement", () => {
    expect(readingOfOutcome({ state: "succeeded", blockNumber: 1 })).to.deep.equal({ outcome: "succeeded" });
    expect(readingOfOutcome({ state: "failed", blockNumber: 1, error: "x" })).to.deep.equal({
      outcome: "failed",
    });
    expect(readingOfOutcome({ state: "pending" })).to.deep.equal({ outcome: "pending" });
    expect(readingOfOutcome({ state: "not_found" })).to.deep.equal({ outcome: "not_found" });
  });

  it("a settlement is this identity's only when both hashes match", () => {
    expect(settlesIdentity(settlement(), identity)).to.equal(true);
    const other = normalizeIdentity("Rule Coin", "RULX");
    expect(settlesIdentity(settlement({ tickerHash: other.tickerHash }), identity)).to.equal(false);
  });

  it("the record must be the state the transaction left: same holder (any case on EVM), same expiry", () => {
    expect(recordIsSettlement("evm", record(), settlement())).to.equal(true);
    expect(recordIsSettlement("evm", null, settlement())).to.equal(false);
    expect(recordIsSettlement("evm", record({ expiresAt: at(1_000_000 + 2 * DAY) }), settlement())).to.equal(
      false,
    );
    expect(recordIsSettlement("evm", record({ launcher: `0x${"1".repeat(40)}` }), settlement())).to.equal(
      false,
    );
  });

  it("EVM reserve: the window starts at expiry minus duration; hashes and launcher lower-cased", () => {
    const row = mirroredRowOf("hardhat", "evm", identity, record(), settled(settlement()), HASH, undefined);
    expect(row).to.deep.include({
      chain: "hardhat",
      launcher: LAUNCHER.toLowerCase(),
      txHash: HASH.toLowerCase(),
      reservedAt: at(1_000_000),
      durationSeconds: DAY,
      feePaid: 5n,
      blockNumber: 42,
      reservationAccount: null,
      normalizedName: identity.normalizedName,
    });
  });

  it("EVM renewal: extends the mirrored reservation as the indexer does; without it, nothing", () => {
    const renewal = settlement({ kind: "renew", expiresAt: at(1_000_000 + 2 * DAY), feePaid: 3n });
    const renewedRecord = record({ expiresAt: renewal.expiresAt });
    const base = mirroredRowOf("hardhat", "evm", identity, record(), settled(settlement()), HASH, undefined);
    const extended = mirroredRowOf(
      "hardhat",
      "evm",
      identity,
      renewedRecord,
      settled(renewal),
      `0x${"cd".repeat(32)}`,
      base as MirroredReservation,
    );
    expect(extended).to.deep.include({
      reservedAt: at(1_000_000),
      expiresAt: renewal.expiresAt,
      durationSeconds: 2 * DAY,
      feePaid: 8n,
      txHash: `0x${"cd".repeat(32)}`,
    });
    expect(
      mirroredRowOf("hardhat", "evm", identity, renewedRecord, settled(renewal), HASH, undefined),
    ).to.equal(null);
    // A mirrored row that is not the one it renewed (another expiry) is no base either.
    const stale = { ...(base as MirroredReservation), expiresAt: at(1) };
    expect(mirroredRowOf("hardhat", "evm", identity, renewedRecord, settled(renewal), HASH, stale)).to.equal(
      null,
    );
    // Once written, the same renewal is recognised instead of being added twice.
    expect(alreadyMirrored("evm", extended as MirroredReservation, `0x${"CD".repeat(32)}`, renewal)).to.equal(
      true,
    );
  });

  it("Solana: the row is the whole account, with its address", () => {
    const account = {
      address: "Resv11111111111111111111111111111111111111",
      normalizedName: identity.normalizedName,
      normalizedTicker: identity.normalizedTicker,
      reservedAt: at(1_000_000),
      feePaid: 9n,
      partnerRef: `0x${"0f".repeat(32)}` as const,
    };
    const solanaRecord = record({ launcher: "So1anaLauncher1111111111111111111111111111", account });
    const row = mirroredRowOf(
      "solana",
      "solana",
      identity,
      solanaRecord,
      settled(settlement({ launcher: solanaRecord.launcher, durationSeconds: undefined })),
      "5ignature",
      undefined,
    );
    expect(row).to.deep.include({
      launcher: solanaRecord.launcher,
      txHash: "5ignature",
      reservationAccount: account.address,
      durationSeconds: DAY,
      feePaid: 9n,
      partnerRef: account.partnerRef,
    });
  });
});
