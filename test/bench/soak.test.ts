// The soak bench's judging and reporting rules (bench/soak): an allow counts only when a launchpad could act on
// it, allows inside a fault's unsafe window are caught, and a chain that never recovers reads -1, not a time.
import { generateKeyPairSync } from "node:crypto";
import { expect } from "chai";
import { type RequestCase, requestCases, type SoakChain } from "../../bench/soak/cases";
import { allowProblem, judge, type Sample } from "../../bench/soak/judge";
import { type FaultRecord, NOT_RECOVERED, type SoakRecord, soakMetrics } from "../../bench/soak/report";
import { faultSchedule, soakSeconds } from "../../bench/soak/schedule";
import { createDecisionSigner } from "../../core/decision";
import { normalizeIdentity } from "../../core/fold";
import type { PublicKeyEntry } from "../../core/keyring/publicKeyEntry";

const { privateKey, publicKey } = generateKeyPairSync("ed25519");
const KID = "soak_test_key";
const keys: PublicKeyEntry[] = [
  {
    kid: KID,
    environment: "production",
    status: "active",
    active: true,
    // The raw key is the last 32 bytes of its SPKI form.
    publicKeyBase64: publicKey.export({ format: "der", type: "spki" }).subarray(-32).toString("base64"),
  },
];
const sign = createDecisionSigner({ kid: KID, environment: "production", privateKey });
const PARTNER = "ptn_soak";
const verifier = { keys, partnerId: PARTNER };

const chain: SoakChain = {
  chain: "hardhat",
  family: "evm",
  free: { name: "Open Fox", ticker: "OFOX" },
  reserved: { name: "Held Fox", ticker: "HFOX" },
  owner: "0x1111111111111111111111111111111111111111",
  other: "0x2222222222222222222222222222222222222222",
};
const [freeCase, blockedCase, ownerCase] = requestCases("validate", [chain]) as [
  RequestCase,
  RequestCase,
  RequestCase,
  RequestCase,
];

function allowFor(
  request: RequestCase,
  issuedAt: Date,
  overrides: { launcher?: string; name?: string } = {},
) {
  const identity = normalizeIdentity(overrides.name ?? request.identity.name, request.identity.ticker);
  return sign({
    requestId: "dec_test",
    identityKey: identity.identityKey,
    normalizedName: identity.normalizedName,
    normalizedTicker: identity.normalizedTicker,
    chain: request.chain,
    launchpadId: PARTNER,
    launcher: overrides.launcher ?? request.launcher,
    decision: "allow",
    reason: "no_conflict",
    issuedAt,
  });
}

function sample(overrides: Partial<Sample>): Sample {
  return {
    route: "validate",
    chain: "hardhat",
    probe: false,
    expected: "allow",
    reservedForSomeoneElse: false,
    sentAt: 0,
    receivedAt: 10,
    status: 200,
    decision: "allow",
    verificationFailure: undefined,
    ...overrides,
  };
}

const metric = (metrics: [string, number, string][], name: string) =>
  metrics.find(([candidate]) => candidate === name)?.[1];

