/* Commit, then reveal: a new reservation is first sealed in a Commitment account (commit), and only a later
 * reserve that reveals matching parameters, signed by the same launcher, consumes it. */
#ifndef COMMITMENT_H
#define COMMITMENT_H
#include "context.h"

typedef struct {
  u64 duration_seconds;
  const u8 *partner_ref;
  const u8 *secret;
} Reveal;

/* keccak256(name_hash || ticker_hash || launcher || duration_seconds u64 LE || partner_ref || secret), with the
 * folded identity's hashes in ctx->identity. */
void commitment_hash(const Context *ctx, const SolPubkey *launcher, const Reveal *reveal, u8 *out);

/* The launcher's matured, unexpired commitment to `hash`: CommitmentNotFound, CommitmentTooNew, CommitmentExpired. */
u64 require_commitment(const SolAccountInfo *commitment, const SolPubkey *launcher, const u8 *hash, const u8 *config,
                       const SolClock *clock);

/* Moves every lamport to `destination` and zeroes the data, so nothing can revive it in the same transaction. */
void close_program_account(SolAccountInfo *account, SolAccountInfo *destination);

#endif
