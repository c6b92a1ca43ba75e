// Which accounts a landed transaction wrote, from its message alone. The mirror reads those accounts instead of
// trusting the program's events: an event emitted inside a cross-program invocation or past the runtime's log
// limit never reaches a log decoder, but the account it describes is always among the transaction's keys.

/** getTransaction's answer (json encoding, maxSupportedTransactionVersion 0): the parts the indexer reads. */
export interface LandedTransaction {
  slot: number;
  blockTime: number | null;
  transaction: {
    message: {
      accountKeys: string[];
      header: {
        numRequiredSignatures: number;
        numReadonlySignedAccounts: number;
        numReadonlyUnsignedAccounts: number;
      };
    };
  };
  meta: { err: unknown; loadedAddresses?: { writable: string[]; readonly: string[] } | null } | null;
}

/** A transaction applied to the mirror: its signature and slot. */
export interface AppliedTransaction {
  signature: string;
  slot: number;
}

/**
 * The accounts a transaction wrote: its writable keys, static and loaded from address tables (v0). None for a
 * failed transaction, which changes nothing but its fee payer's balance.
 */
export function writtenAccounts(tx: LandedTransaction): string[] {
  if (tx.meta === null || tx.meta.err) return [];
  const { accountKeys, header } = tx.transaction.message;
  // Static keys are ordered: writable signers, read-only signers, writable non-signers, read-only non-signers.
  const writableSigners = accountKeys.slice(
    0,
    header.numRequiredSignatures - header.numReadonlySignedAccounts,
  );
  const writableOthers = accountKeys.slice(
    header.numRequiredSignatures,
    accountKeys.length - header.numReadonlyUnsignedAccounts,
  );
  return [...writableSigners, ...writableOthers, ...(tx.meta.loadedAddresses?.writable ?? [])];
}

/**
 * Every account the transactions (oldest first) wrote, with the newest of them that wrote it: read after all of
 * them, an account shows that transaction's state (or a later one's), so it is the state's transaction.
 */
export function lastWriters(
  txs: readonly (AppliedTransaction & { written: readonly string[] })[],
): Map<string, AppliedTransaction> {
  const writers = new Map<string, AppliedTransaction>();
  for (const { signature, slot, written } of txs) {
    for (const address of written) writers.set(address, { signature, slot });
  }
  return writers;
}
