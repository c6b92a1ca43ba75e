// Converts litesvm's transaction errors into the JSON shape and the display text of Agave's
// `TransactionError`, which is what web3.js, Anchor and indexers parse.
import type { FailedTransactionMetadata } from "litesvm";
import {
  InstructionErrorCustom,
  TransactionErrorDuplicateInstruction,
  TransactionErrorInstructionError,
  TransactionErrorInsufficientFundsForRent,
  TransactionErrorProgramExecutionTemporarilyRestricted,
} from "litesvm/dist/internal";

export type TransactionErrorJson = string | Record<string, unknown>;

// Order follows litesvm's `TransactionErrorFieldless` numbering.
const TRANSACTION_ERRORS = [
  "AccountInUse",
  "AccountLoadedTwice",
  "AccountNotFound",
  "ProgramAccountNotFound",
  "InsufficientFundsForFee",
  "InvalidAccountForFee",
  "AlreadyProcessed",
  "BlockhashNotFound",
  "CallChainTooDeep",
  "MissingSignatureForFee",
  "InvalidAccountIndex",
  "SignatureFailure",
  "InvalidProgramForExecution",
  "SanitizeFailure",
  "ClusterMaintenance",
  "AccountBorrowOutstanding",
  "WouldExceedMaxBlockCostLimit",
  "UnsupportedVersion",
  "InvalidWritableAccount",
  "WouldExceedMaxAccountCostLimit",
  "WouldExceedAccountDataBlockLimit",
  "TooManyAccountLocks",
  "AddressLookupTableNotFound",
  "InvalidAddressLookupTableOwner",
  "InvalidAddressLookupTableData",
  "InvalidAddressLookupTableIndex",
  "InvalidRentPayingAccount",
  "WouldExceedMaxVoteCostLimit",
  "WouldExceedAccountDataTotalLimit",
  "MaxLoadedAccountsDataSizeExceeded",
  "ResanitizationNeeded",
  "InvalidLoadedAccountsDataSizeLimit",
  "UnbalancedTransaction",
  "ProgramCacheHitMaxLimit",
  "CommitCancelled",
] as const;

// Order follows litesvm's `InstructionErrorFieldless` numbering.
const INSTRUCTION_ERRORS = [
  "GenericError",
  "InvalidArgument",
  "InvalidInstructionData",
  "InvalidAccountData",
  "AccountDataTooSmall",
  "InsufficientFunds",
  "IncorrectProgramId",
  "MissingRequiredSignature",
  "AccountAlreadyInitialized",
  "UninitializedAccount",
  "UnbalancedInstruction",
  "ModifiedProgramId",
  "ExternalAccountLamportSpend",
  "ExternalAccountDataModified",
  "ReadonlyLamportChange",
  "ReadonlyDataModified",
  "DuplicateAccountIndex",
  "ExecutableModified",
  "RentEpochModified",
  "NotEnoughAccountKeys",
  "AccountDataSizeChanged",
  "AccountNotExecutable",
  "AccountBorrowFailed",
  "AccountBorrowOutstanding",
  "DuplicateAccountOutOfSync",
  "InvalidError",
  "ExecutableDataModified",
  "ExecutableLamportChange",
  "ExecutableAccountNotRentExempt",
  "UnsupportedProgramId",
  "CallDepth",
  "MissingAccount",
  "ReentrancyNotAllowed",
  "MaxSeedLengthExceeded",
  "InvalidSeeds",
  "InvalidRealloc",
  "ComputationalBudgetExceeded",
  "PrivilegeEscalation",
  "ProgramEnvironmentSetupFailure",
  "ProgramFailedToComplete",
  "ProgramFailedToCompile",
  "Immutable",
  "IncorrectAuthority",
  "AccountNotRentExempt",
  "InvalidAccountOwner",
  "ArithmeticOverflow",
  "UnsupportedSysvar",
  "IllegalOwner",
  "MaxAccountsDataAllocationsExceeded",
  "MaxAccountsExceeded",
  "MaxInstructionTraceLengthExceeded",
  "BuiltinProgramsMustConsumeComputeUnits",
  "BorshIoError",
] as const;

