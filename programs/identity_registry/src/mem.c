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

void copy_bytes(void *dst, const void *src, u64 len) { sol_memcpy_(dst, src, len); }

/* Word-wise compare: pubkeys in the input buffer are 8-byte aligned. */
bool pubkey_eq(const SolPubkey *a, const SolPubkey *b) {
  const u64 *x = (const u64 *)a->bytes;
  const u64 *y = (const u64 *)b->bytes;
  return (x[0] ^ y[0]) == 0 && (x[1] ^ y[1]) == 0 && (x[2] ^ y[2]) == 0 && (x[3] ^ y[3]) == 0;
}

bool bytes_eq(const u8 *a, const u8 *b, u64 len) {
  for (u64 i = 0; i < len; i++) {
    if (a[i] != b[i]) return false;
  }
  return true;
}
