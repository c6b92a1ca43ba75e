/* initialize(registry_program: Pubkey, cluster: [u8; 32]): creates the config PDA ["config"] naming the identity
 * registry this launchpad trusts, the registry's config PDA (derived here, once) and the cluster's genesis hash
 * that every signed decision must name. The signer becomes admin (recorded; the config has no update instruction:
 * an upgrade changes it).
 * Accounts: admin (signer, writable, pays), config (writable), program_data, system_program.
 * Only the program's upgrade authority may initialize, so nobody can front-run the deployer with a registry of
 * their own (which would turn the guard off). */
#include "accounts.h"
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
  if (sol_try_find_program_address(&seed, 1, &BPF_LOADER_UPGRADEABLE_ID, &expected, &bump) != 0 ||
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
  TRY(require_accounts(ctx, 4));
  SolAccountInfo *admin = &ctx->accounts[0];
  SolAccountInfo *config = &ctx->accounts[1];
  const SolAccountInfo *program_data = &ctx->accounts[2];
  const SolAccountInfo *system_program = &ctx->accounts[3];
  const u8 *registry_program = take_bytes(args, PUBKEY_LEN);
  const u8 *cluster = take_bytes(args, 32);
  if (!reader_done(args)) return fail(ERR_InvalidInstruction);
  TRY(require_signer(admin));
  TRY(require_writable(admin));
  TRY(require_writable(config));
  TRY(require_system_program(system_program));
  TRY(require_upgrade_authority(ctx, program_data, admin));
  if (!is_uninitialized(ctx, config)) return fail(ERR_AlreadyInitialized);
  if (is_zero32(registry_program) || is_zero32(cluster) || bytes32_eq(registry_program, ctx->program_id->bytes)) {
    return fail(ERR_InvalidConfig);
  }

  /* Seeds are filled field by field: a constant aggregate would become a pointer table in .rodata. */
  u8 bump;
  SolBytes seeds[2];
  seeds[0].addr = (const u8 *)"config";
  seeds[0].len = 6;
  seeds[1].addr = &bump;
  seeds[1].len = 1;
  SolPubkey expected;
  if (sol_try_find_program_address(seeds, 1, ctx->program_id, &expected, &bump) != 0 ||
      !pubkey_eq(config->key, &expected)) {
    return fail(ERR_InvalidPda);
  }
  SolPubkey registry_config;
  u8 registry_bump;
  if (sol_try_find_program_address(seeds, 1, (const SolPubkey *)registry_program, &registry_config,
                                   &registry_bump) != 0) {
    return fail(ERR_InvalidConfig);
  }

  SolSignerSeeds signer = {seeds, 2};
  AccountCreation creation = {admin, config, system_program, LAUNCHPAD_CONFIG_SIZE, &signer};
  TRY(create_owned_account(ctx, &creation));
  u8 *data = config->data;
  write_u64(data, ACCOUNT_LAUNCHPAD_CONFIG);
  copy_bytes(data + LAUNCHPAD_CONFIG_ADMIN, admin->key, PUBKEY_LEN);
  copy_bytes(data + LAUNCHPAD_CONFIG_REGISTRY_PROGRAM, registry_program, PUBKEY_LEN);
  copy_bytes(data + LAUNCHPAD_CONFIG_REGISTRY_CONFIG, &registry_config, PUBKEY_LEN);
  copy_bytes(data + LAUNCHPAD_CONFIG_CLUSTER, cluster, 32);
  data[LAUNCHPAD_CONFIG_BUMP] = bump;
  return 0;
}
