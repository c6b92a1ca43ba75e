/* fold_preview(name: string, ticker: string) -> FoldPreview: the on-chain fold and keys, as return data.
 * A read-only view (no accounts) so clients and tests can compare the program's fold with the API's. */
#include "borsh.h"
#include "errors.h"
#include "fold.h"
#include "instructions.h"

u64 fold_preview(Context *ctx, Reader *args) {
  u64 name_len;
  u64 ticker_len;
  const u8 *name = take_string(args, &name_len);
  const u8 *ticker = take_string(args, &ticker_len);
  if (!reader_done(args)) return fail(ERR_InvalidInstruction);
  FoldedIdentity *identity = &ctx->identity;
  TRY(fold_identity(name, name_len, ticker, ticker_len, identity));
  Writer out = {ctx->scratch, 0, SCRATCH_SIZE};
  put_string(&out, identity->name, identity->name_len);
  put_string(&out, identity->ticker, identity->ticker_len);
  put_bytes(&out, identity->name_hash, 32);
  put_bytes(&out, identity->ticker_hash, 32);
  sol_set_return_data(out.at, out.len);
  return 0;
}
