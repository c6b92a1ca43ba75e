/* assert_launch_allowed(name: string, ticker: string, launcher: Pubkey)
 *   -> LaunchCheck { holder, expires_at, name_hash, ticker_hash }:
 * for a launch program (by CPI) or a simulation, whether `launcher` may launch the pair. Folds on-chain and checks
 * the reservation account against the PDA ["reservation", keccak(name), keccak(ticker)]:
 * - a program-owned Reservation: its address must be the PDA (re-derived with its stored canonical bump), else
 *   InvalidPda; live and held by another wallet: LaunchRefused; held by the launcher: allowed;
 * - absent (system-owned, no data): must be the PDA (canonical bump searched), else InvalidPda; free;
 * - owned by another program with data, or the wrong type or size: InvalidAccount.
 * Return data (set before a refusal too, for simulations), 104 bytes: holder (32) || expires_at (i64 LE), both zero
 * when the pair is free (never reserved, or expired), || name_hash (32) || ticker_hash (32), the keccak256 keys of
 * the folded pair (always set), so a calling program binds a signed launch decision to the folded identity without
 * folding itself.
 * Accounts: config, reservation. */
#include "accounts.h"
#include "borsh.h"
#include "errors.h"
#include "fold.h"
#include "instructions.h"
#include "layout.h"

#define LAUNCH_CHECK_HOLDER 0
#define LAUNCH_CHECK_EXPIRES_AT 32
#define LAUNCH_CHECK_NAME_HASH 40
#define LAUNCH_CHECK_TICKER_HASH 72
#define LAUNCH_CHECK_SIZE 104

u64 assert_launch_allowed(Context *ctx, Reader *args) {
  TRY(require_accounts(ctx, 2));
  const SolAccountInfo *config_account = &ctx->accounts[0];
  const SolAccountInfo *reservation = &ctx->accounts[1];
  u64 name_len;
  u64 ticker_len;
  const u8 *name = take_string(args, &name_len);
  const u8 *ticker = take_string(args, &ticker_len);
  const u8 *launcher = take_bytes(args, PUBKEY_LEN);
  if (!reader_done(args)) return fail(ERR_InvalidInstruction);
  const u8 *config;
  TRY(load_config(ctx, config_account, &config));
  FoldedIdentity *identity = &ctx->identity;
  TRY(fold_identity(name, name_len, ticker, ticker_len, identity));

  SolBytes seeds[3];
  seeds[0].addr = (const u8 *)"reservation";
  seeds[0].len = 11;
  seeds[1].addr = identity->name_hash;
  seeds[1].len = 32;
  seeds[2].addr = identity->ticker_hash;
  seeds[2].len = 32;
  u8 *result = ctx->scratch;
  for (u64 i = 0; i < LAUNCH_CHECK_NAME_HASH; i += 8) write_u64(result + i, 0);
  copy_bytes(result + LAUNCH_CHECK_NAME_HASH, identity->name_hash, 32);
  copy_bytes(result + LAUNCH_CHECK_TICKER_HASH, identity->ticker_hash, 32);
  bool refused = false;
  if (is_uninitialized(ctx, reservation)) {
    u8 bump;
    TRY(require_pda(ctx, reservation, seeds, 3, &bump));
  } else {
    TRY(require_program_account(ctx, reservation, ACCOUNT_RESERVATION, RESERVATION_SIZE));
    const u8 *data = reservation->data;
    SolPubkey expected;
    if (!program_address(seeds, 3, data[RESERVATION_BUMP], ctx->program_id, &expected) ||
        !pubkey_eq(reservation->key, &expected)) {
      return fail(ERR_InvalidPda);
    }
    SolClock clock;
    sol_get_clock_sysvar(&clock);
    i64 expires_at = (i64)read_u64(data + RESERVATION_EXPIRES_AT);
    if (expires_at > clock.unix_timestamp) {
      copy_bytes(result + LAUNCH_CHECK_HOLDER, data + RESERVATION_LAUNCHER, PUBKEY_LEN);
      write_u64(result + LAUNCH_CHECK_EXPIRES_AT, (u64)expires_at);
      refused = !bytes32_eq(data + RESERVATION_LAUNCHER, launcher);
    }
  }
  sol_set_return_data(result, LAUNCH_CHECK_SIZE);
  return refused ? fail(ERR_LaunchRefused) : 0;
}
