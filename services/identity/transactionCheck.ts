// The identity check carrying a reservation transaction (`tx` / `reservationTx`): the input rules the hash must
// meet (400s a person can act on), then the lookup and mirror (services/mirror/reservationTransaction.ts) BEFORE
// the check reads, so its answer already reflects a reservation it just mirrored.
import type { Pool } from "pg";
import type { RegistryClient } from "../../chains/registryClient";
import type { Environment } from "../../core/environment";
import { ApiError } from "../../core/errors/catalogue";
import type { NormalizedIdentity } from "../../core/fold";
import { indexReservationTransaction, type ReservationTxView } from "../mirror/reservationTransaction";

export type TransactionField = "tx" | "reservationTx";

function invalidTransaction(field: TransactionField, where: "query" | "body", message: string): ApiError {
  return new ApiError("invalid_request", `${message} See details.issues.`, {
    in: where,
    issues: [{ path: field, message }],
  });
}

/**
 * The chain the hash is on and its registry: `chain` must be passed (a hash alone does not say which chain of a
 * family it is on), be a chain of this service, and the hash must have that chain's form. Throws 400.
 */
export function transactionRegistry(
  registries: ReadonlyMap<string, RegistryClient> | undefined,
  field: TransactionField,
  chain: string | undefined,
  hash: string,
): RegistryClient {
  const where = field === "tx" ? "query" : "body";
  const names = [...(registries?.keys() ?? [])];
  if (chain === undefined) {
    throw invalidTransaction(
      field,
      where,
      `\`${field}\` needs \`chain\`: pass the chain the transaction is on (one of: ${names.join(", ") || "none"}).`,
    );
  }
  const registry = registries?.get(chain);
  if (registry === undefined) {
    throw invalidTransaction(
      field,
      where,
      `\`${field}\` is on chain "${chain}", which has no registry here; use one of: ${names.join(", ") || "none"}.`,
    );
  }
  if (!registry.isTransactionHash(hash)) {
    const form =
      registry.family === "evm"
        ? "an EVM transaction hash: 0x and 64 hex digits"
        : "a Solana transaction signature: 64 bytes in base58 (87-88 characters)";
    throw invalidTransaction(field, where, `\`${field}\` must be ${form}, as ${chain} names it.`);
  }
  return registry;
}

/** Looks the transaction up and mirrors it when it is a final reservation of `identity` (never throws). */
export function lookUpTransaction(
  pool: Pool,
  registries: ReadonlyMap<string, RegistryClient> | undefined,
  environment: Environment,
  identity: NormalizedIdentity,
  chain: string,
  hash: string,
): Promise<ReservationTxView> {
  return indexReservationTransaction(pool, registries, { environment, identity, chain, hash });
}
