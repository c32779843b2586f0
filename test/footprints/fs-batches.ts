/**
 * Random batches of filesystem calls for the concurrency tests (runtime/scheduler.ts `runBatch`,
 * runtime/in-flight.ts `Promise.all`): calls as data over a few paths and their aliases, the
 * latencies a run gives each path, and a fresh directory per run with the same starting files.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { appendF, copyF, deleteF, latency, listT, readF, removeT, tree, writeF } from "./fs-tools";

const FILES = ["a", "b", "d/x", "d/y", "d/e/z", "./d/../a", "d//x"];
const DIRS = ["d", "d/e", "d/", "."];

/** A call as data: which tool, with which relative arguments. */
export type Spec = { tool: "read" | "write" | "append" | "delete" | "copy" | "list" | "remove"; args: string[] };
const file = fc.constantFrom(...FILES);
const text = fc.constantFrom("1", "2", "3");
const spec: fc.Arbitrary<Spec> = fc.oneof(
  fc.record({ tool: fc.constant("read" as const), args: fc.tuple(file) }),
  fc.record({ tool: fc.constant("write" as const), args: fc.tuple(file, text) }),
  fc.record({ tool: fc.constant("append" as const), args: fc.tuple(file, text) }),
  fc.record({ tool: fc.constant("delete" as const), args: fc.tuple(file) }),
  fc.record({ tool: fc.constant("copy" as const), args: fc.tuple(file, file) }),
  fc.record({ tool: fc.constant("list" as const), args: fc.tuple(fc.constantFrom(...DIRS)) }),
  fc.record({ tool: fc.constant("remove" as const), args: fc.tuple(fc.constantFrom("d/e", "d")) }),
);
/** One to ten calls. */
export const batches = fc.array(spec, { minLength: 1, maxLength: 10 });
/** Milliseconds of latency per path (others: 1). */
export const delayMaps = fc.dictionary(fc.constantFrom("a", "b", "d/x", "d/y", "d/e/z", "d", "d/e", "."), fc.integer({ min: 0, max: 4 }));

export const SPEC_TOOLS: Record<Spec["tool"], (...args: string[]) => Promise<unknown>> = { read: readF, write: writeF, append: appendF, delete: deleteF, copy: copyF, list: listT, remove: removeT };
const TEXT_ARG = new Set(["write", "append"]);

/**
 * The run directory `root`, made with the starting files (`a`, `d/x`, an empty `d/e`), the latency
 * set from `delays`, each call's arguments under it, and what a run leaves there, with the
 * directory's name replaced by `<root>` in any value.
 */
export function prepareRun(root: string, specs: readonly Spec[], delays: Record<string, number>) {
  fs.mkdirSync(path.join(root, "d", "e"), { recursive: true });
  fs.writeFileSync(path.join(root, "a"), "A");
  fs.writeFileSync(path.join(root, "d", "x"), "X");
  latency.of = (p) => delays[path.relative(root, p).replace(/\\/g, "/")] ?? 1;
  return {
    // Joined as strings, not with path.join: the aliases (`./d/../a`, `d//x`, `d/`) reach the tools as written.
    args: specs.map((s) => s.args.map((a, i) => (TEXT_ARG.has(s.tool) && i === 1 ? a : `${root}/${a}`))),
    rel: (v: unknown): unknown => JSON.parse(JSON.stringify(v ?? null).split(root).join("<root>")),
    files: () => tree(root),
  };
}
