/* withdraw_fees(lamports: u64): the admin moves collected fees from the treasury PDA, which the program
 * signs for, keeping the treasury's rent-exempt minimum.
 * Accounts: admin (signer), config, treasury (writable), destination (writable), system_program. */
#include "accounts.h"
#include "errors.h"
#include "events.h"
#include "instructions.h"
#include "layout.h"
#include "system.h"

u64 withdraw_fees(Context *ctx, Reader *args) {
  TRY(require_accounts(ctx, 5));
  const SolAccountInfo *admin = &ctx->accounts[0];
  const SolAccountInfo *config_account = &ctx->accounts[1];
  const SolAccountInfo *treasury = &ctx->accounts[2];
  const SolAccountInfo *destination = &ctx->accounts[3];
  const SolAccountInfo *system_program = &ctx->accounts[4];
  u64 lamports = take_u64(args);
  if (!reader_done(args)) return fail(ERR_InvalidInstruction);
  const u8 *config;
  TRY(load_config(ctx, config_account, &config));
  TRY(require_admin(admin, config));
  if (!pubkey_eq(treasury->key, (const SolPubkey *)(config + CONFIG_TREASURY))) return fail(ERR_InvalidPda);
  TRY(require_writable(treasury));
  TRY(require_writable(destination));
  TRY(require_system_program(system_program));
  u64 minimum;
  TRY(rent_exempt_minimum(0, &minimum));
  if (*treasury->lamports < minimum || lamports > *treasury->lamports - minimum) {
    return fail(ERR_InsufficientTreasury);
  }
  u8 bump = config[CONFIG_TREASURY_BUMP];
  SolBytes seeds[2] = {{(const u8 *)"treasury", 8}, {&bump, 1}};
  SolSignerSeeds signer = {seeds, 2};
  TRY(transfer_lamports(treasury, destination, system_program, lamports, &signer));
  Writer event;
  begin_event(ctx, EVENT_FEES_WITHDRAWN, &event);
  put_bytes(&event, destination->key, PUBKEY_LEN);
  put_u64(&event, lamports);
  emit(&event);
  return 0;
}
