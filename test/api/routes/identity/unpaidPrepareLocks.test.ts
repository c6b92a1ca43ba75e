// A prepare protects nothing (spec: only a reservation confirmed from chain state does), so it never makes a lock
// long: a partner that prepares for its own launcher, never pays, and reports the launch and the bond while the
// prepare lives gets the unreserved lengths. Another wallet's live prepare only defers a lock until it lapses (a
// creator may be paying). Over real HTTP; production's chain holds nothing and is never paid (its registry quotes
// and builds transactions offline), the sandbox's is simulated.
import { expect } from "chai";
import { registryCatalogue } from "../../../../chains/catalogue";
import type { RegistryClient } from "../../../../chains/registryClient";
import { PREPARE_TTL_SECONDS } from "../../../../core/reservation";
import { issueKeeperCredential, setLaunchReporting } from "../../../../services/identity/keeperCredentials";
import { bindLaunchpad } from "../../../../services/partners/launchpads";
import {
  bearer,
  expectEnvelope,
  issueKey,
  startTestApi,
  TEST_HOSTS,
  type TestApi,
} from "../../support/harness";
import { offlineManifest } from "../../support/offlineManifest";
import { CHAINS, EVM_OTHER, EVM_OWNER, setCheckpoints } from "./support";

const OPERATOR = { actor: "test-operator", reason: "test" };
const HOUR = 3_600;
const DAY = 24 * HOUR;
const CREATOR = EVM_OWNER;
const LAUNCHER = EVM_OTHER;
const HOSTS = { production: TEST_HOSTS.production[0], sandbox: TEST_HOSTS.sandbox[0] } as const;

/** Production's registry of a chain nobody pays on: it holds nothing and builds its transactions offline. */
function unpaidChain(): RegistryClient {
  const offline = registryCatalogue(offlineManifest()).sandbox.get("hardhat") as RegistryClient;
  return {
    chain: offline.chain,
    family: offline.family,
    simulated: false,
    guardTarget: null,
    quote: (durationSeconds) => offline.quote(durationSeconds),
    reservationOf: async () => null,
    activeReservationCount: async () => 0,
    prepareTransaction: (request) => offline.prepareTransaction(request),
    commitmentOf: async () => null,
    stepOf: async () => null,
    transactionOutcome: async () => ({ state: "not_found" }),
    settlementOf: async () => null,
    isTransactionHash: (value) => offline.isTransactionHash(value),
  };
}

