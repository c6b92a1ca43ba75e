// `onchain` answers for a launchpad's own tests, signed exactly as the service signs them (core/decision/onchain):
// the EIP-712 LaunchDecision by a secp256k1 key, the Solana launch decision message by an Ed25519 key. Trust the key
// in the test registry first (setDecisionSigner).
import { signAsync } from "@noble/ed25519";
import { type Keypair, PublicKey } from "@solana/web3.js";
import { type Address, getAddress, type Hex, type LocalAccount, toHex } from "viem";
import type { EvmOnchainDecision, SolanaOnchainDecision } from "../../../core/decision/onchain/answer";
import { launchDecisionTypedData } from "../../../core/decision/onchain/evmLaunchDecision";
import { solanaLaunchDecisionMessage } from "../../../core/decision/onchain/solanaLaunchDecision";
import { encodeBase64 } from "../../../core/encoding/base64";
import { foldV1 } from "../../../core/fold/fold";
import { foldedHash } from "../../../core/fold/hash";
import type { SolanaAddress } from "../onchainGuard/solana";

/** What both chains' decisions say besides where they apply. */
interface TestDecision {
  name: string;
  ticker: string;
  /** Unix seconds. */
  expiresAt: number;
  /** Default "allow". */
  decision?: "allow" | "block";
  /** Default: fresh random bytes (32 on EVM, 16 on Solana). */
  nonce?: Hex;
}

export interface EvmTestDecision extends TestDecision {
  chainId: number;
  /** The registry that trusts the key. */
  registry: string;
  factory: string;
  launcher: string;
  /** predictGuardedToken's answer. */
  token: string;
}

export interface SolanaTestDecision extends TestDecision {
  /** IdentityPrograms' `cluster`. */
  cluster: string;
  registryProgram: SolanaAddress;
  launchpadProgram: SolanaAddress;
  launcher: SolanaAddress;
  mint: SolanaAddress;
}

const randomHex = (bytes: number): Hex => toHex(crypto.getRandomValues(new Uint8Array(bytes)));
const base58 = (key: SolanaAddress) => new PublicKey(key).toBase58();

function pairHashes(decision: TestDecision): { nameHash: Hex; tickerHash: Hex } {
  return { nameHash: foldedHash(foldV1(decision.name)), tickerHash: foldedHash(foldV1(decision.ticker)) };
}

/** The EVM `onchain` of `decision`, signed by `key` (e.g. viem's privateKeyToAccount). */
export async function signEvmTestDecision(
  key: LocalAccount,
  decision: EvmTestDecision,
): Promise<EvmOnchainDecision> {
  const address = (value: string): Address => getAddress(value);
  const fields = {
    chainId: decision.chainId,
    registry: address(decision.registry),
    factory: address(decision.factory),
    ...pairHashes(decision),
    launcher: address(decision.launcher),
    token: address(decision.token),
    decision: decision.decision ?? "allow",
    expiresAt: decision.expiresAt,
    nonce: decision.nonce ?? randomHex(32),
  };
  const signature = await key.signTypedData(launchDecisionTypedData(fields));
  return { kind: "evm", ...fields, keyId: "test-evm-key", signer: key.address, signature };
}

/** The Solana `onchain` of `decision`, signed by `key`. */
export async function signSolanaTestDecision(
  key: Keypair,
  decision: SolanaTestDecision,
): Promise<SolanaOnchainDecision> {
  const fields = {
    cluster: decision.cluster,
    registryProgram: base58(decision.registryProgram),
    launchpadProgram: base58(decision.launchpadProgram),
    ...pairHashes(decision),
    launcher: base58(decision.launcher),
    mint: base58(decision.mint),
    decision: decision.decision ?? "allow",
    expiresAt: decision.expiresAt,
    nonce: decision.nonce ?? randomHex(16),
  };
  const message = solanaLaunchDecisionMessage(fields);
  return {
    kind: "solana",
    ...fields,
    message: encodeBase64(message),
    keyId: "test-solana-key",
    signer: key.publicKey.toBase58(),
    signature: encodeBase64(await signAsync(message, key.secretKey.subarray(0, 32))),
  };
}
