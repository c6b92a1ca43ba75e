/* reserve(name: string, ticker: string, duration_seconds: u64, partner_ref: [u8; 32], secret: [u8; 32]): the reveal
 * of a commitment (commitment.c). The launcher's commitment to keccak256(name_hash || ticker_hash || launcher ||
 * duration_seconds u64 LE || partner_ref || secret) must be at least min_commitment_slots old and at most
 * MAX_COMMITMENT_AGE_SECONDS; it is closed (rent back to the launcher). Then, as before the commitment existed:
 * folds name and ticker on-chain, creates (or reuses, once expired) the reservation PDA
 * ["reservation", keccak(name), keccak(ticker)], keeps at most 3 active reservations per wallet in the
 * wallet PDA ["wallet", launcher], charges the tier's USD price in lamports into the treasury PDA.
 * Accounts: launcher (signer, writable), config, price_update, reservation (writable), wallet (writable),
 * treasury (writable), system_program, commitment (writable). */
#include "accounts.h"
#include "borsh.h"
#include "commitment.h"
#include "errors.h"
#include "events.h"
#include "fold.h"
#include "instructions.h"
#include "layout.h"
#include "reservation.h"
#include "system.h"

/* Creates the wallet PDA on first use, or checks that it is this launcher's. */
static u64 open_wallet(Context *ctx, const SolAccountInfo *launcher, SolAccountInfo *wallet,
                       const SolAccountInfo *system_program) {
  if (!is_uninitialized(ctx, wallet)) {
    TRY(require_program_account(ctx, wallet, ACCOUNT_WALLET_STATE, WALLET_SIZE));
    return pubkey_eq((const SolPubkey *)(wallet->data + WALLET_LAUNCHER), launcher->key) ? 0 : fail(ERR_InvalidPda);
  }
  u8 bump;
  SolBytes seeds[3] = {{(const u8 *)"wallet", 6}, {launcher->key->bytes, PUBKEY_LEN}, {&bump, 1}};
  TRY(require_pda(ctx, wallet, seeds, 2, &bump));
  PdaCreation creation = {launcher, wallet, system_program, WALLET_SIZE, {seeds, 3}};
  TRY(create_pda(ctx, &creation));
  write_u64(wallet->data, ACCOUNT_WALLET_STATE);
  copy_bytes(wallet->data + WALLET_LAUNCHER, launcher->key, PUBKEY_LEN);
  wallet->data[WALLET_BUMP] = bump;
  return 0;
}

/* The slot a new reservation may take: the expired slot of this same pair if the launcher held it before
 * (so one pair never occupies two slots), else any expired slot, as long as fewer than 3 are active. */
static u64 free_wallet_slot(const u8 *wallet, const SolPubkey *reservation, i64 now, u8 **slot) {
  u8 *free = NULL;
  for (u64 i = 0; i < WALLET_SLOT_COUNT; i++) {
    u8 *candidate = (u8 *)wallet + WALLET_SLOTS + i * WALLET_SLOT_SIZE;
    if ((i64)read_u64(candidate + WALLET_SLOT_EXPIRES_AT) > now) continue;
    if (bytes32_eq(candidate + WALLET_SLOT_RESERVATION, reservation->bytes)) {
      *slot = candidate;
      return 0;
    }
    if (free == NULL) free = candidate;
  }
  if (free == NULL) return fail(ERR_TooManyActiveReservations);
  *slot = free;
  return 0;
}

/* Creates the reservation PDA, or reuses it when the previous reservation has expired. */
static u64 open_reservation(Context *ctx, const SolAccountInfo *launcher, SolAccountInfo *reservation,
                            const SolAccountInfo *system_program, i64 now) {
  const FoldedIdentity *identity = &ctx->identity;
  if (!is_uninitialized(ctx, reservation)) {
    TRY(require_program_account(ctx, reservation, ACCOUNT_RESERVATION, RESERVATION_SIZE));
    const u8 *data = reservation->data;
    if (!bytes32_eq(data + RESERVATION_NAME_HASH, identity->name_hash) ||
        !bytes32_eq(data + RESERVATION_TICKER_HASH, identity->ticker_hash)) {
      return fail(ERR_InvalidPda);
    }
    return (i64)read_u64(data + RESERVATION_EXPIRES_AT) > now ? fail(ERR_AlreadyReserved) : 0;
  }
  u8 bump;
  SolBytes seeds[4] = {
      {(const u8 *)"reservation", 11}, {identity->name_hash, 32}, {identity->ticker_hash, 32}, {&bump, 1}};
  TRY(require_pda(ctx, reservation, seeds, 3, &bump));
  PdaCreation creation = {launcher, reservation, system_program, RESERVATION_SIZE, {seeds, 4}};
  TRY(create_pda(ctx, &creation));
  reservation->data[RESERVATION_BUMP] = bump;
  return 0;
}

