/* Account layouts (Borsh, as in the IDL) and Anchor discriminators: the first 8 bytes of
 * sha256("global:<instruction>"), sha256("account:<Name>"), sha256("event:<Name>"), read as little-endian u64.
 * test/programs/idl.test.ts recomputes every value below and checks the offsets against the IDL types. */
#ifndef LAYOUT_H
#define LAYOUT_H
#include "sol.h"

#define IX_INITIALIZE 0xed9b980d1f6dafafULL
#define IX_UPDATE_CONFIG 0x63db530abffc9e1dULL
#define IX_PUSH_PRICE 0xcb7f473cebe8ee71ULL
#define IX_RESERVE 0x9dd5411cd1f4635cULL
#define IX_RENEW 0x49a3071b2e0fef2bULL
#define IX_FOLD_PREVIEW 0x5aeb439410f6bc1dULL
#define IX_WITHDRAW_FEES 0x59aed7906dabd4c6ULL
#define IX_COMMIT 0x4a9cd0e5a58e8cdfULL
#define IX_CLOSE_COMMITMENT 0x8026872d3604509fULL
#define IX_ASSERT_LAUNCH_ALLOWED 0xa599098e85dfb913ULL
#define IX_PROPOSE_ADMIN 0xea752757d4c7d679ULL
#define IX_ACCEPT_ADMIN 0xaa0db5745a2d2a70ULL
#define IX_SET_DECISION_SIGNER 0xe582397cf6980810ULL
#define IX_REVOKE_DECISION_SIGNER 0x5d5569a1268b4cecULL

#define ACCOUNT_CONFIG 0x82ccfa1ee0aa0c9bULL
#define ACCOUNT_RESERVATION 0xd4f7fdd06f00ebbcULL
#define ACCOUNT_WALLET_STATE 0x44a7df5c9e00ba7eULL
#define ACCOUNT_PRICE_UPDATE_V2 0xcdf47e9d6323f122ULL
#define ACCOUNT_COMMITMENT 0x574d93188081703dULL

#define EVENT_RESERVATION_CREATED 0xb0d3226f639fc71aULL
#define EVENT_RESERVATION_RENEWED 0x154ca4b307fc2262ULL
#define EVENT_CONFIG_UPDATED 0xc2c6130b7ae6f128ULL
#define EVENT_FEES_WITHDRAWN 0x1528f19477000feaULL
#define EVENT_ADMIN_TRANSFER_STARTED 0xb1d2a893b175521fULL
#define EVENT_ADMIN_TRANSFERRED 0xb326d9c705b693ffULL
#define EVENT_DECISION_SIGNER_SET 0xf581d2fdbf2771c1ULL
#define EVENT_DECISION_SIGNER_REVOKED 0x357526c2629612d1ULL

#define TIER_COUNT 4

/* Config, PDA ["config"]. The admin-set `ConfigArgs` are one block (price_update .. max_confidence_bps), so
 * initialize and update_config store them, and ConfigUpdated carries admin, treasury and that block, in one copy.
 * Decision signers: trusted keys of the service's launch decisions, each valid for valid_from <= t < valid_until;
 * an entry whose key is all zeros is empty. */
#define CONFIG_ADMIN 8
#define CONFIG_TREASURY 40
#define CONFIG_PRICE_UPDATE 72
#define CONFIG_PRICE_OWNER 104
#define CONFIG_FEED_ID 136
#define CONFIG_MAX_PRICE_AGE 168
#define CONFIG_TIER_USD_MICROS 176
#define CONFIG_MIN_COMMITMENT_SLOTS 208
#define CONFIG_MAX_CONFIDENCE_BPS 216
#define CONFIG_ARGS_END 218
#define CONFIG_PENDING_ADMIN 218
#define CONFIG_BUMP 250
#define CONFIG_TREASURY_BUMP 251
#define CONFIG_DECISION_SIGNERS 252
#define DECISION_SIGNER_COUNT 4
#define DECISION_SIGNER_KEY 0
#define DECISION_SIGNER_VALID_FROM 32
#define DECISION_SIGNER_VALID_UNTIL 40
#define DECISION_SIGNER_SIZE 48
#define CONFIG_SIZE (CONFIG_DECISION_SIGNERS + DECISION_SIGNER_COUNT * DECISION_SIGNER_SIZE)

/* Commitment, PDA ["commitment", launcher, commitment]: a sealed reservation request, revealed by reserve
 * (then closed) or closed by anyone once older than MAX_COMMITMENT_AGE_SECONDS. commitment = keccak256(
 * name_hash || ticker_hash || launcher || duration_seconds u64 LE || partner_ref || secret). */
#define COMMITMENT_LAUNCHER 8
#define COMMITMENT_HASH 40
#define COMMITMENT_COMMITTED_SLOT 72
#define COMMITMENT_COMMITTED_AT 80
#define COMMITMENT_BUMP 88
#define COMMITMENT_SIZE 89
#define MAX_COMMITMENT_AGE_SECONDS 86400

/* Reservation, PDA ["reservation", keccak(foldedName), keccak(foldedTicker)]. Strings last: fixed offsets. */
#define RESERVATION_LAUNCHER 8
#define RESERVATION_NAME_HASH 40
#define RESERVATION_TICKER_HASH 72
#define RESERVATION_RESERVED_AT 104
#define RESERVATION_EXPIRES_AT 112
#define RESERVATION_FEE_LAMPORTS 120
#define RESERVATION_PARTNER_REF 128
#define RESERVATION_BUMP 160
#define RESERVATION_NAME 161
#define RESERVATION_SIZE (RESERVATION_NAME + 4 + MAX_NAME_LEN + 4 + MAX_TICKER_LEN)

/* WalletState, PDA ["wallet", launcher]: one slot per possible active reservation. */
#define WALLET_LAUNCHER 8
#define WALLET_BUMP 40
#define WALLET_SLOTS 41
#define WALLET_SLOT_COUNT 3
#define WALLET_SLOT_RESERVATION 0
#define WALLET_SLOT_EXPIRES_AT 32
#define WALLET_SLOT_SIZE 40
#define WALLET_SIZE (WALLET_SLOTS + WALLET_SLOT_COUNT * WALLET_SLOT_SIZE)

/* Pyth receiver PriceUpdateV2 (pyth-solana-receiver-sdk), verification level Full (tag 1, no payload). */
#define PRICE_WRITE_AUTHORITY 8
#define PRICE_VERIFICATION_LEVEL 40
#define PRICE_FEED_ID 41
#define PRICE_PRICE 73
#define PRICE_CONF 81
#define PRICE_EXPONENT 89
#define PRICE_PUBLISH_TIME 93
#define PRICE_PREV_PUBLISH_TIME 101
#define PRICE_EMA_PRICE 109
#define PRICE_EMA_CONF 117
#define PRICE_POSTED_SLOT 125
#define PRICE_MIN_SIZE 133
#define PRICE_ACCOUNT_SIZE 134
#define VERIFICATION_FULL 1

#define MAX_NAME_LEN 64
#define MIN_TICKER_LEN 2
#define MAX_TICKER_LEN 10
#define RENEWAL_WINDOW_SECONDS 43200
#define BPS_DENOMINATOR 10000
#define MAX_MIN_COMMITMENT_SLOTS 1000

static inline u64 discriminator(const u8 *data) { return read_u64(data); }
static inline u8 *decision_signer_entry(u8 *config, u64 index) {
  return config + CONFIG_DECISION_SIGNERS + index * DECISION_SIGNER_SIZE;
}

#endif
