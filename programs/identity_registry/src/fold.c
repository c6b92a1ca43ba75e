#include "fold.h"
#include "errors.h"
#include "layout.h"

/* Byte -> folded byte, 0 = dropped: a-z to A-Z, look-alike digits to letters (2, 6, 9 kept), $ to S,
 * @ to A; whitespace, punctuation, control characters and every byte >= 0x80 (all non-ASCII) dropped. */
static const u8 FOLD_TABLE[256] = {
    ['$'] = 'S', ['@'] = 'A', ['0'] = 'O', ['1'] = 'I', ['2'] = '2', ['3'] = 'E', ['4'] = 'A',
    ['5'] = 'S', ['6'] = '6', ['7'] = 'T', ['8'] = 'B', ['9'] = '9', ['A'] = 'A', ['B'] = 'B',
    ['C'] = 'C', ['D'] = 'D', ['E'] = 'E', ['F'] = 'F', ['G'] = 'G', ['H'] = 'H', ['I'] = 'I',
    ['J'] = 'J', ['K'] = 'K', ['L'] = 'L', ['M'] = 'M', ['N'] = 'N', ['O'] = 'O', ['P'] = 'P',
    ['Q'] = 'Q', ['R'] = 'R', ['S'] = 'S', ['T'] = 'T', ['U'] = 'U', ['V'] = 'V', ['W'] = 'W',
    ['X'] = 'X', ['Y'] = 'Y', ['Z'] = 'Z', ['a'] = 'A', ['b'] = 'B', ['c'] = 'C', ['d'] = 'D',
    ['e'] = 'E', ['f'] = 'F', ['g'] = 'G', ['h'] = 'H', ['i'] = 'I', ['j'] = 'J', ['k'] = 'K',
    ['l'] = 'L', ['m'] = 'M', ['n'] = 'N', ['o'] = 'O', ['p'] = 'P', ['q'] = 'Q', ['r'] = 'R',
    ['s'] = 'S', ['t'] = 'T', ['u'] = 'U', ['v'] = 'V', ['w'] = 'W', ['x'] = 'X', ['y'] = 'Y',
    ['z'] = 'Z',
};

u64 fold_v1(const u8 *input, u64 len, u8 *out, u64 cap) {
  u64 written = 0;
  for (u64 i = 0; i < len; i++) {
    u8 folded = FOLD_TABLE[input[i]];
    if (folded == 0) continue;
    if (written == cap) return cap + 1;
    out[written++] = folded;
  }
  return written;
}

static void keccak(const u8 *bytes, u64 len, u8 *out) {
  SolBytes field = {bytes, len};
  sol_keccak256(&field, 1, out);
}

u64 fold_identity(const u8 *name, u64 name_len, const u8 *ticker, u64 ticker_len, FoldedIdentity *out) {
  out->name_len = fold_v1(name, name_len, out->name, MAX_NAME_LEN);
  out->ticker_len = fold_v1(ticker, ticker_len, out->ticker, MAX_TICKER_LEN);
  if (out->name_len == 0 || out->name_len > MAX_NAME_LEN) return fail(ERR_BadLength);
  if (out->ticker_len < MIN_TICKER_LEN || out->ticker_len > MAX_TICKER_LEN) return fail(ERR_BadLength);
  keccak(out->name, out->name_len, out->name_hash);
  keccak(out->ticker, out->ticker_len, out->ticker_hash);
  return 0;
}
