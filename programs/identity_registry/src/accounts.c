#include "accounts.h"
#include "errors.h"
#include "layout.h"

const SolPubkey SYSTEM_PROGRAM_ID = {{0}};
const SolPubkey BPF_LOADER_UPGRADEABLE_ID = {{0x02, 0xa8, 0xf6, 0x91, 0x4e, 0x88, 0xa1, 0xb0, 0xe2, 0x10, 0x15,
                                              0x3e, 0xf7, 0x63, 0xae, 0x2b, 0x00, 0xc2, 0xb9, 0x3d, 0x16, 0xc1,
                                              0x24, 0xd2, 0xc0, 0x53, 0x7a, 0x10, 0x04, 0x80, 0x00, 0x00}};

u64 require_accounts(const Context *ctx, u64 count) {
  return ctx->account_count < count ? fail(ERR_NotEnoughAccounts) : 0;
}

u64 require_signer(const SolAccountInfo *account) { return account->is_signer ? 0 : fail(ERR_MissingSigner); }

u64 require_writable(const SolAccountInfo *account) {
  return account->is_writable ? 0 : fail(ERR_AccountNotWritable);
}

u64 require_system_program(const SolAccountInfo *account) {
  return pubkey_eq(account->key, &SYSTEM_PROGRAM_ID) ? 0 : fail(ERR_InvalidProgramId);
}

u64 require_program_account(const Context *ctx, const SolAccountInfo *account, u64 discriminator_value, u64 size) {
  if (!pubkey_eq(account->owner, ctx->program_id) || account->data_len < size ||
      discriminator(account->data) != discriminator_value) {
    return fail(ERR_InvalidAccount);
  }
  return 0;
}

/* The runtime's derivation done by hand: sha256(seeds || bump || program_id || "ProgramDerivedAddress"), an
 * address only off the Ed25519 curve. The PDA syscalls charge a flat price per bump tried that is several times
 * what one sha256 and one curve check cost. */
#define CURVE25519_EDWARDS 0
#define PDA_MARKER "ProgramDerivedAddress"
#define PDA_MARKER_LEN 21

/* Fills `fields` with the hash input; returns the number of fields, 0 when there are too many seeds. */
static u64 pda_fields(SolBytes *fields, const SolBytes *seeds, u64 count, const u8 *bump,
                      const SolPubkey *program_id) {
  if (count > PDA_MAX_SEEDS) return 0;
  for (u64 i = 0; i < count; i++) fields[i] = seeds[i];
  fields[count].addr = bump;
  fields[count].len = 1;
  fields[count + 1].addr = program_id->bytes;
  fields[count + 1].len = PUBKEY_LEN;
  fields[count + 2].addr = (const u8 *)PDA_MARKER;
  fields[count + 2].len = PDA_MARKER_LEN;
  return count + 3;
}

static bool off_curve_hash(const SolBytes *fields, u64 count, SolPubkey *out) {
  sol_sha256(fields, count, out->bytes);
  return sol_curve_validate_point(CURVE25519_EDWARDS, out->bytes) != 0;
}

bool program_address(const SolBytes *seeds, u64 count, u8 bump, const SolPubkey *program_id, SolPubkey *out) {
  SolBytes fields[PDA_MAX_SEEDS + 3];
  u64 field_count = pda_fields(fields, seeds, count, &bump, program_id);
  return field_count != 0 && off_curve_hash(fields, field_count, out);
}

u64 find_program_address(const SolBytes *seeds, u64 count, const SolPubkey *program_id, SolPubkey *out, u8 *bump) {
  SolBytes fields[PDA_MAX_SEEDS + 3];
  u8 candidate = 255;
  u64 field_count = pda_fields(fields, seeds, count, &candidate, program_id);
  if (field_count == 0) return 1;
  /* Bump 0 is never tried, as the runtime and web3.js's findProgramAddressSync stop at 1. */
  for (; candidate != 0; candidate--) {
    if (off_curve_hash(fields, field_count, out)) {
      *bump = candidate;
      return 0;
    }
  }
  return 1;
}

u64 require_pda(const Context *ctx, const SolAccountInfo *account, const SolBytes *seeds, u64 count, u8 *bump) {
  SolPubkey expected;
  if (find_program_address(seeds, count, ctx->program_id, &expected, bump) != 0) return fail(ERR_InvalidPda);
  return pubkey_eq(account->key, &expected) ? 0 : fail(ERR_InvalidPda);
}

u64 load_config(const Context *ctx, const SolAccountInfo *account, const u8 **config) {
  TRY(require_program_account(ctx, account, ACCOUNT_CONFIG, CONFIG_SIZE));
  *config = account->data;
  return 0;
}

u64 require_admin(const SolAccountInfo *admin, const u8 *config) {
  TRY(require_signer(admin));
  return pubkey_eq(admin->key, (const SolPubkey *)(config + CONFIG_ADMIN)) ? 0 : fail(ERR_Unauthorized);
}

bool is_uninitialized(const Context *ctx, const SolAccountInfo *account) {
  return !pubkey_eq(account->owner, ctx->program_id) && account->data_len == 0;
}
