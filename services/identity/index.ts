// The identity context's public face: the identity service (check, status, launch validation, reporting)
// with the shared data path applied inside, and the input rule a route applies before it admits a caller.
import type { RegistryCatalogue } from "../../chains/registryClient";
import type { Environment } from "../../core/environment";
import { ApiError } from "../../core/errors/catalogue";
import type { NormalizedIdentity } from "../../core/fold";
import { lookalikeKey } from "../../core/lookalike";
import { assertNotSandboxScenario } from "../../core/status";
import type { DataPath } from "../dataPath";
import type { ReservationTxView } from "../mirror/reservationTransaction";
import type { KeyedRead } from "../partners/keyAuthentication";
import type { ActiveSigners } from "../signing/activeSigner";
import {
  admittedSnapshotLoader,
  admittedSnapshotOf,
  type KeyedSnapshot,
  snapshotReadWithKey,
} from "./admittedSnapshots";
import type { ChainReader } from "./chainReads";
import { decisionRecorder } from "./decisionRecorder";
import type { Adapter } from "./evaluation";
import {
  type CheckRequest,
  type CheckResult,
  checkIdentity,
  type IdentityStatusView,
  identityStatus,
  withLookalike,
} from "./identityCheck";
import { normalizedOrReject } from "./identityInput";
import { isValidKeeper, launchReportingEnabled } from "./keeperCredentials";
import { type DecisionSnapshot, type SnapshotRequest, snapshotLoader } from "./recordLoader";
import { type LaunchReport, type LockReport, type LockResult, recordLaunch, recordLock } from "./reporting";
import { lookUpTransaction, type TransactionField, transactionRegistry } from "./transactionCheck";
import {
  type Caller,
  decideLaunch,
  type ValidationAnswer,
  type ValidationDeps,
  type ValidationRequest,
  validationIdentity,
} from "./validation";

export type { ReservationTxView } from "../mirror/reservationTransaction";
export { chainReader } from "./chainReads";
export type { Adapter } from "./evaluation";
export { clearGuardianBlock, GuardianError, placeGuardianBlock } from "./guardian";
export { DISPUTE_ACTION_PREFIX, identitySubject } from "./identityAudit";
export type { CheckRequest, CheckResult, IdentityStatusView } from "./identityCheck";
export { normalizedOrReject } from "./identityInput";
export type { LookalikeAdvisory } from "./lookalikes";
export type { TransactionField } from "./transactionCheck";
export type { Caller, ValidationAnswer, ValidationIdentity, ValidationRequest } from "./validation";

/** What checks on a chain answer from while its mirror is behind: anything but the mirror (`index`). */
export type AdapterWhileBehind = Exclude<Adapter, "index">;

/** A pair as the partner sent it, before folding. */
interface RawPair {
  name: string;
  ticker: string;
}

export interface IdentityService {
  /**
   * The identity check (read-only, holds nothing); it answers even when start-up failed. `partnerId` is the
   * optional key's partner: in the sandbox its own records join the seeded scenarios (null: scenarios only).
   */
  check(
    environment: Environment,
    request: CheckRequest,
    partnerId: string | null,
    admitted?: DecisionSnapshot,
  ): Promise<CheckResult>;
  /**
   * The check's snapshot, read in the statement that finds and counts a sent key, batched with concurrent keyed
   * checks and validations' (admittedSnapshots); `check` takes it as `admitted`. Undefined for a pair that does
   * not fold: `check` answers it.
   */
  checkReadWithKey(environment: Environment, request: CheckRequest): KeyedRead<DecisionSnapshot> | undefined;
  /**
   * The check carrying a reservation transaction (`field` names it as sent): 400 unless `chain` is passed and the
   * hash has that chain's form; then the transaction is looked up and, when it is a final reservation of this
   * identity, mirrored (production only) before the check reads. `reservationTx` says what became of it.
   */
  checkTransaction(
    environment: Environment,
    request: CheckRequest,
    transaction: { field: TransactionField; hash: string },
    partnerId: string | null,
  ): Promise<CheckResult & { reservationTx: ReservationTxView }>;
  /** The identity record and timeline; 404 identity_not_found when the dataset has none. */
  status(environment: Environment, identityKey: string): Promise<IdentityStatusView>;
  /**
   * What checks on `chain` answer from while its mirror is behind: its registry (`chain`), the sandbox's own
   * dataset (`mock`), or nothing that can decide (`unavailable`: recheck_required).
   */
  adapterWhileBehind(environment: Environment, chain: string): AdapterWhileBehind;
  /**
   * A validation's snapshot and the partner of the requested launchpad id, read in the statement that finds and
   * counts its key, as concurrent validations' (admittedSnapshots). Throws the field errors of a pair that does
   * not fold (validationIdentity).
   */
  validationReadWithKey(request: ValidationRequest): KeyedRead<KeyedSnapshot>;
  /**
   * Decides on the snapshot read with the caller's key, signs and records (group commit) one validation; the
   * look-alike advisory rides beside the signed decision, unsigned.
   */
  validate(
    caller: Caller,
    request: ValidationRequest,
    read: KeyedSnapshot | undefined,
  ): Promise<ValidationAnswer>;
  /** Records a launched event; production callers need launch reporting enabled on their key. */
  reportLaunch(
    caller: Caller,
    report: LaunchReport & RawPair,
  ): Promise<{ identityKey: string; chain: string; launchedAt: string; eventId: string }>;
  /** Records a bonding or milestone lock; production callers need a valid keeper credential. */
  reportLock(
    caller: Caller,
    kind: LockResult["kind"],
    keeper: string | undefined,
    report: LockReport & RawPair,
  ): Promise<LockResult>;
}

