// The reserve and renew transaction requests for the EVM registry, built offline: calldata from the committed
// ABI, the launcher as sender, and the quote plus headroom as value (the registry refunds every wei above its
// fee in the same call). Shared by the real and the simulated client.
import { encodeFunctionData, getAddress } from "viem";
import type { EvmManifestEntry } from "../../config/manifest";
import { identityRegistryAbi } from "../../contracts/abi/identityRegistry";
import { EVM_VALUE_HEADROOM_BPS } from "../../core/reservation";
import type { EvmTransactionRequest, ReserveRequest } from "../registryClient";

const BPS = 10_000n;

/** The quote plus EVM_VALUE_HEADROOM_BPS, rounded up. */
export function valueWithHeadroom(amount: bigint): bigint {
  return (amount * (BPS + BigInt(EVM_VALUE_HEADROOM_BPS)) + BPS - 1n) / BPS;
}

function calldata(request: ReserveRequest): `0x${string}` {
  const { identity, durationSeconds, partnerRef } = request;
  return request.kind === "renew"
    ? encodeFunctionData({
        abi: identityRegistryAbi,
        functionName: "renew",
        args: [identity.nameHash, identity.tickerHash, durationSeconds, partnerRef],
      })
    : encodeFunctionData({
        abi: identityRegistryAbi,
        functionName: "reserve",
        args: [identity.normalizedName, identity.normalizedTicker, durationSeconds, partnerRef],
      });
}

export function registryTransaction(
  entry: Pick<EvmManifestEntry, "chainId" | "registry">,
  request: ReserveRequest,
): EvmTransactionRequest {
  return {
    family: "evm",
    chainId: entry.chainId,
    from: getAddress(request.launcher),
    to: getAddress(entry.registry),
    data: calldata(request),
    value: valueWithHeadroom(request.quote.amount).toString(),
  };
}

/** Whether `value` is a transaction hash (0x and 32 bytes of hex). */
export function isTransactionHash(value: string): boolean {
  return /^0x[0-9a-fA-F]{64}$/.test(value);
}
