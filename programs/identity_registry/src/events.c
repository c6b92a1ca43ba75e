#include "events.h"

void begin_event(Context *ctx, u64 discriminator, Writer *event) {
  event->at = ctx->scratch;
  event->len = 0;
  event->cap = SCRATCH_SIZE;
  put_u64(event, discriminator);
}

void emit(const Writer *event) {
  SolBytes field = {event->at, event->len};
  sol_log_data(&field, 1);
}