const nothing = async () => undefined;
const ignore = () => undefined;

/**
 * `readChains` reads the registries of chains whose mirror cannot decide (services/identity/chainReads.ts);
 * `registries` name the registries on-chain launch guards read, for decisions signed for them.
 */
export function identityService(
  data: DataPath,
  signers: ActiveSigners,
  readChains: ChainReader,
  registries?: RegistryCatalogue,
): IdentityService {
  const { pool } = data;
  const admittedSnapshots = admittedSnapshotLoader(pool, data.postgresServer);
  const snapshots = snapshotLoader(pool, data.postgresServer);
  const load = (request: SnapshotRequest) => data.bounded(snapshots(request));
  const validation: ValidationDeps = {
    pool,
    signers,
    recorder: decisionRecorder(pool, data.postgresServer),
    readChains,
    context: data.context,
    guardTarget: (environment, chain) => registries?.[environment].get(chain)?.guardTarget ?? null,
  };
  return {
    async check(environment, request, partnerId, admitted) {
      await data.run(nothing).catch(ignore); // start-up; the check answers regardless
      return checkIdentity(
        admitted === undefined ? load : async () => admitted,
        readChains,
        data.context(environment),
        request,
        partnerId,
      );
    },
    checkReadWithKey(environment, request) {
      let identity: NormalizedIdentity;
      try {
        identity = normalizedOrReject(request.name, request.ticker);
      } catch {
        return undefined;
      }
      let read: DecisionSnapshot | undefined;
      const snapshot = { environment, identity, chain: request.chain ?? null, partnerId: null };
      const lookalike = lookalikeKey(request.name, request.ticker);
      return {
        authenticator: async (attempt) => {
          const answer = await data.bounded(
            admittedSnapshots({ attempt, snapshot: { ...snapshot, lookalikeKey: lookalike } }),
          );
          read = answer.snapshot;
          return answer.authentication;
        },
        result: () => read,
      };
    },
    async checkTransaction(environment, request, transaction, partnerId) {
      await data.run(nothing).catch(ignore); // start-up; the check answers regardless
      const context = data.context(environment);
      let identity: NormalizedIdentity;
      try {
        identity = normalizedOrReject(request.name, request.ticker);
      } catch (error) {
        const lookalike = lookalikeKey(request.name, request.ticker);
        throw await withLookalike(error, load, context, request, partnerId, lookalike);
      }
      const production = registries?.production;
      transactionRegistry(production, transaction.field, request.chain, transaction.hash);
      const chain = request.chain as string; // transactionRegistry refused a missing one
      const reservationTx = await lookUpTransaction(
        pool,
        production,
        environment,
        identity,
        chain,
        transaction.hash,
      );
      const result = await checkIdentity(load, readChains, context, request, partnerId);
      return { ...result, reservationTx };
    },
    status(environment, identityKey) {
      const context = data.context(environment);
      return data.run(() => identityStatus(pool, load, context, identityKey));
    },
    adapterWhileBehind(environment, chain) {
      // The sandbox's dataset is always current: its answers never wait for a mirror.
      if (environment === "sandbox") return "mock";
      return readChains.reads(chain) ? "chain" : "unavailable";
    },
    validationReadWithKey(request) {
      const identity = validationIdentity(request);
      const read = snapshotReadWithKey(admittedSnapshots, identity, request.chain, request.launchpad);
      // Waits for start-up, within the data path's bound, as every decision's reads.
      return { ...read, authenticator: (attempt) => data.run(() => read.authenticator(attempt)) };
    },
    validate(caller, request, read) {
      const { identity, snapshot } = admittedSnapshotOf(caller, read);
      return data.run(() => decideLaunch(validation, caller, request, identity, snapshot));
    },
    async reportLaunch(caller, report) {
      const context = data.context(caller.environment);
      const identity = normalizedOrReject(report.name, report.ticker);
      assertNotSandboxScenario(caller.environment, identity.identityKey);
      return data.run(async () => {
        if (caller.environment === "production" && !(await launchReportingEnabled(pool, caller.keyId))) {
          throw new ApiError("launch_reporting_restricted", undefined, { keyId: caller.keyId });
        }
        return recordLaunch(pool, context, caller, identity, report);
      });
    },
    async reportLock(caller, kind, keeper, report) {
      const context = data.context(caller.environment);
      const identity = normalizedOrReject(report.name, report.ticker);
      assertNotSandboxScenario(caller.environment, identity.identityKey);
      return data.run(async () => {
        if (caller.environment === "production" && !(await isValidKeeper(pool, keeper, caller.partnerId))) {
          throw new ApiError("keeper_required", undefined, { header: "X-Service-Keeper" });
        }
        return recordLock(pool, context, caller, identity, kind, report);
      });
    },
  };
}
