// evaluate() with registry reads (on-chain first): which chains are read, how a read replaces the mirror's holds,
// and the adapter each answer names. Pure: snapshots are built here.
import { expect } from "chai";
import type { ChainCheckpoint } from "../../../core/status";
import { chainsToRead, type EvaluationContext, evaluate } from "../../../services/identity/evaluation";
import type { DecisionSnapshot } from "../../../services/identity/recordLoader";

const NOW = new Date("2030-01-01T00:00:00Z");
const HOLDER = "0xabcdef0123456789abcdef0123456789abcdef01";
const COPYCAT = "0x1111111111111111111111111111111111111111";
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
const checkpoint = (ageSeconds: number): ChainCheckpoint => ({
  family: "evm",
  headNumber: 10,
  indexedNumber: 10,
  indexedBlockTime: at(-ageSeconds),
  indexedAt: at(-ageSeconds),
  rewoundFrom: null,
});
const context: EvaluationContext = {
  environment: "production",
  configuredChains: [
    { chain: "hardhat", family: "evm" },
    { chain: "base", family: "evm" },
    { chain: "solana", family: "solana" },
  ],
  freshnessBoundSeconds: 60,
  now: NOW,
};
/** hardhat fresh, base 10 minutes behind, solana never indexed; the stale base mirror has no hold. */
const snapshot: DecisionSnapshot = {
  identityKey: "SIM::SIM",
  records: { holds: [], locks: [], guardian: [], launches: [] },
  checkpoints: [
    { chain: "hardhat", family: "evm", checkpoint: checkpoint(1) },
    { chain: "base", family: "evm", checkpoint: checkpoint(600) },
  ],
  activeKid: null,
  launchpadPartner: null,
  lookalikeKey: null,
  lookalikes: [],
};
const baseHold = {
  kind: "reservation" as const,
  chain: "base",
  launcher: HOLDER,
  startsAt: NOW,
  expiresAt: at(86_400),
};

describe("services/identity/evaluation: on-chain first", () => {
  it("reads only the stale chains in scope, of the launcher's family when no chain is named", () => {
    expect(chainsToRead(snapshot, context, null, COPYCAT)).to.deep.equal(["base"]);
    expect(chainsToRead(snapshot, context, null, undefined)).to.deep.equal(["base", "solana"]);
    expect(chainsToRead(snapshot, context, "hardhat", COPYCAT)).to.deep.equal([]);
    expect(chainsToRead(snapshot, { ...context, environment: "sandbox" }, null, undefined)).to.deep.equal([]);
  });

  it("a read decides its chain as of the read (adapter chain) and wins the multi-chain answer", () => {
    const readAt = at(-0.2);
    const reads = new Map([["base", { hold: baseHold, readAt }]]);
    const copycat = evaluate(snapshot, context, null, COPYCAT, reads);
    expect(copycat.result).to.include({ chain: "base", decision: "block", reason: "active_reservation" });
    expect(copycat.result.dataAsOf).to.deep.equal(readAt);
    expect(copycat.adapter).to.equal("chain");
    expect(evaluate(snapshot, context, "base", HOLDER, reads).result.decision).to.equal("allow");
  });

  it("a failed read leaves recheck_required with adapter unavailable; a guardian block still answers from the index", () => {
    const failed = new Map([["base", null]]);
    const stale = evaluate(snapshot, context, "base", COPYCAT, failed);
    expect(stale.result).to.include({ decision: "recheck_required", reason: "index_behind" });
    expect(stale.adapter).to.equal("unavailable");
    const guarded: DecisionSnapshot = {
      ...snapshot,
      records: {
        ...snapshot.records,
        guardian: [
          {
            kind: "block",
            chain: "base",
            at: at(-10),
            graduated: true,
            expiresAt: null,
            actor: "g",
            reason: "r",
          },
        ],
      },
    };
    const blocked = evaluate(guarded, context, "base", COPYCAT, failed);
    expect(blocked.result.decision).to.equal("block");
    expect(blocked.adapter).to.equal("index");
  });

  it("a read that finds no record replaces the stale mirror's holds: the pair is free", () => {
    const mirrored: DecisionSnapshot = { ...snapshot, records: { ...snapshot.records, holds: [baseHold] } };
    const reads = new Map([["base", { hold: null, readAt: NOW }]]);
    expect(evaluate(mirrored, context, "base", COPYCAT, reads).result.decision).to.equal("allow");
  });
});