describe("soak bench", () => {
  describe("cases", () => {
    it("alternates allowed and blocked cases, the blocked one being another wallet on the reserved identity", () => {
      const cases = requestCases("check", [chain]);
      expect(cases.map((request) => request.expected)).to.deep.equal(["allow", "block", "allow", "block"]);
      expect(blockedCase).to.include({ launcher: chain.other, reservedForSomeoneElse: true });
      expect(blockedCase.identity).to.equal(chain.reserved);
      expect(ownerCase).to.include({ launcher: chain.owner, expected: "allow" });
    });
  });

  describe("judging an allow", () => {
    const now = Date.now();

    it("accepts a signed allow for the request, issued while it was in flight", () => {
      const decision = allowFor(freeCase, new Date(now));
      expect(allowProblem(freeCase, decision, now - 50, now + 50, verifier)).to.equal(undefined);
    });

    it("refuses a tampered, foreign, mismatched or out-of-time allow", () => {
      const decision = allowFor(freeCase, new Date(now));
      const tampered = { ...decision, reason: "authorized_launcher" };
      expect(allowProblem(freeCase, tampered, now - 50, now + 50, verifier)).to.equal("bad_signature");
      expect(allowProblem(freeCase, decision, now - 50, now + 50, { keys: [], partnerId: PARTNER })).to.equal(
        "unknown_key",
      );
      expect(allowProblem(freeCase, decision, now - 50, now + 50, { keys, partnerId: "ptn_other" })).to.equal(
        "launchpad_mismatch",
      );
      const forOwner = allowFor(freeCase, new Date(now), { launcher: chain.owner });
      expect(allowProblem(freeCase, forOwner, now - 50, now + 50, verifier)).to.equal("launcher_mismatch");
      const otherIdentity = allowFor(freeCase, new Date(now), { name: "Other Fox" });
      expect(allowProblem(freeCase, otherIdentity, now - 50, now + 50, verifier)).to.equal(
        "identity_mismatch",
      );
      const old = allowFor(freeCase, new Date(now - 30_000));
      expect(allowProblem(freeCase, old, now - 50, now + 50, verifier)).to.equal("issued_outside_request");
      expect(allowProblem(freeCase, { decision: "allow" }, now - 50, now + 50, verifier)).to.equal(
        "no_signature",
      );
    });

    it("verifies only validate allows; a block or a 503 carries no verdict", () => {
      const times = { sentAt: now - 50, receivedAt: now + 50 };
      const unsigned = judge(freeCase, { status: 200, body: { decision: "allow" } }, times, verifier, false);
      expect(unsigned.verificationFailure).to.equal("no_signature");
      const blocked = judge(
        blockedCase,
        { status: 200, body: { decision: "block" } },
        times,
        verifier,
        false,
      );
      expect(blocked).to.include({ decision: "block", verificationFailure: undefined });
      const unavailable = judge(freeCase, { status: 503, body: {} }, times, verifier, false);
      expect(unavailable).to.include({ decision: undefined, verificationFailure: undefined });
    });
  });

  describe("report", () => {
    const [planned] = faultSchedule(600);
    const fault = (recoveries: [string, number | undefined][]): FaultRecord => ({
      planned: planned as FaultRecord["planned"],
      startedAt: 1_000,
      endedAt: 7_000,
      unsafe: { reason: "database_down", from: 2_000, until: 6_000 },
      recoveries: new Map(recoveries),
    });
    const record = (samples: Sample[], faults: FaultRecord[]): SoakRecord => ({
      loadStartedAt: 0,
      loadEndedAt: 20_000,
      load: [{ sent: samples.length, skipped: 0 }],
      samples,
      faults,
    });

    it("counts allows answered wholly inside an unsafe window, and allows to a copycat at any time", () => {
      const metrics = soakMetrics(
        record(
          [
            sample({ sentAt: 2_500, receivedAt: 2_600 }),
            sample({ sentAt: 1_500, receivedAt: 2_600 }), // sent before the database was down for sure
            sample({ sentAt: 2_500, receivedAt: 2_600, status: 503, decision: undefined }),
            sample({ sentAt: 8_000, receivedAt: 8_100, reservedForSomeoneElse: true }),
          ],
          [fault([["hardhat", 2.5]])],
        ),
      );
      expect(metric(metrics, "allows_while_database_down")).to.equal(1);
      expect(metric(metrics, "allows_for_reserved_identity")).to.equal(1);
      expect(metric(metrics, "database_restart_1_answers_503")).to.equal(1);
      expect(metric(metrics, "database_restart_1_recovery_seconds")).to.equal(2.5);
    });

    it("counts 5xx other than 503, and allows failing verification", () => {
      const metrics = soakMetrics(
        record(
          [sample({ status: 500, decision: undefined }), sample({ verificationFailure: "bad_signature" })],
          [],
        ),
      );
      expect(metric(metrics, "answers_5xx_other")).to.equal(1);
      expect(metric(metrics, "allows_failing_verification")).to.equal(1);
      expect(metric(metrics, "allows_verified")).to.equal(0);
    });

    it("reports a chain that never recovered as -1 and the fault as not recovered", () => {
      const metrics = soakMetrics(
        record(
          [],
          [
            fault([
              ["hardhat", 3],
              ["solana", undefined],
            ]),
          ],
        ),
      );
      expect(metric(metrics, "database_restart_1_recovered")).to.equal(0);
      expect(metric(metrics, "database_restart_1_recovery_seconds")).to.equal(NOT_RECOVERED);
      expect(metric(metrics, "database_restart_1_recovery_seconds_solana")).to.equal(NOT_RECOVERED);
      expect(metric(metrics, "database_restart_1_recovery_seconds_hardhat")).to.equal(3);
    });
  });

  describe("schedule", () => {
    it("cuts the Solana RPC for 70 s in a full run, and scales every fault into a short one", () => {
      const full = faultSchedule(600);
      expect(full.find((fault) => fault.kind === "solana_rpc_cut")?.outageSeconds).to.equal(70);
      expect(full.filter((fault) => fault.kind === "database_restart")).to.have.length(2);
      for (const seconds of [60, 90, 120]) {
        const schedule = faultSchedule(seconds);
        schedule.forEach((fault, index) => {
          const next = schedule[index + 1]?.atSeconds ?? seconds;
          expect(fault.atSeconds + fault.outageSeconds, `${fault.name} in ${seconds} s`).to.be.below(next);
        });
      }
    });

    it("reads SOAK_SECONDS, refusing what cannot hold the faults", () => {
      expect(soakSeconds(undefined)).to.equal(600);
      expect(soakSeconds("90")).to.equal(90);
      expect(() => soakSeconds("30")).to.throw(/at least 60/);
      expect(() => soakSeconds("ten")).to.throw(/SOAK_SECONDS/);
    });
  });
});
