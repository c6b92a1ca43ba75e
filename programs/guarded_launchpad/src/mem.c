/* Memory helpers. The compiler emits calls to memcpy/memset for non-constant sizes; they must exist. */
#include "sol.h"

void *memcpy(void *dst, const void *src, u64 len) {
  sol_memcpy_(dst, src, len);
  return dst;
}

void *memset(void *dst, int value, u64 len) {
  sol_memset_(dst, (u8)value, len);
  return dst;
}

bool bytes32_eq(const u8 *a, const u8 *b) {
  return ((read_u64(a) ^ read_u64(b)) | (read_u64(a + 8) ^ read_u64(b + 8)) | (read_u64(a + 16) ^ read_u64(b + 16)) |
          (read_u64(a + 24) ^ read_u64(b + 24))) == 0;
}
