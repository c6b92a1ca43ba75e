/* Custom errors, numbered from 6000 like Anchor's `#[error_code]`; the IDL lists the same codes.
 * Each failure is logged as Anchor logs it, so Anchor clients decode it into an AnchorError. A failure inside the
 * registry's assert_launch_allowed (LaunchRefused, InvalidPda, InvalidAccount, BadLength) fails the whole
 * transaction with the registry's own code and log line: a caller cannot catch a failed CPI. */
#ifndef ERRORS_H
#define ERRORS_H
#include "sol.h"

#define LAUNCHPAD_ERRORS(X)                                                                                     \
  X(6000, InvalidInstruction, "Unknown instruction or malformed instruction data")                             \
  X(6001, NotEnoughAccounts, "Instruction needs more accounts than were passed")                               \
  X(6002, DuplicateAccount, "The same account was passed in two positions")                                    \
  X(6003, MissingSigner, "A required signature is missing")                                                   \
  X(6004, AccountNotWritable, "Account must be writable in this position")                                    \
  X(6005, InvalidAccount, "Account has the wrong owner, type or size for this position")                      \
  X(6006, InvalidPda, "Account address is not the expected program-derived address")                           \
  X(6007, InvalidProgramId, "Program account is not the expected program (registry, System Program or loader)") \
  X(6008, Unauthorized, "Signer is not the program's upgrade authority")                                       \
  X(6009, AlreadyInitialized, "Launchpad config already exists")                                               \
  X(6010, InvalidConfig, "Registry program and cluster must be non-zero, and the registry another program")   \
  X(6011, InvalidInstructionsSysvar, "Account is not the instructions sysvar")                                 \
  X(6012, NotTopLevel, "launch must be a top-level instruction of the transaction, not a cross-program call") \
  X(6013, DecisionMissing, "The instruction before launch must be the Ed25519 signature verification")         \
  X(6014, DecisionMalformed,                                                                                   \
    "The Ed25519 instruction must hold exactly one signature over a 265-byte message, all in its own data at "  \
    "the standard offsets")                                                                                    \
  X(6015, DecisionMismatch, "The signed decision is not for this launch (cluster, programs, pair, launcher, "   \
                            "mint, expiry or nonce)")                                                          \
  X(6016, DecisionBlocked, "The signed decision blocks this launch")                                          \
  X(6017, DecisionExpired, "The signed decision has expired")                                                 \
  X(6018, UntrustedSigner, "The decision's signer is not a registry decision signer valid now")               \
  X(6019, RegistryAnswerInvalid, "assert_launch_allowed returned no valid answer from the registry program")   \
  X(6020, RentUnavailable, "The rent sysvar has an exemption threshold this program does not know")

enum LaunchpadError {
#define AS_ENUM(code, name, message) ERR_##name = code,
  LAUNCHPAD_ERRORS(AS_ENUM)
#undef AS_ENUM
};

/* Logs the Anchor-style error line and returns the code as the program result (Custom(code)). */
u64 fail(enum LaunchpadError error);

#endif
