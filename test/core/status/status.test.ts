import { expect } from "chai";
import {
  type ChainCheckpoint,
  type ChainFreshness,
  type ChainStatus,
  decideAcrossChains,
  decideChainStatus,
  extendLock,
  freshnessOf,
  type GuardianRecord,
  HOLD_EXPIRY_SKEW_MS,
  type HoldRecord,
  type IdentityRecords,
  identityTimeline,
  LAG_BOUND_BLOCKS,
  type LaunchRecord,
  type LockBasisQuery,
  type LockRecord,
  lockBasis,
  lockDurationSeconds,
  NO_RECORDS,
  NoChainsError,
  type PendingPrepare,
  SANDBOX_DESIGNATED_LAUNCHER,
  sandboxScenarios,
} from "../../../core/status";

const T = new Date("2026-11-22T12:00:00.000Z");
const ms = (offset: number) => new Date(T.getTime() + offset);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const FRESH: ChainFreshness = { state: "fresh", dataAsOf: T };
const EVM_OWNER = "0xAbCdEf0123456789aBCdef0123456789ABcDeF01";
const EVM_OTHER = "0x1111111111111111111111111111111111111111";
const SOL_OWNER = "D77Vtu5A72TQBoQ6P7T7XamMHB3p4NM2rHkhLLMfo3Zc";

function hold(overrides: Partial<HoldRecord> = {}): HoldRecord {
  return {
    kind: "reservation",
    chain: "base",
    launcher: EVM_OWNER,
    startsAt: ms(-DAY),
    expiresAt: ms(DAY),
    ...overrides,
  };
}
function lock(overrides: Partial<LockRecord> = {}): LockRecord {
  return {
    kind: "bonded",
    chain: "base",
    authorizedLauncher: EVM_OWNER,
    appliedAt: ms(-HOUR),
    expiresAt: ms(60 * DAY),
    wasReserved: true,
    ...overrides,
  };
}
function guardian(overrides: Partial<GuardianRecord> = {}): GuardianRecord {
  return {
    kind: "block",
    chain: null,
    at: ms(-HOUR),
    graduated: false,
    expiresAt: null,
    actor: "ops",
    reason: "r",
    ...overrides,
  };
}
function launch(overrides: Partial<LaunchRecord> = {}): LaunchRecord {
  return {
    chain: "base",
    launcher: EVM_OWNER,
    tokenOrMint: "0xtoken",
    launchpad: "pad",
    at: ms(-2 * HOUR),
    ...overrides,
  };
}
function records(parts: Partial<IdentityRecords>): IdentityRecords {
  return { ...NO_RECORDS, ...parts };
}
function decide(
  parts: Partial<IdentityRecords>,
  options: { launcher?: string; now?: Date; freshness?: ChainFreshness; chain?: string } = {},
): ChainStatus {
  return decideChainStatus(records(parts), {
    chain: options.chain ?? "base",
    now: options.now ?? T,
    freshness: options.freshness ?? FRESH,
    ...(options.launcher === undefined ? {} : { launcher: options.launcher }),
  });
}

type Row = [
  title: string,
  parts: Partial<IdentityRecords>,
  launcher: string | undefined,
  expected: Pick<ChainStatus, "status" | "decision" | "reason" | "launcherAuthorized"> &
    Partial<Pick<ChainStatus, "authorizedLauncher" | "protectedUntil">>,
];

