#include "system.h"
#include "accounts.h"
#include "errors.h"

#define SYSTEM_CREATE_ACCOUNT 0
#define SYSTEM_ASSIGN 1
#define SYSTEM_TRANSFER 2
#define SYSTEM_ALLOCATE 8
#define ACCOUNT_STORAGE_OVERHEAD 128
#define F64_ONE 0x3ff0000000000000ULL
#define F64_TWO 0x4000000000000000ULL

static u64 rent_exempt_minimum(u64 space, u64 *out) {
  Context *ctx = context();
  if (ctx->rent_per_byte == 0) {
    SolRent rent;
    sol_get_rent_sysvar(&rent);
    /* No floating point on SBPF: the threshold is 2.0 (1.0 since rent-exemption-threshold deprecation). */
    if (rent.exemption_threshold_bits == F64_TWO) {
      ctx->rent_per_byte = rent.lamports_per_byte_year * 2;
    } else if (rent.exemption_threshold_bits == F64_ONE) {
      ctx->rent_per_byte = rent.lamports_per_byte_year;
    } else {
      return fail(ERR_RentUnavailable);
    }
  }
  *out = (ACCOUNT_STORAGE_OVERHEAD + space) * ctx->rent_per_byte;
  return 0;
}

static u64 invoke_system(const u8 *data, u64 data_len, const SolAccountMeta *metas, u64 meta_count,
                         const SolAccountInfo *infos, const SolSignerSeeds *signer) {
  /* infos: the accounts of `metas` followed by the System Program itself. */
  SolInstruction instruction = {&SYSTEM_PROGRAM_ID, metas, meta_count, data, data_len};
  return sol_invoke_signed_c(&instruction, infos, meta_count + 1, signer, signer ? 1 : 0);
}

static u64 transfer(const AccountCreation *creation, u64 lamports) {
  u8 data[12];
  write_u32(data, SYSTEM_TRANSFER);
  write_u64(data + 4, lamports);
  SolAccountMeta metas[2] = {{creation->payer->key, true, true}, {creation->target->key, true, false}};
  SolAccountInfo infos[3] = {*creation->payer, *creation->target, *creation->system_program};
  return invoke_system(data, sizeof data, metas, 2, infos, NULL);
}

static u64 create_account(const AccountCreation *creation, u64 lamports, const SolPubkey *owner) {
  u8 data[52];
  write_u32(data, SYSTEM_CREATE_ACCOUNT);
  write_u64(data + 4, lamports);
  write_u64(data + 12, creation->space);
  copy_bytes(data + 20, owner, PUBKEY_LEN);
  SolAccountMeta metas[2] = {{creation->payer->key, true, true}, {creation->target->key, true, true}};
  SolAccountInfo infos[3] = {*creation->payer, *creation->target, *creation->system_program};
  return invoke_system(data, sizeof data, metas, 2, infos, creation->signer);
}

/* A pre-funded address cannot take create_account: top it up, then allocate and assign (both signed). */
static u64 adopt_prefunded(const AccountCreation *creation, u64 minimum, const SolPubkey *owner) {
  u64 balance = *creation->target->lamports;
  if (balance < minimum) TRY(transfer(creation, minimum - balance));
  SolAccountMeta meta = {creation->target->key, true, true};
  SolAccountInfo infos[2] = {*creation->target, *creation->system_program};
  u8 allocate[12];
  write_u32(allocate, SYSTEM_ALLOCATE);
  write_u64(allocate + 4, creation->space);
  TRY(invoke_system(allocate, sizeof allocate, &meta, 1, infos, creation->signer));
  u8 assign[36];
  write_u32(assign, SYSTEM_ASSIGN);
  copy_bytes(assign + 4, owner, PUBKEY_LEN);
  return invoke_system(assign, sizeof assign, &meta, 1, infos, creation->signer);
}

u64 create_owned_account(const Context *ctx, const AccountCreation *creation) {
  u64 minimum;
  TRY(rent_exempt_minimum(creation->space, &minimum));
  if (*creation->target->lamports == 0) {
    TRY(create_account(creation, minimum, ctx->program_id));
  } else {
    TRY(adopt_prefunded(creation, minimum, ctx->program_id));
  }
  /* The runtime resized the account in the input buffer; the length sits just before the data. */
  creation->target->data_len = read_u64(creation->target->data - 8);
  return 0;
}
