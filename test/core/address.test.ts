// The one address-equality rule (core/address/equality.ts): EVM hex compares without case, Solana base58
// exactly, and the two families never meet. The SQL rendering must answer as the TypeScript one does.
import { expect } from "chai";
import {
  addressKey,
  onChainKey,
  sameAddress,
  sameOnChain,
  sameOnChainSql,
} from "../../core/address/equality";
import type { ChainFamily } from "../../core/status";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";

const EVM_CHECKSUMMED = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const EVM_LOWER = EVM_CHECKSUMMED.toLowerCase();
const SOLANA_KEY = "D77Vtu5A72TQBoQ6P7T7XamMHB3p4NM2rHkhLLMfo3Zc";
/** The same letters as SOLANA_KEY with one letter's case flipped: another valid base58 key. */
const SOLANA_OTHER_CASE = "d77Vtu5A72TQBoQ6P7T7XamMHB3p4NM2rHkhLLMfo3Zc";
const EVM_HASH = `0x${"aB".repeat(32)}`;

/** [family, a, b, same?] */
const CASES: readonly [ChainFamily, string, string, boolean][] = [
  ["evm", EVM_CHECKSUMMED, EVM_LOWER, true],
  ["evm", EVM_CHECKSUMMED, EVM_CHECKSUMMED.toUpperCase().replace("0X", "0x"), true],
  ["evm", EVM_HASH, EVM_HASH.toLowerCase(), true],
  ["evm", EVM_LOWER, `0x${"1".repeat(40)}`, false],
  ["solana", SOLANA_KEY, SOLANA_KEY, true],
  ["solana", SOLANA_KEY, SOLANA_OTHER_CASE, false],
  ["solana", SOLANA_KEY, SOLANA_KEY.toLowerCase(), false],
  ["evm", EVM_LOWER, SOLANA_KEY, false],
  ["solana", EVM_LOWER, SOLANA_KEY, false],
];

describe("core/address: one equality rule", () => {
  it("EVM addresses and hashes are equal whatever their case", () => {
    expect(sameOnChain("evm", EVM_CHECKSUMMED, EVM_LOWER)).to.equal(true);
    expect(sameAddress(EVM_CHECKSUMMED, EVM_LOWER)).to.equal(true);
    expect(onChainKey("evm", EVM_CHECKSUMMED)).to.equal(EVM_LOWER);
    expect(addressKey(EVM_CHECKSUMMED)).to.equal(EVM_LOWER);
  });

  it("Solana keys are case-sensitive", () => {
    expect(sameOnChain("solana", SOLANA_KEY, SOLANA_OTHER_CASE)).to.equal(false);
    expect(sameAddress(SOLANA_KEY, SOLANA_OTHER_CASE)).to.equal(false);
    expect(sameAddress(SOLANA_KEY, SOLANA_KEY)).to.equal(true);
    expect(onChainKey("solana", SOLANA_KEY)).to.equal(SOLANA_KEY);
    expect(addressKey(SOLANA_KEY)).to.equal(SOLANA_KEY);
  });

  it("an EVM address never equals a Solana key, under either family's rule", () => {
    for (const family of ["evm", "solana"] as const) {
      expect(sameOnChain(family, EVM_LOWER, SOLANA_KEY)).to.equal(false);
    }
    expect(sameAddress(EVM_CHECKSUMMED, SOLANA_KEY)).to.equal(false);
    expect(sameAddress(SOLANA_KEY, EVM_LOWER)).to.equal(false);
  });

  it("sameOnChain answers every case as expected", () => {
    for (const [family, a, b, same] of CASES) {
      expect(sameOnChain(family, a, b), `${family}: ${a} vs ${b}`).to.equal(same);
    }
  });

  describe("in SQL (sameOnChainSql)", () => {
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase();
    });
    after(async () => {
      await database?.close();
    });

    it("answers every case as sameOnChain does", async () => {
      const sql = `SELECT ${sameOnChainSql("$1::text", "$2::text", "$3::text")} AS same`;
      for (const [family, a, b, same] of CASES) {
        const { rows } = await database.pool.query<{ same: boolean }>(sql, [family, a, b]);
        expect(rows[0]?.same, `${family}: ${a} vs ${b}`).to.equal(same);
      }
    });
  });
});
