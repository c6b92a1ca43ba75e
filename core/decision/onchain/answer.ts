// What POST /v1/launches/validate answers as `onchain` beside the Ed25519 decision when the request names a
// launchpad contract or program (`onchain: { launchpad, token }`): the same decision, signed for the chain's
// guard (docs/onchain-guard.md). Plain JSON, so a launchpad's backend forwards it to the launcher's wallet.

/** The request's `onchain`: the launchpad on the request's chain and the token it is about to create. */
export interface OnchainDecisionRequest {
  /** EVM: the factory inheriting IdentityGuard (0x address). Solana: the launch program id (base58). */
  launchpad: string;
  /** EVM: the token's CREATE2 address as the factory predicts it. Solana: the mint's public key. */
  token: string;
}

/** The EIP-712 LaunchDecision signed by the environment's secp256k1 decision key (`GET /v1/keys` evmAddress). */
export interface EvmOnchainDecision {
  kind: "evm";
  chainId: number;
  /** The registry whose signer set trusts `signer` (the guard reads it). */
  registry: `0x${string}`;
  /** The EIP-712 verifyingContract: the launchpad factory. */
  factory: `0x${string}`;
  nameHash: `0x${string}`;
  tickerHash: `0x${string}`;
  launcher: `0x${string}`;
  token: `0x${string}`;
  decision: "allow" | "block";
  /** Unix seconds: the launch must be mined before it (the Ed25519 decision's expiresAt). */
  expiresAt: number;
  /** 32 bytes, fresh per decision. */
  nonce: `0x${string}`;
  /** The signing key's kid and its address. */
  keyId: string;
  signer: `0x${string}`;
  /** 65 bytes r || s || v, low s. */
  signature: `0x${string}`;
}

/** The 265-byte Solana launch decision message signed by the environment's Ed25519 decision key. */
export interface SolanaOnchainDecision {
  kind: "solana";
  /** The cluster's genesis hash (base58). */
  cluster: string;
  registryProgram: string;
  launchpadProgram: string;
  nameHash: `0x${string}`;
  tickerHash: `0x${string}`;
  launcher: string;
  mint: string;
  decision: "allow" | "block";
  /** Unix seconds: the launch must land before it. */
  expiresAt: number;
  /** 16 bytes, fresh per decision. */
  nonce: `0x${string}`;
  /** The message the Ed25519 instruction carries (base64 of 265 bytes). */
  message: string;
  keyId: string;
  /** The Ed25519 public key (base58), as in the registry's decision signer set. */
  signer: string;
  /** base64 of the 64-byte Ed25519 signature. */
  signature: string;
}

export type OnchainDecision = EvmOnchainDecision | SolanaOnchainDecision;
