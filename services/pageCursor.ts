// Keyset cursors of the lists that page newest first (partner revenue, disputes): the last row's instant and id,
// opaque to the caller. A page reads rows strictly after the cursor in (instant desc, id desc) order, so rows
// added meanwhile never shift it.
import { ApiError } from "../core/errors/catalogue";

export interface PageKey {
  at: Date;
  id: string;
}

const CURSOR = /^k:(\d{1,15}):([a-z]{2,4}_[0-9a-f]{32})$/;

export function encodeCursor(key: PageKey): string {
  return Buffer.from(`k:${key.at.getTime()}:${key.id}`).toString("base64url");
}

export function decodeCursor(text: string | undefined): PageKey | null {
  if (text === undefined) return null;
  const match = CURSOR.exec(Buffer.from(text, "base64url").toString("utf8"));
  if (match?.[1] === undefined || match[2] === undefined) {
    throw new ApiError(
      "invalid_request",
      "`cursor` is not a cursor this API issued; pass nextCursor unchanged.",
      {
        in: "query",
        issues: [{ path: "cursor", message: "unknown cursor" }],
      },
    );
  }
  return { at: new Date(Number(match[1])), id: match[2] };
}

/** The page (at most `limit` of the `limit + 1` rows read) and the cursor of the next one. */
export function pageOf<T>(
  rows: T[],
  limit: number,
  keyOf: (row: T) => PageKey,
): { rows: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    rows: page,
    nextCursor: rows.length > limit && last !== undefined ? encodeCursor(keyOf(last)) : null,
  };
}
