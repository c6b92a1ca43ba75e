// Driving a LiteSVM (litesvm >= 1, @solana/kit inside) with @solana/web3.js: programs written into its accounts as
// the upgradeable loader leaves them, and legacy transactions signed, executed and checked.
import { address, getTransactionDecoder, lamports } from "@solana/kit";
import { type Keypair, type PublicKey, Transaction, type TransactionInstruction } from "@solana/web3.js";
import { FailedTransactionMetadata, type LiteSVM, type TransactionMetadata } from "litesvm";
import { SdkError } from "../errors";
import { concatBytes, u8, u32, u64 } from "../onchainGuard/borsh";
import { BPF_LOADER_UPGRADEABLE, programDataAddress } from "./upgradeableLoader";

/** A transaction the test cluster refused, with the runtime's logs (the program's error is in them). */
export class TestTransactionError extends SdkError {
  constructor(
    readonly logs: string[],
    reason: string,
  ) {
    super(`The transaction failed: ${reason}\n${logs.join("\n")}`);
  }
}

function writeAccount(svm: LiteSVM, key: PublicKey, data: Uint8Array, executable: boolean): void {
  svm.setAccount({
    address: address(key.toBase58()),
    data,
    executable,
    lamports: lamports(svm.minimumBalanceForRentExemption(BigInt(data.length))),
    programAddress: address(BPF_LOADER_UPGRADEABLE.toBase58()),
    space: BigInt(data.length),
  });
}

/**
 * `elf` deployed at `programId` with `authority` as its upgrade authority (the programs' initialize requires it),
 * as the loader's bincode state: ProgramData (tag 3, slot, Some(authority), the ELF), then the Program (tag 2, its
 * ProgramData's address), which LiteSVM loads from the ProgramData already there.
 */
export function deployUpgradeable(
  svm: LiteSVM,
  programId: PublicKey,
  elf: Uint8Array,
  authority: PublicKey,
): void {
  const programData = programDataAddress(programId);
  const slot = svm.getClock().slot;
  writeAccount(svm, programData, concatBytes(u32(3), u64(slot), u8(1), authority.toBytes(), elf), false);
  writeAccount(svm, programId, concatBytes(u32(2), programData.toBytes()), true);
}

/** Funds `key` from LiteSVM's faucet. */
export function airdrop(svm: LiteSVM, key: PublicKey, amount: bigint): void {
  const result = svm.airdrop(address(key.toBase58()), lamports(amount));
  if (result === null || result instanceof FailedTransactionMetadata) {
    throw new SdkError(`LiteSVM's faucet could not pay ${amount} lamports to ${key.toBase58()}.`);
  }
}

/** Signs `instructions` (the first signer pays), executes them, and throws TestTransactionError when they fail. */
export function sendInstructions(
  svm: LiteSVM,
  instructions: TransactionInstruction[],
  [payer, ...others]: [Keypair, ...Keypair[]],
): TransactionMetadata {
  const transaction = new Transaction().add(...instructions);
  transaction.feePayer = payer.publicKey;
  transaction.recentBlockhash = svm.latestBlockhash();
  transaction.sign(payer, ...others.filter((signer) => !signer.publicKey.equals(payer.publicKey)));
  const result = svm.sendTransaction(getTransactionDecoder().decode(transaction.serialize()));
  if (result instanceof FailedTransactionMetadata) {
    throw new TestTransactionError(result.meta().logs(), String(result.toString()));
  }
  // A later identical transaction (same signers and data) would otherwise be refused as already processed.
  svm.expireBlockhash();
  return result;
}
