// The API's garbage-collection policy. After each major collection V8 sets the next old-generation limit as
// the live heap times a growing factor. Left adaptive, it aims to leave the program 97% of the time, and for a
// process that promotes as little as the API (~1 KB a validation) that gives ~1.3-1.5 times the live heap: a
// major collection every few seconds, each ~20 ms of marking steps on the main thread and a 5-12 ms pause,
// which put a few hundred validations over 15 ms and set the p99 (docs/decisions.md). With a fixed factor of 4,
// V8's own largest, the next one comes only once three times the live heap has been promoted (tens of seconds
// at the validate bench's half rate). The price is memory: the old generation reaches ~4 times its live size
// (~190 MB for the API's ~48 MB) before it is collected.
import { setFlagsFromString } from "node:v8";

/** V8 flags, settable once the process runs: V8 reads the factor at every major collection. */
export const API_HEAP_FLAGS: readonly string[] = ["--heap-growing-percent=300"];

/** Applies the policy to this process (every role it hosts: `npm start` runs them all in one). */
export function applyApiHeapPolicy(): void {
  for (const flag of API_HEAP_FLAGS) setFlagsFromString(flag);
}
