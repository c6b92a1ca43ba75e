#include "config.h"
#include "errors.h"
#include "events.h"

#define MAX_TIER_USD_MICROS 1000000000000ULL

u64 take_config_args(Reader *reader, ConfigArgs *args) {
  args->price_update = take_bytes(reader, PUBKEY_LEN);
  args->price_owner = take_bytes(reader, PUBKEY_LEN);
  args->feed_id = take_bytes(reader, 32);
  args->max_price_age_secs = take_u64(reader);
  for (u64 i = 0; i < TIER_COUNT; i++) args->tier_usd_micros[i] = take_u64(reader);
  args->min_commitment_slots = take_u64(reader);
  const u8 *bps = take_bytes(reader, 2);
  if (!reader->ok) return fail(ERR_InvalidInstruction);
  args->max_confidence_bps = read_u16(bps);
  if (args->max_price_age_secs == 0 || args->max_price_age_secs > 0x7fffffffULL) return fail(ERR_InvalidConfig);
  /* At least one slot, so a reveal never shares the slot of its commitment. */
  if (args->min_commitment_slots == 0 || args->min_commitment_slots > MAX_MIN_COMMITMENT_SLOTS) {
    return fail(ERR_InvalidConfig);
  }
  if (args->max_confidence_bps == 0 || args->max_confidence_bps > BPS_DENOMINATOR) return fail(ERR_InvalidConfig);
  for (u64 i = 0; i < TIER_COUNT; i++) {
    if (args->tier_usd_micros[i] == 0 || args->tier_usd_micros[i] > MAX_TIER_USD_MICROS) {
      return fail(ERR_InvalidConfig);
    }
  }
  return 0;
}

void store_config_args(u8 *config, const ConfigArgs *args) {
  copy_bytes(config + CONFIG_PRICE_UPDATE, args->price_update, PUBKEY_LEN);
  copy_bytes(config + CONFIG_PRICE_OWNER, args->price_owner, PUBKEY_LEN);
  copy_bytes(config + CONFIG_FEED_ID, args->feed_id, 32);
  write_u64(config + CONFIG_MAX_PRICE_AGE, args->max_price_age_secs);
  for (u64 i = 0; i < TIER_COUNT; i++) write_u64(config + CONFIG_TIER_USD_MICROS + 8 * i, args->tier_usd_micros[i]);
  write_u64(config + CONFIG_MIN_COMMITMENT_SLOTS, args->min_commitment_slots);
  *(u16 *)(config + CONFIG_MAX_CONFIDENCE_BPS) = (u16)args->max_confidence_bps;
}

void emit_config_updated(Context *ctx, const u8 *config) {
  Writer event;
  begin_event(ctx, EVENT_CONFIG_UPDATED, &event);
  put_bytes(&event, config + CONFIG_ADMIN, CONFIG_ARGS_END - CONFIG_ADMIN);
  emit(&event);
}

u64 tier_index(u64 duration_seconds) {
  switch (duration_seconds) {
    case 86400:
      return 0;
    case 259200:
      return 1;
    case 604800:
      return 2;
    case 2592000:
      return 3;
    default:
      return TIER_COUNT;
  }
}
