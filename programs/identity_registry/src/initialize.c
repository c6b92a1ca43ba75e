/* initialize(args: ConfigArgs): creates the config PDA and funds the treasury PDA's rent-exempt minimum.
 * Accounts: admin (signer, writable), config (writable), treasury (writable), program_data, system_program.
 * Only the program's upgrade authority may initialize, so nobody can front-run the deployer. */
#include "accounts.h"
#include "config.h"
#include "errors.h"
#include "instructions.h"
#include "system.h"

#define PROGRAM_DATA_TAG 3
#define PROGRAM_DATA_HAS_AUTHORITY 12
#define PROGRAM_DATA_AUTHORITY 13
#define PROGRAM_DATA_HEADER 45

static u64 require_upgrade_authority(const Context *ctx, const SolAccountInfo *program_data,
                                     const SolAccountInfo *admin) {
  SolBytes seed = {ctx->program_id->bytes, PUBKEY_LEN};
  SolPubkey expected;
  u8 bump;
  if (find_program_address(&seed, 1, &BPF_LOADER_UPGRADEABLE_ID, &expected, &bump) != 0 ||
      !pubkey_eq(program_data->key, &expected)) {
    return fail(ERR_InvalidPda);
  }
  if (!pubkey_eq(program_data->owner, &BPF_LOADER_UPGRADEABLE_ID)) return fail(ERR_InvalidProgramId);
  const u8 *data = program_data->data;
  if (program_data->data_len < PROGRAM_DATA_HEADER || read_u32(data) != PROGRAM_DATA_TAG) {
    return fail(ERR_InvalidAccount);
  }
  if (data[PROGRAM_DATA_HAS_AUTHORITY] != 1 || !bytes32_eq(data + PROGRAM_DATA_AUTHORITY, admin->key->bytes)) {
    return fail(ERR_Unauthorized);
  }
  return 0;
}

u64 initialize(Context *ctx, Reader *args) {
  TRY(require_accounts(ctx, 5));
  SolAccountInfo *admin = &ctx->accounts[0];
  SolAccountInfo *config = &ctx->accounts[1];
  SolAccountInfo *treasury = &ctx->accounts[2];
  const SolAccountInfo *program_data = &ctx->accounts[3];
  const SolAccountInfo *system_program = &ctx->accounts[4];
  ConfigArgs values;
  TRY(take_config_args(args, &values));
  if (!reader_done(args)) return fail(ERR_InvalidInstruction);
  TRY(require_signer(admin));
  TRY(require_writable(admin));
  TRY(require_writable(config));
  TRY(require_writable(treasury));
  TRY(require_system_program(system_program));
  TRY(require_upgrade_authority(ctx, program_data, admin));
  if (!is_uninitialized(ctx, config)) return fail(ERR_AlreadyInitialized);

  /* Seeds are filled field by field: a constant aggregate would become a pointer table in .rodata. */
  u8 config_bump;
  SolBytes config_seeds[2];
  config_seeds[0].addr = (const u8 *)"config";
  config_seeds[0].len = 6;
  config_seeds[1].addr = &config_bump;
  config_seeds[1].len = 1;
  TRY(require_pda(ctx, config, config_seeds, 1, &config_bump));
  u8 treasury_bump;
  SolBytes treasury_seed;
  treasury_seed.addr = (const u8 *)"treasury";
  treasury_seed.len = 8;
  TRY(require_pda(ctx, treasury, &treasury_seed, 1, &treasury_bump));

  PdaCreation creation = {admin, config, system_program, CONFIG_SIZE, {config_seeds, 2}};
  TRY(create_pda(ctx, &creation));
  u8 *data = config->data;
  write_u64(data, ACCOUNT_CONFIG);
  copy_bytes(data + CONFIG_ADMIN, admin->key, PUBKEY_LEN);
  copy_bytes(data + CONFIG_TREASURY, treasury->key, PUBKEY_LEN);
  store_config_args(data, &values);
  data[CONFIG_BUMP] = config_bump;
  data[CONFIG_TREASURY_BUMP] = treasury_bump;

  /* The treasury is a System-owned PDA: it must hold its rent-exempt minimum before small fees arrive. */
  u64 minimum;
  TRY(rent_exempt_minimum(0, &minimum));
  if (*treasury->lamports < minimum) {
    TRY(transfer_lamports(admin, treasury, system_program, minimum - *treasury->lamports, NULL));
  }
  emit_config_updated(ctx, data);
  return 0;
}
