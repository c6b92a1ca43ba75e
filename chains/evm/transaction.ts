// The transactions a creator signs on the EVM registry, built offline: calldata from the committed ABI, the
// launcher as sender. A new reservation is `commit(commitment)` then the paying reveal `reserve(..., secret)`; a
// renewal is one paying `renew`. Paying calls send the quote plus headroom (the registry refunds every wei above
// its fee in the same call). Shared by the real and the simulated client.
import { encodeFunctionData, getAddress } from "viem";
import type { EvmManifestEntry } from "../../config/manifest";
import { identityRegistryAbi } from "../../contracts/abi/identityRegistry";
import { EVM_VALUE_HEADROOM_BPS, MAX_COMMITMENT_AGE_SECONDS } from "../../core/reservation";
import type { EvmTransactionRequest, PreparedSteps, ReserveRequest } from "../registryClient";
import { evmCommitment } from "./commitment";

const BPS = 10_000n;

/** The quote plus EVM_VALUE_HEADROOM_BPS, rounded up. */
export function valueWithHeadroom(amount: bigint): bigint {
  return (amount * (BPS + BigInt(EVM_VALUE_HEADROOM_BPS)) + BPS - 1n) / BPS;
}

type Deployment = Pick<EvmManifestEntry, "chainId" | "registry">;

function call(
  deployment: Deployment,
  launcher: string,
  data: `0x${string}`,
  value: bigint,
): EvmTransactionRequest {
  return {
    family: "evm",
    chainId: deployment.chainId,
    from: getAddress(launcher),
    to: getAddress(deployment.registry),
    data,
    value: value.toString(),
  };
}

/** The renewal, or the commitment and its reveal, for the registry at `deployment`. */
export function registrySteps(
  deployment: Deployment,
  request: ReserveRequest,
  minCommitmentAgeSeconds: number,
): PreparedSteps {
  const { identity, durationSeconds, partnerRef, launcher } = request;
  const value = valueWithHeadroom(request.quote.amount);
  if (request.kind === "renew") {
    const data = encodeFunctionData({
      abi: identityRegistryAbi,
      functionName: "renew",
      args: [identity.nameHash, identity.tickerHash, durationSeconds, partnerRef],
    });
    return { transaction: call(deployment, launcher, data, value), reveal: null };
  }
  if (request.secret === null) throw new TypeError("a new reservation needs the secret its commitment hides");
  const commitment = evmCommitment({
    identity,
    launcher,
    durationSeconds,
    partnerRef,
    secret: request.secret,
  });
  const commit = encodeFunctionData({ abi: identityRegistryAbi, functionName: "commit", args: [commitment] });
  const reveal = encodeFunctionData({
    abi: identityRegistryAbi,
    functionName: "reserve",
    args: [identity.normalizedName, identity.normalizedTicker, durationSeconds, partnerRef, request.secret],
  });
  return {
    transaction: call(deployment, launcher, commit, 0n),
    reveal: {
      transaction: call(deployment, launcher, reveal, value),
      commitment,
      minCommitmentAge: { seconds: minCommitmentAgeSeconds },
      maxCommitmentAgeSeconds: MAX_COMMITMENT_AGE_SECONDS,
    },
  };
}

/** Whether `value` is a transaction hash (0x and 32 bytes of hex). */
export function isTransactionHash(value: string): boolean {
  return /^0x[0-9a-fA-F]{64}$/.test(value);
}