describe("identity status engine", () => {
  describe("statuses and decisions (one row per spec state)", () => {
    const rows: Row[] = [
      [
        "no records: available",
        {},
        undefined,
        { status: "available", decision: "allow", reason: "no_conflict", launcherAuthorized: null },
      ],
      [
        "no records, any launcher: allow",
        {},
        EVM_OTHER,
        { status: "available", decision: "allow", reason: "no_conflict", launcherAuthorized: true },
      ],
      [
        "reservation confirmed: reserved until the window ends",
        { holds: [hold()] },
        undefined,
        {
          status: "reserved",
          decision: "allow_authorized_only",
          reason: "active_reservation",
          launcherAuthorized: null,
          authorizedLauncher: EVM_OWNER,
          protectedUntil: ms(DAY),
        },
      ],
      [
        "reserved, authorized wallet: authorized / allow",
        { holds: [hold()] },
        EVM_OWNER,
        { status: "authorized", decision: "allow", reason: "authorized_launcher", launcherAuthorized: true },
      ],
      [
        "reserved, other wallet: blocked / block",
        { holds: [hold()] },
        EVM_OTHER,
        {
          status: "blocked",
          decision: "block",
          reason: "active_reservation",
          launcherAuthorized: false,
          authorizedLauncher: EVM_OWNER,
        },
      ],
      [
        "launch reported: launched, no lock",
        { launches: [launch()] },
        EVM_OTHER,
        {
          status: "launched",
          decision: "allow",
          reason: "launched_without_lock",
          launcherAuthorized: true,
          protectedUntil: null,
        },
      ],
      [
        "bonded lock: protected for the authorized wallet",
        { locks: [lock()] },
        undefined,
        {
          status: "protected",
          decision: "allow_authorized_only",
          reason: "bonding_lock",
          launcherAuthorized: null,
          protectedUntil: ms(60 * DAY),
        },
      ],
      [
        "bonded lock, owner: authorized",
        { locks: [lock()] },
        EVM_OWNER,
        { status: "authorized", decision: "allow", reason: "authorized_launcher", launcherAuthorized: true },
      ],
      [
        "milestone lock, other wallet: blocked",
        { locks: [lock({ kind: "milestone", expiresAt: ms(90 * DAY) })] },
        EVM_OTHER,
        {
          status: "blocked",
          decision: "block",
          reason: "milestone_lock",
          launcherAuthorized: false,
          protectedUntil: ms(90 * DAY),
        },
      ],
      [
        "lock without an authorized launcher blocks everyone, even on a bare check",
        { locks: [lock({ authorizedLauncher: null, wasReserved: false, expiresAt: ms(48 * HOUR) })] },
        undefined,
        {
          status: "protected",
          decision: "block",
          reason: "bonding_lock",
          launcherAuthorized: null,
          authorizedLauncher: null,
        },
      ],
      [
        "guardian block: blocked for everyone, owner included",
        { holds: [hold()], guardian: [guardian()] },
        EVM_OWNER,
        {
          status: "blocked",
          decision: "block",
          reason: "guardian_block",
          launcherAuthorized: false,
          authorizedLauncher: null,
        },
      ],
      [
        "graduated block: blocked, no end",
        { guardian: [guardian({ graduated: true })] },
        undefined,
        {
          status: "blocked",
          decision: "block",
          reason: "graduated_block",
          launcherAuthorized: null,
          protectedUntil: null,
        },
      ],
      [
        "guardian correction: cleared",
        { guardian: [guardian({ at: ms(-2 * HOUR) }), guardian({ kind: "clear", at: ms(-HOUR) })] },
        EVM_OTHER,
        { status: "cleared", decision: "allow", reason: "guardian_cleared", launcherAuthorized: true },
      ],
      [
        "clear does not lift a reservation",
        {
          holds: [hold()],
          guardian: [guardian({ at: ms(-2 * HOUR) }), guardian({ kind: "clear", at: ms(-HOUR) })],
        },
        EVM_OTHER,
        { status: "blocked", decision: "block", reason: "active_reservation", launcherAuthorized: false },
      ],
      [
        "block after a clear is in force again",
        { guardian: [guardian({ kind: "clear", at: ms(-2 * HOUR) }), guardian({ at: ms(-HOUR) })] },
        undefined,
        { status: "blocked", decision: "block", reason: "guardian_block", launcherAuthorized: null },
      ],
      [
        "temporary guardian block that ended: no longer blocked",
        { guardian: [guardian({ expiresAt: ms(-1) })] },
        undefined,
        { status: "available", decision: "allow", reason: "no_conflict", launcherAuthorized: null },
      ],
      [
        "hold lapsed: expired, may launch again",
        { holds: [hold({ startsAt: ms(-2 * DAY), expiresAt: ms(-DAY) })] },
        EVM_OTHER,
        {
          status: "expired",
          decision: "allow",
          reason: "protection_lapsed",
          launcherAuthorized: true,
          authorizedLauncher: null,
        },
      ],
      [
        "lock lapsed: expired",
        { locks: [lock({ appliedAt: ms(-3 * DAY), expiresAt: ms(-DAY) })] },
        undefined,
        { status: "expired", decision: "allow", reason: "protection_lapsed", launcherAuthorized: null },
      ],
      [
        "launch after a lapse reads launched (newest past event wins)",
        {
          holds: [hold({ startsAt: ms(-3 * DAY), expiresAt: ms(-2 * DAY) })],
          launches: [launch({ at: ms(-DAY) })],
        },
        undefined,
        { status: "launched", decision: "allow", reason: "launched_without_lock", launcherAuthorized: null },
      ],
      [
        "lock and hold: protected until the later of both",
        { holds: [hold({ expiresAt: ms(70 * DAY) })], locks: [lock()] },
        undefined,
        {
          status: "protected",
          decision: "allow_authorized_only",
          reason: "bonding_lock",
          launcherAuthorized: null,
          protectedUntil: ms(70 * DAY),
        },
      ],
      [
        "a hold that starts in the future does not count yet",
        { holds: [hold({ startsAt: ms(HOUR), expiresAt: ms(DAY) })] },
        EVM_OTHER,
        { status: "available", decision: "allow", reason: "no_conflict", launcherAuthorized: true },
      ],
      [
        "a hold stamped seconds ahead of the service clock (chain block time) already holds",
        { holds: [hold({ startsAt: ms(3_000), expiresAt: ms(DAY) })] },
        EVM_OTHER,
        { status: "blocked", decision: "block", reason: "active_reservation", launcherAuthorized: false },
      ],
      [
        "records on another chain do not apply",
        { holds: [hold({ chain: "solana", launcher: SOL_OWNER })] },
        EVM_OTHER,
        { status: "available", decision: "allow", reason: "no_conflict", launcherAuthorized: true },
      ],
      [
        "guardian block on another chain does not apply",
        { guardian: [guardian({ chain: "solana" })] },
        undefined,
        { status: "available", decision: "allow", reason: "no_conflict", launcherAuthorized: null },
      ],
    ];
    for (const [title, parts, launcher, expected] of rows) {
      it(title, () => {
        const result = decide(parts, launcher === undefined ? {} : { launcher });
        expect(result).to.include({
          status: expected.status,
          decision: expected.decision,
          reason: expected.reason,
          launcherAuthorized: expected.launcherAuthorized,
        });
        if ("authorizedLauncher" in expected)
          expect(result.authorizedLauncher).to.equal(expected.authorizedLauncher);
        if ("protectedUntil" in expected)
          expect(result.protectedUntil).to.deep.equal(expected.protectedUntil);
      });
    }
  });

  describe("launcher authorization", () => {
    it("EVM addresses match case-insensitively", () => {
      expect(decide({ holds: [hold()] }, { launcher: EVM_OWNER.toLowerCase() }).decision).to.equal("allow");
      expect(
        decide({ holds: [hold()] }, { launcher: EVM_OWNER.toUpperCase().replace("0X", "0x") }).decision,
      ).to.equal("allow");
    });
    it("Solana addresses match exactly", () => {
      const parts = { holds: [hold({ chain: "solana", launcher: SOL_OWNER })] };
      expect(decide(parts, { chain: "solana", launcher: SOL_OWNER }).decision).to.equal("allow");
      expect(decide(parts, { chain: "solana", launcher: SOL_OWNER.toLowerCase() }).decision).to.equal(
        "block",
      );
    });
  });

  describe("lapses at the exact boundary", () => {
    const parts = { holds: [hold({ expiresAt: T })] };
    it("a hold counts for HOLD_EXPIRY_SKEW_MS past its expiry: the chain's clock may still let the holder renew", () => {
      expect(decide(parts, { now: ms(-1), launcher: EVM_OTHER }).status).to.equal("blocked");
      expect(decide(parts, { now: T, launcher: EVM_OTHER })).to.include({
        status: "blocked",
        decision: "block",
      });
      expect(decide(parts, { now: ms(HOLD_EXPIRY_SKEW_MS - 1), launcher: EVM_OTHER }).decision).to.equal(
        "block",
      );
      expect(decide(parts, { now: ms(HOLD_EXPIRY_SKEW_MS - 1), launcher: EVM_OWNER }).decision).to.equal(
        "allow",
      );
    });
    it("once the skew has passed too, the hold has lapsed", () => {
      expect(decide(parts, { now: ms(HOLD_EXPIRY_SKEW_MS), launcher: EVM_OTHER })).to.include({
        status: "expired",
        decision: "allow",
      });
    });
    it("a lock lapses at its expiry instant too", () => {
      const locked = { locks: [lock({ expiresAt: T })] };
      expect(decide(locked, { now: ms(-1) }).status).to.equal("protected");
      expect(decide(locked, { now: T }).status).to.equal("expired");
    });
  });

  describe("lock lengths and longest-lock", () => {
    const table: [LockRecord["kind"], boolean, number][] = [
      ["bonded", true, 60 * 86_400],
      ["bonded", false, 48 * 3_600],
      ["milestone", true, 90 * 86_400],
      ["milestone", false, 7 * 86_400],
    ];
    for (const [kind, wasReserved, seconds] of table) {
      it(`${kind}, wasReserved=${wasReserved}: ${seconds} s`, () => {
        expect(lockDurationSeconds(kind, wasReserved)).to.equal(seconds);
      });
    }
    it("a shorter new lock keeps the existing expiry", () => {
      const existing = ms(60 * DAY);
      expect(extendLock(existing, T, 48 * 3_600)).to.deep.equal({
        previousExpiry: existing,
        newExpiry: existing,
      });
    });
    it("a longer new lock extends it", () => {
      const existing = ms(2 * DAY);
      expect(extendLock(existing, T, 90 * 86_400)).to.deep.equal({
        previousExpiry: existing,
        newExpiry: ms(90 * DAY),
      });
    });
    it("without a previous lock the new one applies", () => {
      expect(extendLock(null, T, 3_600)).to.deep.equal({ previousExpiry: null, newExpiry: ms(HOUR) });
    });
    it("the longest live lock decides protectedUntil", () => {
      const parts = {
        locks: [lock({ expiresAt: ms(90 * DAY), kind: "milestone" }), lock({ expiresAt: ms(2 * DAY) })],
      };
      expect(decide(parts)).to.include({ reason: "milestone_lock" });
      expect(decide(parts).protectedUntil).to.deep.equal(ms(90 * DAY));
    });
  });

  describe("what a new lock rests on (lockBasis)", () => {
    const query = (overrides: Partial<LockBasisQuery> = {}): LockBasisQuery => ({
      kind: "bonded",
      launch: launch(),
      claimedReserved: undefined,
      pendingPrepares: [],
      now: T,
      ...overrides,
    });
    /** A prepare of `launcher` that lapses `offset` from T. */
    const prepare = (launcher: string, offset: number): PendingPrepare => ({
      launcher,
      lapsesAt: ms(offset),
    });
    it("the launcher is the launch's; reserved when the launcher held the pair at the launch", () => {
      expect(lockBasis(records({ holds: [hold()] }), query())).to.deep.equal({
        authorizedLauncher: EVM_OWNER,
        reserved: true,
        lockSeconds: 60 * 86_400,
      });
      expect(lockBasis(NO_RECORDS, query())).to.deep.equal({
        authorizedLauncher: EVM_OWNER,
        reserved: false,
        lockSeconds: 48 * 3_600,
      });
    });
    it("milestone: reserved at the launch or now; bonded: at the launch only", () => {
      const reservedAfter = records({ holds: [hold({ startsAt: ms(-HOUR), expiresAt: ms(DAY) })] });
      expect(lockBasis(reservedAfter, query({ kind: "milestone" }))).to.include({ reserved: true });
      expect(lockBasis(reservedAfter, query({ kind: "bonded" }))).to.include({ reserved: false });
      const lapsed = records({ holds: [hold({ startsAt: ms(-3 * DAY), expiresAt: ms(-HOUR) })] });
      expect(lockBasis(lapsed, query({ kind: "milestone" }))).to.include({
        reserved: true,
        lockSeconds: 90 * 86_400,
      });
    });
    it("the body's wasReserved only confirms: a contradiction is refused", () => {
      expect(lockBasis(NO_RECORDS, query({ claimedReserved: true }))).to.deep.equal({
        reason: "reservation_state_mismatch",
        claimedReserved: true,
        reserved: false,
      });
    });
    it("never over another wallet's live hold, nor for a launch made over one", () => {
      const other = hold({ launcher: EVM_OTHER });
      expect(lockBasis(records({ holds: [other] }), query())).to.include({
        reason: "reserved_by_another_wallet",
        holder: EVM_OTHER,
      });
      const lapsedOther = hold({ launcher: EVM_OTHER, expiresAt: ms(-HOUR) });
      expect(lockBasis(records({ holds: [lapsedOther] }), query())).to.include({
        reason: "launched_over_reservation",
      });
    });
    it("a prepare of the launcher itself, never confirmed, is not a reservation: the unreserved lengths", () => {
      const ownPrepare = { pendingPrepares: [prepare(EVM_OWNER, 10 * 60_000)] };
      for (const kind of ["bonded", "milestone"] as const) {
        expect(lockBasis(NO_RECORDS, query({ kind, ...ownPrepare }))).to.deep.equal({
          authorizedLauncher: EVM_OWNER,
          reserved: false,
          lockSeconds: lockDurationSeconds(kind, false),
        });
      }
      expect(lockBasis(NO_RECORDS, query({ claimedReserved: true, ...ownPrepare }))).to.include({
        reason: "reservation_state_mismatch",
      });
    });
    it("another wallet's live prepare defers the lock until the last one lapses; a lapsed one defers nothing", () => {
      const prepares = [prepare(EVM_OTHER, 5 * 60_000), prepare(SOL_OWNER, 10 * 60_000)];
      expect(lockBasis(NO_RECORDS, query({ pendingPrepares: prepares }))).to.deep.equal({
        reason: "reservation_payment_pending",
        holder: SOL_OWNER,
        holdExpiresAt: ms(10 * 60_000),
      });
      expect(lockBasis(NO_RECORDS, query({ pendingPrepares: prepares, now: ms(10 * 60_000) }))).to.include({
        reserved: false,
      });
    });
    it("a live lock of another launcher (or of nobody) is not extended for this launch", () => {
      for (const authorizedLauncher of [EVM_OTHER, null]) {
        expect(lockBasis(records({ locks: [lock({ authorizedLauncher })] }), query())).to.include({
          reason: "locked_for_another_launcher",
          authorizedLauncher,
        });
      }
      expect(lockBasis(records({ locks: [lock()] }), query())).to.include({ authorizedLauncher: EVM_OWNER });
    });
  });

  describe("freshness", () => {
    const checkpoint: ChainCheckpoint = {
      family: "evm",
      headNumber: 100,
      indexedNumber: 100,
      indexedBlockTime: ms(-10 * 60_000),
      indexedAt: ms(-5_000),
      rewoundFrom: null,
    };
    it("a caught-up mirror is as fresh as its last confirmation", () => {
      expect(freshnessOf(checkpoint, T, 30)).to.deep.equal({ state: "fresh", dataAsOf: ms(-5_000) });
    });
    it("exactly at the bound is still fresh; one millisecond later is behind", () => {
      expect(freshnessOf(checkpoint, ms(25_000), 30).state).to.equal("fresh");
      expect(freshnessOf(checkpoint, ms(25_001), 30).state).to.equal("behind");
    });
    it("a caught-up mirror whose head block is later than its confirmation (chain clock ahead) is as of that block", () => {
      const ahead = { ...checkpoint, indexedBlockTime: ms(2 * HOUR) };
      expect(freshnessOf(ahead, ms(2 * HOUR + 10_000), 30)).to.deep.equal({
        state: "fresh",
        dataAsOf: ms(2 * HOUR),
      });
    });
    it("a lagging mirror is only as fresh as the last block it read", () => {
      expect(freshnessOf({ ...checkpoint, headNumber: 120 }, T, 30)).to.deep.equal({
        state: "behind",
        dataAsOf: ms(-10 * 60_000),
      });
    });
    describe("blocks known to exist but not indexed, whatever their times", () => {
      /** Indexed up to block 100, a block a second old by the chain's clock (ahead of the service's). */
      const lagging = (family: ChainCheckpoint["family"], lag: number): ChainCheckpoint => ({
        ...checkpoint,
        family,
        headNumber: 100 + lag,
        indexedBlockTime: ms(-1_000),
      });
      for (const family of ["evm", "solana"] as const) {
        const bound = LAG_BOUND_BLOCKS[family];
        it(`${family}: ${bound} behind the head it read is fresh, ${bound + 1} is behind though its last block is a second old`, () => {
          expect(freshnessOf(lagging(family, bound), T, 30)).to.deep.equal({
            state: "fresh",
            dataAsOf: ms(-1_000),
          });
          expect(freshnessOf(lagging(family, bound + 1), T, 30)).to.deep.equal({
            state: "behind",
            dataAsOf: ms(-1_000),
          });
        });
      }
      it("a rewound mirror is behind until it has indexed again as far as it had, even caught up with the head", () => {
        const rewound = {
          ...checkpoint,
          headNumber: 90,
          indexedNumber: 90,
          indexedAt: ms(-1_000),
          rewoundFrom: 100,
        };
        expect(freshnessOf(rewound, T, 30).state).to.equal("behind");
        expect(freshnessOf({ ...rewound, indexedNumber: 99, headNumber: 99 }, T, 30).state).to.equal(
          "behind",
        );
        expect(freshnessOf({ ...rewound, indexedNumber: 100, headNumber: 100 }, T, 30).state).to.equal(
          "fresh",
        );
      });
      it("a checkpoint with a head but no indexed block is behind", () => {
        expect(freshnessOf({ ...checkpoint, indexedNumber: null }, T, 30).state).to.equal("behind");
      });
    });
    it("no checkpoint: not started", () => {
      expect(freshnessOf(undefined, T, 30).state).to.equal("not_started");
    });
    const staleRows: [ChainFreshness, ChainStatus["status"], ChainStatus["decision"], string][] = [
      [{ state: "behind", dataAsOf: ms(-HOUR) }, "delayed", "recheck_required", "index_behind"],
      [{ state: "not_started", dataAsOf: null }, "unknown", "recheck_required", "index_not_started"],
      [{ state: "unavailable", dataAsOf: null }, "unknown", "unavailable", "data_unavailable"],
    ];
    for (const [freshness, status, decision, reason] of staleRows) {
      it(`${freshness.state}: ${status} / ${decision}, never allow even for the owner`, () => {
        const result = decide({ holds: [hold()] }, { freshness, launcher: EVM_OWNER });
        expect(result).to.include({ status, decision, reason, launcherAuthorized: null });
      });
    }
    it("a guardian block holds even when the mirror lags", () => {
      expect(
        decide({ guardian: [guardian()] }, { freshness: { state: "behind", dataAsOf: null } }).decision,
      ).to.equal("block");
    });
  });

  describe("multi-chain rule", () => {
    const chains = [
      { chain: "base", freshness: FRESH },
      { chain: "solana", freshness: FRESH },
    ];
    it("the most restrictive chain decides and is named", () => {
      const parts = records({ holds: [hold({ chain: "solana", launcher: SOL_OWNER })] });
      const result = decideAcrossChains(parts, chains, EVM_OTHER, T);
      expect(result).to.include({ chain: "solana", decision: "block" });
    });
    it("a lagging chain makes a free pair recheck_required", () => {
      const result = decideAcrossChains(
        NO_RECORDS,
        [
          chains[0] as (typeof chains)[number],
          { chain: "solana", freshness: { state: "behind", dataAsOf: null } },
        ],
        undefined,
        T,
      );
      expect(result).to.include({ chain: "solana", decision: "recheck_required", status: "delayed" });
    });
    it("block outranks recheck_required", () => {
      const parts = records({ holds: [hold()] });
      const result = decideAcrossChains(
        parts,
        [
          chains[0] as (typeof chains)[number],
          { chain: "solana", freshness: { state: "unavailable", dataAsOf: null } },
        ],
        EVM_OTHER,
        T,
      );
      expect(result).to.include({ chain: "base", decision: "block" });
    });
    it("all free: allow, first chain named", () => {
      expect(decideAcrossChains(NO_RECORDS, chains, undefined, T)).to.include({
        chain: "base",
        decision: "allow",
      });
    });
    it("no chains is a configuration error", () => {
      expect(() => decideAcrossChains(NO_RECORDS, [], undefined, T)).to.throw(NoChainsError);
    });
  });

  describe("seeded sandbox scenarios", () => {
    const sandboxChains = [
      { chain: "hardhat", family: "evm" as const },
      { chain: "solana", family: "solana" as const },
    ];
    const scenarios = new Map(sandboxScenarios(sandboxChains, T).map((s) => [s.identityKey, s.records]));
    const evmOwner = SANDBOX_DESIGNATED_LAUNCHER.evm;
    const solOwner = SANDBOX_DESIGNATED_LAUNCHER.solana;
    const inputs = sandboxChains.map(({ chain }) => ({ chain, freshness: FRESH }));
    const at = (key: string, launcher: string | undefined, chain = "hardhat", now = ms(HOUR)) =>
      decideChainStatus(scenarios.get(key) ?? NO_RECORDS, {
        chain,
        now,
        freshness: FRESH,
        ...(launcher ? { launcher } : {}),
      });

    it("seeds exactly the seven scenarios", () => {
      expect([...scenarios.keys()]).to.have.members([
        "SANDBOXFOX::SFOX",
        "MOONBADGER::BADGER",
        "IRONWHALE::IRON",
        "DUSKRAVEN::DUSK",
        "VAMPCOIN::VAMP",
        "CLEARSKY::CLEAR",
        "NIGHTSHADE::SHADE",
      ]);
    });
    it("SANDBOXFOX: the designated launcher gets allow on each chain family, others block", () => {
      expect(at("SANDBOXFOX::SFOX", evmOwner)).to.include({ status: "authorized", decision: "allow" });
      expect(at("SANDBOXFOX::SFOX", solOwner, "solana")).to.include({
        status: "authorized",
        decision: "allow",
      });
      expect(at("SANDBOXFOX::SFOX", EVM_OTHER)).to.include({ status: "blocked", decision: "block" });
      expect(at("SANDBOXFOX::SFOX", undefined)).to.include({
        status: "reserved",
        decision: "allow_authorized_only",
      });
    });
    it("MOONBADGER: protected by a 60-day bonding lock; non-owner blocked", () => {
      const bare = at("MOONBADGER::BADGER", undefined);
      expect(bare).to.include({ status: "protected", reason: "bonding_lock" });
      expect(bare.protectedUntil).to.deep.equal(ms(60 * DAY));
      expect(at("MOONBADGER::BADGER", EVM_OTHER).decision).to.equal("block");
    });
    it("IRONWHALE: protected by a 90-day milestone lock", () => {
      const bare = at("IRONWHALE::IRON", undefined);
      expect(bare).to.include({ status: "protected", reason: "milestone_lock" });
      expect(bare.protectedUntil).to.deep.equal(ms(90 * DAY));
    });
    it("DUSKRAVEN: expired, available again", () => {
      expect(at("DUSKRAVEN::DUSK", EVM_OTHER)).to.include({ status: "expired", decision: "allow" });
    });
    it("VAMPCOIN: graduated block, blocked for everyone, even a year later", () => {
      expect(at("VAMPCOIN::VAMP", evmOwner, "hardhat", ms(365 * DAY))).to.include({
        status: "blocked",
        decision: "block",
        reason: "graduated_block",
      });
    });
    it("CLEARSKY: cleared, allow", () => {
      expect(at("CLEARSKY::CLEAR", EVM_OTHER)).to.include({ status: "cleared", decision: "allow" });
    });
    it("NIGHTSHADE: 48-hour lock that lapses exactly at 48 hours", () => {
      expect(at("NIGHTSHADE::SHADE", EVM_OTHER)).to.include({ status: "blocked", decision: "block" });
      expect(at("NIGHTSHADE::SHADE", EVM_OTHER, "hardhat", ms(48 * HOUR - 1)).decision).to.equal("block");
      expect(at("NIGHTSHADE::SHADE", EVM_OTHER, "hardhat", ms(48 * HOUR))).to.include({
        status: "expired",
        decision: "allow",
      });
    });
    it("any other pair is available", () => {
      expect(decideAcrossChains(NO_RECORDS, inputs, EVM_OTHER, T)).to.include({
        status: "available",
        decision: "allow",
      });
    });
  });

  describe("timeline", () => {
    it("lists past records oldest first, lapses once passed, nothing from the future", () => {
      const parts = records({
        holds: [hold({ startsAt: ms(-3 * DAY), expiresAt: ms(-2 * DAY) })],
        launches: [launch({ at: ms(-DAY) })],
        locks: [lock({ appliedAt: ms(-HOUR) })],
        guardian: [guardian({ at: ms(HOUR) })],
      });
      expect(identityTimeline(parts, T).map((entry) => entry.type)).to.deep.equal([
        "reserved",
        "reservation_expired",
        "launched",
        "locked",
      ]);
    });
  });
});
