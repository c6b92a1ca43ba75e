// Import cycles among project files: strongly connected components of the import graph (type-only imports
// included, since a type cycle still ties the files' meaning together), each named by one cycle through it.
import type { ImportEdge } from "./importGraph";

export interface ImportCycle {
  /** Every file of the strongly connected component, sorted. */
  files: string[];
  /** One shortest cycle through the component's first file, ending where it starts. */
  cycle: string[];
}

/** Each strongly connected component of more than one file (or a file importing itself), with one cycle. */
export function importCycles(edges: readonly ImportEdge[]): ImportCycle[] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    if (edge.kind !== "file") continue;
    const targets = next.get(edge.from) ?? [];
    targets.push(edge.to);
    next.set(edge.from, targets);
  }
  return components(next)
    .filter((files) => files.length > 1 || next.get(files[0] as string)?.includes(files[0] as string))
    .map((files) => ({ files, cycle: cycleWithin(new Set(files), next) }));
}

/** Tarjan's strongly connected components, iteratively (the graph is deep enough to matter for recursion). */
function components(next: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let counter = 0;
  for (const root of [...next.keys()].sort()) {
    if (index.has(root)) continue;
    const work: { file: string; position: number }[] = [{ file: root, position: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { file: string; position: number };
      const targets = next.get(frame.file) ?? [];
      if (frame.position < targets.length) {
        const target = targets[frame.position++] as string;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ file: target, position: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.file, Math.min(low.get(frame.file) as number, index.get(target) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent)
        low.set(parent.file, Math.min(low.get(parent.file) as number, low.get(frame.file) as number));
      if (low.get(frame.file) === index.get(frame.file)) {
        const component: string[] = [];
        let file: string;
        do {
          file = stack.pop() as string;
          onStack.delete(file);
          component.push(file);
        } while (file !== frame.file);
        found.push(component.sort());
      }
    }
  }
  return found;
}

/** A shortest cycle from the component's first file back to itself (breadth first inside the component). */
function cycleWithin(members: ReadonlySet<string>, next: ReadonlyMap<string, readonly string[]>): string[] {
  const start = [...members].sort()[0] as string;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const target of next.get(file) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [file];
        while (path[0] !== start) path.unshift(previous.get(path[0] as string) as string);
        return [...path, start];
      }
      if (!previous.has(target)) {
        previous.set(target, file);
        queue.push(target);
      }
    }
  }
  return [start];
}
