/* Anchor events: `Program data: base64(discriminator || borsh(fields))` through sol_log_data. */
#ifndef EVENTS_H
#define EVENTS_H
#include "borsh.h"
#include "context.h"

/* A writer over the context's scratch buffer, starting with the event discriminator. */
void begin_event(Context *ctx, u64 discriminator, Writer *event);
void emit(const Writer *event);

#endif
