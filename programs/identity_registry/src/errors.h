/* Custom errors, numbered from 6000 like Anchor's `#[error_code]`; the IDL lists the same codes.
 * Each failure is logged as Anchor logs it, so Anchor clients decode it into an AnchorError. */
#ifndef ERRORS_H
#define ERRORS_H
#include "sol.h"

#define REGISTRY_ERRORS(X)                                                                                      \
  X(6000, BadLength, "Name must fold to 1-64 characters and ticker to 2-10 characters")                        \
  X(6001, InvalidDuration, "Duration must be 86400, 259200, 604800 or 2592000 seconds")                        \
  X(6002, StalePrice, "Price update is older than the configured maximum age; post a fresh price update")      \
  X(6003, InvalidPrice, "Price must be positive with an exponent between -12 and 0")                           \
  X(6004, PriceAccountMismatch, "Price account is not the configured feed (address, owner, feed id or level)") \
  X(6005, TooManyActiveReservations, "Wallet already holds 3 active reservations; wait for one to expire")     \
  X(6006, AlreadyReserved, "This name and ticker are reserved until the current reservation expires")          \
  X(6007, NotReservationHolder, "Only the wallet that holds the reservation may renew it")                     \
  X(6008, RenewalWindowClosed, "Renewal is only possible in the last 12 hours before expiry")                  \
  X(6009, Unauthorized, "Signer is not the registry admin (or, for initialize, the upgrade authority)")        \
  X(6010, MissingSigner, "A required signature is missing")                                                   \
  X(6011, InvalidAccount, "Account has the wrong owner, type or size for this position")                      \
  X(6012, InvalidPda, "Account address is not the expected program-derived address")                           \
  X(6013, InvalidProgramId, "Program account is not the expected program (System Program or loader)")          \
  X(6014, AlreadyInitialized, "Registry config already exists")                                                \
  X(6015, InvalidInstruction, "Unknown instruction or malformed instruction data")                             \
  X(6016, InvalidConfig,                                                                                      \
    "Config values out of range: tier prices 1..1e12 USD micros, max price age 1..2^31-1 s, min commitment "   \
    "slots 1..1000, max confidence 1..10000 bps, decision signer a non-zero key with valid_from < valid_until") \
  X(6017, MathOverflow, "Fee computation overflowed; check the tier price and the price exponent")             \
  X(6018, DuplicateAccount, "The same account was passed in two positions")                                    \
  X(6019, NotEnoughAccounts, "Instruction needs more accounts than were passed")                               \
  X(6020, LocalPriceDisabled, "push_price only works when the registry itself owns the price account (local)") \
  X(6021, InsufficientTreasury, "Treasury would fall below its rent-exempt minimum")                           \
  X(6022, AccountNotWritable, "Account must be writable in this position")                                    \
  X(6023, CommitmentExists, "This launcher already holds this commitment; reveal it, or close it once expired") \
  X(6024, CommitmentNotFound,                                                                                 \
    "No commitment of this launcher matches the revealed name, ticker, duration, partner and secret")          \
  X(6025, CommitmentTooNew, "Commitment is too recent: reveal it at least min_commitment_slots slots later")    \
  X(6026, CommitmentExpired, "Commitment is older than 24 hours; commit again")                               \
  X(6027, CommitmentNotExpired, "A commitment can only be closed once it is older than 24 hours")             \
  X(6028, PriceConfidenceTooWide, "Price confidence interval exceeds the configured share of the price")      \
  X(6029, LaunchRefused, "Another wallet holds a live reservation of this name and ticker")                  \
  X(6030, DecisionSignerSetFull, "All 4 decision signer entries are in use and none has ended")              \
  X(6031, DecisionSignerNotFound, "No decision signer entry holds this key")

enum RegistryError {
#define AS_ENUM(code, name, message) ERR_##name = code,
  REGISTRY_ERRORS(AS_ENUM)
#undef AS_ENUM
};

/* Logs the Anchor-style error line and returns the code as the program result (Custom(code)). */
u64 fail(enum RegistryError error);

#endif
