/* The identity registry, seen from the launchpad: assert_launch_allowed by CPI, and its decision signer set. */
#include "accounts.h"
#include "errors.h"
#include "launch.h"

u64 check_with_registry(Context *ctx, const LaunchAccounts *accounts, const LaunchArgs *args) {
  u64 data_len = 8 + 4 + args->name_len + 4 + args->ticker_len + PUBKEY_LEN;
  if (data_len > CPI_DATA_CAP) return fail(ERR_InvalidInstruction);
  u8 *data = ctx->cpi_data;
  write_u64(data, REGISTRY_IX_ASSERT_LAUNCH_ALLOWED);
  u8 *at = data + 8;
  write_u32(at, (u32)args->name_len);
  sol_memcpy_(at + 4, args->name, args->name_len);
  at += 4 + args->name_len;
  write_u32(at, (u32)args->ticker_len);
  sol_memcpy_(at + 4, args->ticker, args->ticker_len);
  at += 4 + args->ticker_len;
  copy_bytes(at, accounts->launcher->key, PUBKEY_LEN);

  SolAccountMeta metas[2] = {{accounts->registry_config->key, false, false},
                             {accounts->reservation->key, false, false}};
  SolAccountInfo infos[3] = {*accounts->registry_config, *accounts->reservation, *accounts->registry_program};
  SolInstruction instruction = {accounts->registry_program->key, metas, 2, data, data_len};
  TRY(sol_invoke_signed_c(&instruction, infos, 3, NULL, 0));

  u64 returned = sol_get_return_data(ctx->answer, LAUNCH_CHECK_SIZE, &ctx->answer_program);
  const u8 *holder = ctx->answer + LAUNCH_CHECK_HOLDER;
  if (returned != LAUNCH_CHECK_SIZE || !pubkey_eq(&ctx->answer_program, accounts->registry_program->key) ||
      !(is_zero32(holder) || bytes32_eq(holder, accounts->launcher->key->bytes))) {
    return fail(ERR_RegistryAnswerInvalid);
  }
  return 0;
}

u64 require_trusted_signer(const u8 *registry_config, const u8 *signer, i64 now) {
  if (is_zero32(signer)) return fail(ERR_UntrustedSigner);
  for (u64 i = 0; i < REGISTRY_DECISION_SIGNER_COUNT; i++) {
    const u8 *entry = registry_config + REGISTRY_CONFIG_DECISION_SIGNERS + i * REGISTRY_DECISION_SIGNER_SIZE;
    if (!bytes32_eq(entry + REGISTRY_DECISION_SIGNER_KEY, signer)) continue;
    i64 valid_from = (i64)read_u64(entry + REGISTRY_DECISION_SIGNER_VALID_FROM);
    i64 valid_until = (i64)read_u64(entry + REGISTRY_DECISION_SIGNER_VALID_UNTIL);
    if (valid_from <= now && now < valid_until) return 0;
  }
  return fail(ERR_UntrustedSigner);
}