describe("api: a prepare never lengthens a lock", function () {
  this.timeout(60_000);
  let api: TestApi;
  const partners = {} as Record<keyof typeof HOSTS, { secret: string; launchpad: string; keeper?: string }>;

  before(async () => {
    api = await startTestApi({
      deps: {
        decisions: { chains: CHAINS, freshnessBoundSeconds: 10 * 365 * DAY },
        registries: {
          production: new Map([["hardhat", unpaidChain()]]),
          sandbox: registryCatalogue(offlineManifest()).sandbox,
        },
      },
    });
    await setCheckpoints(api.db.pool);
    const live = await issueKey(api, "production");
    await setLaunchReporting(api.db.pool, live.keyId, true, OPERATOR);
    await bindLaunchpad(api.db.pool, "pad", live.partnerId, OPERATOR);
    const keeper = (await issueKeeperCredential(api.db.pool, live.partnerId, "watcher", OPERATOR)).credential;
    partners.production = { secret: live.secret, launchpad: "pad", keeper };
    // A sandbox partner claims its launchpad id by using it.
    partners.sandbox = { secret: (await issueKey(api, "sandbox")).secret, launchpad: "sandpad" };
  });
  after(async () => api.close());
  afterEach(() => api.clock.unpin());

  const post = (environment: keyof typeof HOSTS, path: string, body: object) => {
    const { secret, keeper } = partners[environment];
    return api.call({
      method: "POST",
      path: `/api/v1/${path}`,
      host: HOSTS[environment],
      headers: { ...bearer(secret), ...(keeper ? { "x-service-keeper": keeper } : {}) },
      body,
    });
  };
  const pairOf = (name: string) => ({ chain: "hardhat", name, ticker: "UNPD" });
  const reportOf = (environment: keyof typeof HOSTS, name: string) => ({
    ...pairOf(name),
    launchpad: partners[environment].launchpad,
  });
  const prepare = async (environment: keyof typeof HOSTS, name: string, launcher: string) => {
    const response = await post(environment, "reservations/prepare", {
      ...pairOf(name),
      launcher,
      durationSeconds: 30 * DAY,
    });
    expect(response.status, response.text).to.equal(201);
    return response.body as { status: string; lapsesAt: string };
  };
  const reportLaunch = async (environment: keyof typeof HOSTS, name: string, launcher: string) => {
    const response = await post(environment, "launches/report", {
      ...reportOf(environment, name),
      launcher,
      tokenOrMint: `0x${"ab".repeat(20)}`,
    });
    expect(response.status, response.text).to.equal(200);
  };
  const lockEvent = (environment: keyof typeof HOSTS, kind: "bonded" | "milestone", name: string) =>
    post(environment, `events/${kind}`, reportOf(environment, name));

  for (const environment of ["production", "sandbox"] as const) {
    it(`${environment}: a prepare of the launcher itself, never paid, earns the unreserved 48 hours bonded and 7 days milestone`, async () => {
      const name = `Unpaid Own ${environment}`;
      expect((await prepare(environment, name, CREATOR)).status).to.equal("pending_payment");
      await reportLaunch(environment, name, CREATOR);
      const bonded = await lockEvent(environment, "bonded", name);
      expect(bonded.status, bonded.text).to.equal(200);
      expect(bonded.body).to.include({ wasReserved: false, lockSeconds: 48 * HOUR });
      const milestone = await lockEvent(environment, "milestone", name);
      expect(milestone.status, milestone.text).to.equal(200);
      expect(milestone.body).to.include({ wasReserved: false, lockSeconds: 7 * DAY });
      const claimed = await post(environment, "events/bonded", {
        ...reportOf(environment, name),
        wasReserved: true,
      });
      expectEnvelope(claimed, 409, "reservation_state_mismatch");
      const { rows } = await api.db.pool.query<{ was_reserved: boolean; seconds: number }>(
        `SELECT was_reserved, extract(epoch FROM expires_at - applied_at)::int AS seconds FROM identity_locks
          WHERE environment = $1 AND identity_key = 'UNPAIDOWN${environment.toUpperCase()}::UNPD' ORDER BY id`,
        [environment],
      );
      expect(rows).to.deep.equal([
        { was_reserved: false, seconds: 48 * HOUR },
        { was_reserved: false, seconds: 7 * DAY },
      ]);
    });
  }

  it("another wallet's live prepare defers the lock until it lapses unpaid, then the lock is the unreserved one", async () => {
    const name = "Paying Creator";
    await reportLaunch("production", name, LAUNCHER);
    const { lapsesAt } = await prepare("production", name, CREATOR);
    expect(Date.parse(lapsesAt) - Date.now()).to.be.at.most(PREPARE_TTL_SECONDS * 1000);
    const deferred = await lockEvent("production", "bonded", name);
    expectEnvelope(deferred, 409, "identity_held");
    const details = (deferred.body as { error: { details: Record<string, string> } }).error.details;
    expect(details).to.include({ reason: "reservation_payment_pending", holdExpiresAt: lapsesAt });
    expect(details.holder?.toLowerCase()).to.equal(CREATOR.toLowerCase());

    api.clock.set(Date.parse(lapsesAt));
    const locked = await lockEvent("production", "bonded", name);
    expect(locked.status, locked.text).to.equal(200);
    expect(locked.body).to.include({
      authorizedLauncher: LAUNCHER,
      wasReserved: false,
      lockSeconds: 48 * HOUR,
    });
  });
});
