/* commit(commitment: [u8; 32]), accounts: launcher (signer, writable, pays the rent), commitment (writable),
 * system_program. Creates the PDA ["commitment", launcher, commitment] holding the hash, the slot and the time.
 * close_commitment(), accounts: commitment (writable), launcher (writable, the stored launcher). Anyone may close a
 * commitment older than MAX_COMMITMENT_AGE_SECONDS (it can no longer be revealed); its rent goes to the launcher.
 * The reveal is reserve (reserve.c), which checks and closes the commitment with the helpers below. */
#include "commitment.h"
#include "accounts.h"
#include "errors.h"
#include "instructions.h"
#include "layout.h"
#include "system.h"

void commitment_hash(const Context *ctx, const SolPubkey *launcher, const Reveal *reveal, u8 *out) {
  u8 duration[8];
  write_u64(duration, reveal->duration_seconds);
  /* Filled field by field: a constant aggregate of pointers would become an address table in .rodata. */
  SolBytes fields[6];
  fields[0].addr = ctx->identity.name_hash;
  fields[0].len = 32;
  fields[1].addr = ctx->identity.ticker_hash;
  fields[1].len = 32;
  fields[2].addr = launcher->bytes;
  fields[2].len = PUBKEY_LEN;
  fields[3].addr = duration;
  fields[3].len = 8;
  fields[4].addr = reveal->partner_ref;
  fields[4].len = 32;
  fields[5].addr = reveal->secret;
  fields[5].len = 32;
  sol_keccak256(fields, 6, out);
}

/* A Commitment account: owned by this program, exactly its size, its discriminator. Only commit creates one, so
 * its address needs no re-derivation. */
static bool is_commitment(const Context *ctx, const SolAccountInfo *account) {
  return pubkey_eq(account->owner, ctx->program_id) && account->data_len == COMMITMENT_SIZE &&
         discriminator(account->data) == ACCOUNT_COMMITMENT;
}

u64 require_commitment(const SolAccountInfo *commitment, const SolPubkey *launcher, const u8 *hash, const u8 *config,
                       const SolClock *clock) {
  const u8 *data = commitment->data;
  if (!is_commitment(context(), commitment) || !bytes32_eq(data + COMMITMENT_LAUNCHER, launcher->bytes) ||
      !bytes32_eq(data + COMMITMENT_HASH, hash)) {
    return fail(ERR_CommitmentNotFound);
  }
  u64 matures_at = read_u64(data + COMMITMENT_COMMITTED_SLOT) + read_u64(config + CONFIG_MIN_COMMITMENT_SLOTS);
  if (clock->slot < matures_at) return fail(ERR_CommitmentTooNew);
  if (clock->unix_timestamp > (i64)read_u64(data + COMMITMENT_COMMITTED_AT) + MAX_COMMITMENT_AGE_SECONDS) {
    return fail(ERR_CommitmentExpired);
  }
  return 0;
}

void close_program_account(SolAccountInfo *account, SolAccountInfo *destination) {
  *destination->lamports += *account->lamports;
  *account->lamports = 0;
  sol_memset_(account->data, 0, account->data_len);
}

u64 commit(Context *ctx, Reader *args) {
  TRY(require_accounts(ctx, 3));
  const SolAccountInfo *launcher = &ctx->accounts[0];
  SolAccountInfo *commitment = &ctx->accounts[1];
  const SolAccountInfo *system_program = &ctx->accounts[2];
  const u8 *hash = take_bytes(args, 32);
  if (!reader_done(args)) return fail(ERR_InvalidInstruction);
  TRY(require_signer(launcher));
  TRY(require_writable(launcher));
  TRY(require_writable(commitment));
  TRY(require_system_program(system_program));

  u8 bump;
  SolBytes seeds[4];
  seeds[0].addr = (const u8 *)"commitment";
  seeds[0].len = 10;
  seeds[1].addr = launcher->key->bytes;
  seeds[1].len = PUBKEY_LEN;
  seeds[2].addr = hash;
  seeds[2].len = 32;
  seeds[3].addr = &bump;
  seeds[3].len = 1;
  TRY(require_pda(ctx, commitment, seeds, 3, &bump));
  if (!is_uninitialized(ctx, commitment)) return fail(ERR_CommitmentExists);
  PdaCreation creation = {launcher, commitment, system_program, COMMITMENT_SIZE, {seeds, 4}};
  TRY(create_pda(ctx, &creation));

  SolClock clock;
  sol_get_clock_sysvar(&clock);
  u8 *data = commitment->data;
  write_u64(data, ACCOUNT_COMMITMENT);
  copy_bytes(data + COMMITMENT_LAUNCHER, launcher->key, PUBKEY_LEN);
  copy_bytes(data + COMMITMENT_HASH, hash, 32);
  write_u64(data + COMMITMENT_COMMITTED_SLOT, clock.slot);
  write_u64(data + COMMITMENT_COMMITTED_AT, (u64)clock.unix_timestamp);
  data[COMMITMENT_BUMP] = bump;
  return 0;
}

u64 close_commitment(Context *ctx, Reader *args) {
  TRY(require_accounts(ctx, 2));
  SolAccountInfo *commitment = &ctx->accounts[0];
  SolAccountInfo *launcher = &ctx->accounts[1];
  if (!reader_done(args)) return fail(ERR_InvalidInstruction);
  TRY(require_writable(commitment));
  TRY(require_writable(launcher));
  if (!is_commitment(ctx, commitment)) return fail(ERR_CommitmentNotFound);
  const u8 *data = commitment->data;
  if (!bytes32_eq(data + COMMITMENT_LAUNCHER, launcher->key->bytes)) return fail(ERR_InvalidAccount);
  SolClock clock;
  sol_get_clock_sysvar(&clock);
  if (clock.unix_timestamp <= (i64)read_u64(data + COMMITMENT_COMMITTED_AT) + MAX_COMMITMENT_AGE_SECONDS) {
    return fail(ERR_CommitmentNotExpired);
  }
  close_program_account(commitment, launcher);
  return 0;
}
