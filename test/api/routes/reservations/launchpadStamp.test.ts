// The embed settle's stamp on the identity index: a settled embed reservation's row in GET
// /v1/protected-identities names its launchpad; an unsettled one does not.
import { expect } from "chai";
import { transition } from "../../../../services/reservations/store";
import { EVM_LAUNCHER, mirrorHold, prepare } from "../../../services/reservations/support";
import { startTestApi, type TestApi } from "../../support/harness";

describe("api: the launchpad stamp on the protected-identity list", () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi();
  });
  after(async () => api?.close());

  it("shows the settling launchpad on the on-chain reservation's row, and nothing before settle", async () => {
    const now = new Date();
    const reservation = await prepare(api.db.pool, {
      name: "Stamped Pad",
      ticker: "STMP",
      launcher: EVM_LAUNCHER,
      preparedAt: now,
      launchpad: "moonpad",
    });
    await mirrorHold(api.db.pool, reservation, {
      launcher: EVM_LAUNCHER,
      reservedAt: now,
      expiresAt: new Date(now.getTime() + 86_400_000),
      durationSeconds: 86_400,
      feePaid: 1n,
      partnerRef: reservation.partnerRef,
      txHash: `0x${"ef".repeat(32)}`,
    });
    const launchpadOfRow = async () => {
      const response = await api.call({ path: "/api/v1/protected-identities?q=STAMPED" });
      const rows = (response.body as { rows: { identityKey: string; launchpad: string | null }[] }).rows;
      return rows.find((row) => row.identityKey === "STAMPEDPAD::STMP")?.launchpad;
    };
    expect(await launchpadOfRow()).to.equal(null);
    await transition(api.db.pool, reservation.reservationId, "pending_payment", "confirmed", {
      settled_at: now,
    });
    expect(await launchpadOfRow()).to.equal("moonpad");
  });
});
