#include "errors.h"

static const char *anchor_log_line(enum LaunchpadError error) {
  switch (error) {
#define AS_LOG(code, name, message)                                                                          \
  case code:                                                                                                 \
    return "AnchorError occurred. Error Code: " #name ". Error Number: " #code ". Error Message: " message ".";
    LAUNCHPAD_ERRORS(AS_LOG)
#undef AS_LOG
  }
  return "AnchorError occurred. Error Code: Unknown. Error Number: 0. Error Message: unknown.";
}

u64 fail(enum LaunchpadError error) {
  const char *line = anchor_log_line(error);
  u64 len = 0;
  while (line[len] != 0) len++;
  sol_log_(line, len);
  return (u64)error;
}
