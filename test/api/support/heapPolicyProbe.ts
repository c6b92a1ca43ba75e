// Run by heapPolicy.test.ts with --expose-gc and --trace-gc-verbose: applies the API's heap policy (argument
// "policy") or not ("adaptive"), then runs two major collections a second apart, each after the live heap
// grew, so V8 sets two old-generation limits (the second from measured speeds) and prints their factors.
import { applyApiHeapPolicy } from "../../../api/heapPolicy";

const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined) throw new Error("run with --expose-gc");
if (process.argv[2] === "policy") applyApiHeapPolicy();
const live: object[] = [];
const grow = () => {
  for (let index = 0; index < 100_000; index += 1) live.push({ index });
};
grow();
collect();
setTimeout(() => {
  grow();
  collect();
  process.stdout.write(`live ${live.length}\n`);
}, 1_000);
