/* launch(name: string, ticker: string, expires_at: i64, nonce: [u8; 16]): the signed path.
 *   Accounts: launcher (signer, writable, pays), config, mint (signer, writable: a fresh keypair), registry_config,
 *   reservation, registry_program, instructions (sysvar), system_program.
 *   1. accounts: config is this program's LaunchpadConfig; registry_program and registry_config are the ones it
 *      names (the registry config also owned by the registry, of its Config type); mint is a fresh account;
 *   2. the Ed25519 decision right before this top-level instruction (decision.c);
 *   3. clock < expires_at; the decision's signer is in the registry's decision signer set, valid now;
 *   4. CPI assert_launch_allowed (fails the transaction when another wallet holds a live reservation);
 *   5. the signed message equals the one rebuilt from this launch (allow, its pair's keys from the registry);
 *   6. creates the mint account (owned by this program) recording the launch.
 * launch_registry_only(name: string, ticker: string): the trustless path, steps 1, 4 and 6.
 *   Accounts: the same without the instructions sysvar. It has no top-level requirement: another program may call
 *   it by CPI (the registry check holds at any depth). */
#include "accounts.h"
#include "errors.h"
#include "instructions.h"
#include "launch.h"
#include "system.h"

static u64 check_accounts(const Context *ctx, const LaunchAccounts *accounts, const u8 **config) {
  TRY(require_signer(accounts->launcher));
  TRY(require_writable(accounts->launcher));
  TRY(require_signer(accounts->mint));
  TRY(require_writable(accounts->mint));
  TRY(require_owned_account(accounts->config, ctx->program_id, ACCOUNT_LAUNCHPAD_CONFIG, LAUNCHPAD_CONFIG_SIZE));
  const u8 *data = accounts->config->data;
  const SolPubkey *registry_program = (const SolPubkey *)(data + LAUNCHPAD_CONFIG_REGISTRY_PROGRAM);
  if (!pubkey_eq(accounts->registry_program->key, registry_program)) return fail(ERR_InvalidProgramId);
  if (!bytes32_eq(accounts->registry_config->key->bytes, data + LAUNCHPAD_CONFIG_REGISTRY_CONFIG)) {
    return fail(ERR_InvalidPda);
  }
  TRY(require_owned_account(accounts->registry_config, registry_program, REGISTRY_ACCOUNT_CONFIG,
                            REGISTRY_CONFIG_SIZE));
  TRY(require_system_program(accounts->system_program));
  /* A fresh account (lamports sent to it first are kept); never an existing launch or another program's. */
  if (!pubkey_eq(accounts->mint->owner, &SYSTEM_PROGRAM_ID) || accounts->mint->data_len != 0) {
    return fail(ERR_InvalidAccount);
  }
  *config = data;
  return 0;
}

static u64 take_pair(Reader *reader, LaunchArgs *args) {
  args->name = take_string(reader, &args->name_len);
  args->ticker = take_string(reader, &args->ticker_len);
  return reader->ok ? 0 : fail(ERR_InvalidInstruction);
}

/* Creates the mint account and records the launch in it. `decision_signer` is NULL for registry-only launches. */
static u64 record_launch(const Context *ctx, const LaunchAccounts *accounts, const u8 *decision_signer, i64 now) {
  AccountCreation creation = {accounts->launcher, accounts->mint, accounts->system_program, LAUNCH_SIZE, NULL};
  TRY(create_owned_account(ctx, &creation));
  u8 *data = accounts->mint->data;
  write_u64(data, ACCOUNT_LAUNCH);
  copy_bytes(data + LAUNCH_LAUNCHER, accounts->launcher->key, PUBKEY_LEN);
  copy_bytes(data + LAUNCH_NAME_HASH, ctx->answer + LAUNCH_CHECK_NAME_HASH, 32);
  copy_bytes(data + LAUNCH_TICKER_HASH, ctx->answer + LAUNCH_CHECK_TICKER_HASH, 32);
  if (decision_signer != NULL) copy_bytes(data + LAUNCH_DECISION_SIGNER, decision_signer, PUBKEY_LEN);
  write_u64(data + LAUNCH_LAUNCHED_AT, (u64)now);
  return 0;
}

static i64 clock_now(void) {
  SolClock clock;
  sol_get_clock_sysvar(&clock);
  return clock.unix_timestamp;
}

u64 launch(Context *ctx, Reader *args) {
  TRY(require_accounts(ctx, 8));
  SolAccountInfo *list = ctx->accounts;
  LaunchAccounts accounts = {&list[0], &list[1], &list[2], &list[3], &list[4], &list[5], &list[6], &list[7]};
  LaunchArgs values;
  TRY(take_pair(args, &values));
  values.expires_at = (i64)take_u64(args);
  values.nonce = take_bytes(args, DECISION_NONCE_LEN);
  if (!reader_done(args)) return fail(ERR_InvalidInstruction);
  const u8 *config;
  TRY(check_accounts(ctx, &accounts, &config));
  const u8 *decision;
  TRY(load_decision(ctx, accounts.instructions, &decision));
  i64 now = clock_now();
  if (now >= values.expires_at) return fail(ERR_DecisionExpired);
  TRY(require_trusted_signer(accounts.registry_config->data, decision + ED25519_PUBKEY, now));
  TRY(check_with_registry(ctx, &accounts, &values));
  TRY(require_decision(ctx, config, &accounts, &values, decision + ED25519_MESSAGE));
  return record_launch(ctx, &accounts, decision + ED25519_PUBKEY, now);
}

u64 launch_registry_only(Context *ctx, Reader *args) {
  TRY(require_accounts(ctx, 7));
  SolAccountInfo *list = ctx->accounts;
  LaunchAccounts accounts = {&list[0], &list[1], &list[2], &list[3], &list[4], &list[5], NULL, &list[6]};
  LaunchArgs values;
  TRY(take_pair(args, &values));
  if (!reader_done(args)) return fail(ERR_InvalidInstruction);
  const u8 *config;
  TRY(check_accounts(ctx, &accounts, &config));
  TRY(check_with_registry(ctx, &accounts, &values));
  return record_launch(ctx, &accounts, NULL, clock_now());
}
