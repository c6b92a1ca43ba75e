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
  if (!reader->ok) return fail(ERR_InvalidInstruction);
  if (args->max_price_age_secs == 0 || args->max_price_age_secs > 0x7fffffffULL) return fail(ERR_InvalidConfig);
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
}

void emit_config_updated(Context *ctx, const u8 *config) {
  Writer event;
  begin_event(ctx, EVENT_CONFIG_UPDATED, &event);
  put_bytes(&event, config + CONFIG_ADMIN, CONFIG_BUMP - CONFIG_ADMIN);
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
