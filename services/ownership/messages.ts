// The texts a wallet signs to prove it is a partner's: EVM an EIP-4361 Sign-In-With-Ethereum message (built and
// parsed by viem/siwe), Solana the same layout for a Solana account (Sign-In-With-Solana style). A signed
// message names its family in its first line, so parsing alone tells which chain family it claims.
import { createSiweMessage, parseSiweMessage } from "viem/siwe";
import type { ChainFamily } from "../../core/status";

export interface ChallengeFields {
  family: ChainFamily;
  domain: string;
  /** EVM: checksummed 0x address; Solana: base58. */
  address: string;
  statement: string;
  uri: string;
  /** EVM: the chain id; Solana: the chain's name. */
  chainId: number | string;
  nonce: string;
  issuedAt: Date;
  expiresAt: Date;
}

/** What a signed message claims; fields absent from it are undefined. */
export interface ParsedMessage {
  family: ChainFamily;
  domain: string | undefined;
  address: string | undefined;
  nonce: string | undefined;
}

const FAMILY_LINE = /^(\S+) wants you to sign in with your (Ethereum|Solana) account:$/;

function solanaMessage(fields: ChallengeFields): string {
  return [
    `${fields.domain} wants you to sign in with your Solana account:`,
    fields.address,
    "",
    fields.statement,
    "",
    `URI: ${fields.uri}`,
    "Version: 1",
    `Chain ID: ${fields.chainId}`,
    `Nonce: ${fields.nonce}`,
    `Issued At: ${fields.issuedAt.toISOString()}`,
    `Expiration Time: ${fields.expiresAt.toISOString()}`,
  ].join("\n");
}

/** The exact text the challenged wallet signs. */
export function challengeMessage(fields: ChallengeFields): string {
  if (fields.family === "solana") return solanaMessage(fields);
  return createSiweMessage({
    domain: fields.domain,
    address: fields.address as `0x${string}`,
    statement: fields.statement,
    uri: fields.uri,
    version: "1",
    chainId: Number(fields.chainId),
    nonce: fields.nonce,
    issuedAt: fields.issuedAt,
    expirationTime: fields.expiresAt,
  });
}

function solanaField(message: string, name: string): string | undefined {
  const line = message.split("\n").find((candidate) => candidate.startsWith(`${name}: `));
  return line?.slice(name.length + 2);
}

/** The family, domain, address and nonce a message claims; null when it is no sign-in message at all. */
export function parseSignedMessage(message: string): ParsedMessage | null {
  const lines = message.split("\n");
  const head = FAMILY_LINE.exec(lines[0] ?? "");
  if (head === null) return null;
  if (head[2] === "Solana") {
    return {
      family: "solana",
      domain: head[1],
      address: lines[1],
      nonce: solanaField(message, "Nonce"),
    };
  }
  const parsed = parseSiweMessage(message);
  return { family: "evm", domain: parsed.domain, address: parsed.address, nonce: parsed.nonce };
}