// Agave's Display texts for the errors a client of this project is likely to meet.
const TRANSACTION_ERROR_TEXT: Record<string, string> = {
  AccountNotFound: "Attempt to debit an account but found no record of a prior credit.",
  AlreadyProcessed: "This transaction has already been processed",
  BlockhashNotFound: "Blockhash not found",
  InsufficientFundsForFee: "Insufficient funds for fee",
  ProgramAccountNotFound: "Attempt to load a program that does not exist",
  SignatureFailure: "Transaction did not pass signature verification",
  SanitizeFailure: "Transaction failed to sanitize accounts offsets correctly",
  MissingSignatureForFee: "Transaction requires a fee but has no signature present",
  InvalidAccountForFee: "This account may not be used to pay transaction fees",
};

const INSTRUCTION_ERROR_TEXT: Record<string, string> = {
  GenericError: "generic instruction error",
  InvalidArgument: "invalid program argument",
  InvalidInstructionData: "invalid instruction data",
  InvalidAccountData: "invalid account data for instruction",
  AccountDataTooSmall: "account data too small for instruction",
  InsufficientFunds: "insufficient funds for instruction",
  IncorrectProgramId: "incorrect program id for instruction",
  MissingRequiredSignature: "missing required signature for instruction",
  AccountAlreadyInitialized: "instruction requires an uninitialized account",
  UninitializedAccount: "instruction requires an initialized account",
  ComputationalBudgetExceeded: "Computational budget exceeded",
  ProgramFailedToComplete: "Program failed to complete",
  InvalidSeeds: "Provided seeds do not result in a valid address",
  AccountNotExecutable: "instruction expected an executable account",
  InvalidAccountOwner: "Invalid account owner",
  ArithmeticOverflow: "Program arithmetic overflowed",
};

type LiteSvmTransactionError = ReturnType<FailedTransactionMetadata["err"]>;

function instructionErrorJson(
  error: ReturnType<TransactionErrorInstructionError["err"]>,
): TransactionErrorJson {
  if (error instanceof InstructionErrorCustom) return { Custom: error.code };
  if (typeof error === "number") return INSTRUCTION_ERRORS[error] ?? "GenericError";
  return "BorshIoError";
}

/** The JSON form of a transaction error, as in `meta.err` and preflight `data.err`. */
export function transactionErrorJson(error: LiteSvmTransactionError): TransactionErrorJson {
  if (error instanceof TransactionErrorInstructionError) {
    return { InstructionError: [error.index, instructionErrorJson(error.err())] };
  }
  if (error instanceof TransactionErrorDuplicateInstruction) return { DuplicateInstruction: error.index };
  if (error instanceof TransactionErrorInsufficientFundsForRent) {
    return { InsufficientFundsForRent: { account_index: error.accountIndex } };
  }
  if (error instanceof TransactionErrorProgramExecutionTemporarilyRestricted) {
    return { ProgramExecutionTemporarilyRestricted: { account_index: error.accountIndex } };
  }
  return TRANSACTION_ERRORS[error as number] ?? "ClusterMaintenance";
}

function instructionErrorText(error: TransactionErrorJson): string {
  if (typeof error === "string") return INSTRUCTION_ERROR_TEXT[error] ?? error;
  const custom = error.Custom;
  if (typeof custom === "number") return `custom program error: 0x${custom.toString(16)}`;
  return JSON.stringify(error);
}

/** Agave's human-readable text for a transaction error, used in RPC error messages. */
export function transactionErrorText(error: TransactionErrorJson): string {
  if (typeof error === "string") return TRANSACTION_ERROR_TEXT[error] ?? error;
  const instruction = error.InstructionError;
  if (Array.isArray(instruction)) {
    return `Error processing Instruction ${instruction[0]}: ${instructionErrorText(instruction[1] as TransactionErrorJson)}`;
  }
  if ("InsufficientFundsForRent" in error) {
    const { account_index } = error.InsufficientFundsForRent as { account_index: number };
    return `Transaction results in an account (${account_index}) with insufficient funds for rent`;
  }
  return JSON.stringify(error);
}
