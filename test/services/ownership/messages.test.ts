// The sign-in messages a payout wallet signs: what parsing reads back from each family's message, and how a
// signature's encoding names its family (the wrong-family refusal rests on both).
import { utils } from "@coral-xyz/anchor";
import { Keypair } from "@solana/web3.js";
import { expect } from "chai";
import { parseSiweMessage } from "viem/siwe";
import { challengeMessage, parseSignedMessage } from "../../../services/ownership/messages";
import { signatureFamilyOf } from "../../../services/ownership/signatures";

const fields = {
  domain: "api.example:8787",
  statement: "Prove it.",
  uri: "https://api.example:8787/api/v1/partner/payout-wallets/verify",
  nonce: "0123456789abcdef0123456789abcdef",
  issuedAt: new Date("2026-01-01T00:00:00.000Z"),
  expiresAt: new Date("2026-01-01T00:10:00.000Z"),
};

describe("ownership: sign-in messages", () => {
  it("EVM: an EIP-4361 message that viem's own parser reads back field for field", () => {
    const address = "0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B";
    const message = challengeMessage({ ...fields, family: "evm", address, chainId: 31337 });
    expect(parseSiweMessage(message)).to.deep.include({
      domain: fields.domain,
      address,
      chainId: 31337,
      nonce: fields.nonce,
      version: "1",
      uri: fields.uri,
    });
    expect(parseSignedMessage(message)).to.deep.equal({
      family: "evm",
      domain: fields.domain,
      address,
      nonce: fields.nonce,
    });
  });

  it("Solana: the same layout for a Solana account", () => {
    const address = Keypair.generate().publicKey.toBase58();
    const message = challengeMessage({ ...fields, family: "solana", address, chainId: "solana" });
    expect(message.split("\n").slice(0, 2)).to.deep.equal([
      "api.example:8787 wants you to sign in with your Solana account:",
      address,
    ]);
    expect(message).to.include("Chain ID: solana").and.include("Expiration Time: 2026-01-01T00:10:00.000Z");
    expect(parseSignedMessage(message)).to.deep.equal({
      family: "solana",
      domain: fields.domain,
      address,
      nonce: fields.nonce,
    });
  });

  it("anything else is no sign-in message", () => {
    for (const text of ["", "hello", "x wants you to sign in with your Bitcoin account:\nabc"]) {
      expect(parseSignedMessage(text)).to.equal(null);
    }
  });

  it("a signature's encoding names its family: 0x hex of 64+ bytes EVM, base58 of 64 bytes Solana", () => {
    expect(signatureFamilyOf(`0x${"ab".repeat(65)}`)).to.equal("evm");
    expect(signatureFamilyOf(`0x${"ab".repeat(64)}`)).to.equal("evm");
    expect(signatureFamilyOf(`0x${"ab".repeat(63)}`)).to.equal(null);
    expect(signatureFamilyOf(`0x${"ab".repeat(64)}a`)).to.equal(null);
    expect(signatureFamilyOf(utils.bytes.bs58.encode(new Uint8Array(64).fill(7)))).to.equal("solana");
    expect(signatureFamilyOf(utils.bytes.bs58.encode(new Uint8Array(32).fill(7)))).to.equal(null);
    expect(signatureFamilyOf("not a signature")).to.equal(null);
  });
});
