// A validation's request id: `dec_` and a time-ordered UUID (RFC 9562 version 7: 48 bits of milliseconds, then
// 74 random bits). The id is the decisions table's primary key. A random (version 4) id puts each record on a
// random page of that index, and after every checkpoint the first change to a page writes the whole page to the
// WAL; ids minted one after another land on the same last page. The record phase of `npm run bench -- validate`
// measures both (docs/performance.md). The spec asks only that the id be unique per validation.
import { v7 as timeOrderedUuid } from "uuid";

export function newDecisionRequestId(): string {
  return `dec_${timeOrderedUuid()}`;
}
