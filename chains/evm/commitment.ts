// The commitment a new EVM reservation reveals, computed exactly as the registry's `makeCommitment`.
import { encodeAbiParameters, getAddress, keccak256, parseAbiParameters } from "viem";
import type { NormalizedIdentity } from "../../core/fold";

const COMMITMENT_FIELDS = parseAbiParameters("bytes32, bytes32, address, uint32, bytes32, bytes32");

export interface CommitmentInput {
  identity: Pick<NormalizedIdentity, "nameHash" | "tickerHash">;
  launcher: string;
  durationSeconds: number;
  partnerRef: `0x${string}`;
  secret: `0x${string}`;
}

/** keccak256(abi.encode(nameHash, tickerHash, launcher, durationSeconds, partnerRef, secret)). */
export function evmCommitment(input: CommitmentInput): `0x${string}` {
  return keccak256(
    encodeAbiParameters(COMMITMENT_FIELDS, [
      input.identity.nameHash,
      input.identity.tickerHash,
      getAddress(input.launcher),
      input.durationSeconds,
      input.partnerRef,
      input.secret,
    ]),
  );
}