static void store_reservation(const Context *ctx, u8 *data, const SolAccountInfo *launcher, const Charge *charge,
                              const u8 *partner_ref) {
  const FoldedIdentity *identity = &ctx->identity;
  write_u64(data, ACCOUNT_RESERVATION);
  copy_bytes(data + RESERVATION_LAUNCHER, launcher->key, PUBKEY_LEN);
  copy_bytes(data + RESERVATION_NAME_HASH, identity->name_hash, 32);
  copy_bytes(data + RESERVATION_TICKER_HASH, identity->ticker_hash, 32);
  write_u64(data + RESERVATION_RESERVED_AT, (u64)charge->now);
  write_u64(data + RESERVATION_EXPIRES_AT, (u64)(charge->now + (i64)charge->duration_seconds));
  write_u64(data + RESERVATION_FEE_LAMPORTS, charge->fee_lamports);
  copy_bytes(data + RESERVATION_PARTNER_REF, partner_ref, 32);
  Writer strings = {data + RESERVATION_NAME, 0, RESERVATION_SIZE - RESERVATION_NAME};
  put_string(&strings, identity->name, identity->name_len);
  put_string(&strings, identity->ticker, identity->ticker_len);
}

static void emit_reservation_created(Context *ctx, const SolAccountInfo *reservation, const u8 *data) {
  const FoldedIdentity *identity = &ctx->identity;
  Writer event;
  begin_event(ctx, EVENT_RESERVATION_CREATED, &event);
  put_bytes(&event, reservation->key, PUBKEY_LEN);
  put_bytes(&event, data + RESERVATION_LAUNCHER, RESERVATION_BUMP - RESERVATION_LAUNCHER);
  put_string(&event, identity->name, identity->name_len);
  put_string(&event, identity->ticker, identity->ticker_len);
  emit(&event);
}

u64 reserve(Context *ctx, Reader *args) {
  TRY(require_accounts(ctx, 8));
  SolAccountInfo *launcher = &ctx->accounts[0];
  const SolAccountInfo *config_account = &ctx->accounts[1];
  const SolAccountInfo *price_account = &ctx->accounts[2];
  SolAccountInfo *reservation = &ctx->accounts[3];
  SolAccountInfo *wallet = &ctx->accounts[4];
  const SolAccountInfo *treasury = &ctx->accounts[5];
  const SolAccountInfo *system_program = &ctx->accounts[6];
  SolAccountInfo *commitment = &ctx->accounts[7];
  u64 name_len;
  u64 ticker_len;
  const u8 *name = take_string(args, &name_len);
  const u8 *ticker = take_string(args, &ticker_len);
  Reveal reveal;
  reveal.duration_seconds = take_u64(args);
  reveal.partner_ref = take_bytes(args, 32);
  reveal.secret = take_bytes(args, 32);
  if (!reader_done(args)) return fail(ERR_InvalidInstruction);

  TRY(require_signer(launcher));
  TRY(require_writable(launcher));
  TRY(require_writable(reservation));
  TRY(require_writable(wallet));
  TRY(require_writable(commitment));
  TRY(require_system_program(system_program));
  const u8 *config;
  TRY(load_config(ctx, config_account, &config));
  TRY(fold_identity(name, name_len, ticker, ticker_len, &ctx->identity));
  SolClock clock;
  sol_get_clock_sysvar(&clock);
  u8 hash[32];
  commitment_hash(ctx, launcher->key, &reveal, hash);
  TRY(require_commitment(commitment, launcher->key, hash, config, &clock));
  Charge charge;
  TRY(quote_charge(config, price_account, reveal.duration_seconds, &clock, &charge));

  TRY(open_wallet(ctx, launcher, wallet, system_program));
  u8 *slot;
  TRY(free_wallet_slot(wallet->data, reservation->key, charge.now, &slot));
  TRY(open_reservation(ctx, launcher, reservation, system_program, charge.now));
  TRY(pay_fee(config, launcher, treasury, system_program, charge.fee_lamports));

  store_reservation(ctx, reservation->data, launcher, &charge, reveal.partner_ref);
  copy_bytes(slot + WALLET_SLOT_RESERVATION, reservation->key, PUBKEY_LEN);
  copy_bytes(slot + WALLET_SLOT_EXPIRES_AT, reservation->data + RESERVATION_EXPIRES_AT, 8);
  /* After the CPIs: the commitment's rent returns to the launcher directly (the program owns the account). */
  close_program_account(commitment, launcher);
  emit_reservation_created(ctx, reservation, reservation->data);
  return 0;
}
