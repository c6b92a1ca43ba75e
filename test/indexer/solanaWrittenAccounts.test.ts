// Which accounts the Solana indexer reads after a transaction: the writable keys of its message (static, by the
// header's counts, and loaded from address tables), none for a failed one; and per account the newest writer.
import { expect } from "chai";
import { type LandedTransaction, lastWriters, writtenAccounts } from "../../indexer/solana/writtenAccounts";

/** A landed transaction with static keys `[s1 (w), s2 (r), u1 (w), u2 (w), u3 (r)]`: 2 signers, 1 read-only each. */
function landed(meta: LandedTransaction["meta"]): LandedTransaction {
  return {
    slot: 7,
    blockTime: null,
    transaction: {
      message: {
        accountKeys: ["s1", "s2", "u1", "u2", "u3"],
        header: { numRequiredSignatures: 2, numReadonlySignedAccounts: 1, numReadonlyUnsignedAccounts: 1 },
      },
    },
    meta,
  };
}

describe("Solana indexer: accounts a transaction wrote", () => {
  it("takes the writable signers and writable non-signers of the static keys, never the read-only ones", () => {
    expect(writtenAccounts(landed({ err: null }))).to.deep.equal(["s1", "u1", "u2"]);
  });

  it("adds the writable addresses a v0 transaction loaded from address tables, not the read-only ones", () => {
    const tx = landed({ err: null, loadedAddresses: { writable: ["t1"], readonly: ["t2"] } });
    expect(writtenAccounts(tx)).to.deep.equal(["s1", "u1", "u2", "t1"]);
  });

  it("takes nothing from a failed transaction or one without meta", () => {
    expect(writtenAccounts(landed({ err: { InstructionError: [0, { Custom: 6006 }] } }))).to.deep.equal([]);
    expect(writtenAccounts(landed(null))).to.deep.equal([]);
  });

  it("names, for each account, the newest transaction of the batch that wrote it", () => {
    const writers = lastWriters([
      { signature: "a", slot: 1, written: ["x", "y"] },
      { signature: "b", slot: 2, written: ["y"] },
      { signature: "c", slot: 2, written: ["z", "x"] },
    ]);
    expect(Object.fromEntries(writers)).to.deep.equal({
      x: { signature: "c", slot: 2 },
      y: { signature: "b", slot: 2 },
      z: { signature: "c", slot: 2 },
    });
  });
});
