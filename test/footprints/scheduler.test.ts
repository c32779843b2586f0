/**
 * The batch scheduler (runtime/scheduler.ts): over random batches of filesystem calls on a
 * temporary directory, the concurrent schedule leaves the same files, returns the same results and
 * records the same trace as running the batch sequentially.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { record, runBatch, trusted, type BatchCall, type Occurrence } from "../../runtime";
import { footprint } from "../../runtime/events";
import { appendF, copyF, deleteF, latency, listT, readF, removeT, tree, writeF } from "./fs-tools";

const TOP = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-batch-")));
afterAll(() => fs.rmSync(TOP, { recursive: true, force: true }));
let runs = 0;

const FILES = ["a", "b", "d/x", "d/y", "d/e/z", "./d/../a", "d//x"];
const DIRS = ["d", "d/e", "d/", "."];

/** A call as data: which tool, with which relative arguments. */
type Spec = { tool: "read" | "write" | "append" | "delete" | "copy" | "list" | "remove"; args: string[] };
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
const TOOLS = { read: readF, write: writeF, append: appendF, delete: deleteF, copy: copyF, list: listT, remove: removeT };
const TEXT_ARG = new Set(["write", "append"]);

async function runIn(specs: readonly Spec[], delays: Record<string, number>, sequential: boolean) {
  const root = path.join(TOP, `run-${runs++}`);
  fs.mkdirSync(path.join(root, "d", "e"), { recursive: true });
  fs.writeFileSync(path.join(root, "a"), "A");
  fs.writeFileSync(path.join(root, "d", "x"), "X");
  latency.of = (p) => delays[path.relative(root, p).replace(/\\/g, "/")] ?? 1;
  const calls: BatchCall[] = specs.map((s) => ({
    tool: TOOLS[s.tool],
    // Joined as strings, not with path.join: the aliases (`./d/../a`, `d//x`, `d/`) reach the scheduler as written.
    args: s.args.map((a, i) => (TEXT_ARG.has(s.tool) && i === 1 ? a : `${root}/${a}`)),
  }));
  const { result, trace } = record(() => runBatch(calls, { sequential }));
  const results = await result;
  const rel = (v: unknown) => JSON.parse(JSON.stringify(v ?? null).split(root).join("<root>"));
  return {
    files: await tree(root),
    results: results.map((r) => (r.status === "fulfilled" ? { ok: rel(r.value) } : { error: String(r.reason) })),
    trace: trace.map((o: Occurrence) => rel(o)),
  };
}

describe("runBatch", () => {
  it("concurrent == sequential over random batches of filesystem calls (files, results, trace)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(spec, { minLength: 1, maxLength: 10 }), fc.dictionary(fc.constantFrom("a", "b", "d/x", "d/y", "d/e/z", "d", "d/e", "."), fc.integer({ min: 0, max: 4 })), async (specs, delays) => {
        const concurrent = await runIn(specs, delays, false);
        const sequential = await runIn(specs, delays, true);
        expect(concurrent).toEqual(sequential);
      }),
      { numRuns: 120 },
    );
  });

  it("runs independent calls at once and conflicting ones in submission order", async () => {
    const root = path.join(TOP, "order");
    fs.mkdirSync(root, { recursive: true });
    const log: string[] = [];
    latency.of = () => 20;
    const watch = (name: string, p: Promise<unknown>) => (log.push(`start ${name}`), p.then(() => log.push(`end ${name}`)));
    const w = (name: string) => trusted(footprint({ kind: "path", field: "p", access: "write" }), function (p: string): Promise<unknown> {
      return watch(name, writeF(p, name));
    });
    // Without metadata the runtime reads the declared footprint of a tool without events; the
    // parameter names come from the implementation.
    const one = w("one"), two = w("two"), three = w("three");
    const results = await runBatch([
      { tool: one, args: [path.join(root, "x")] },
      { tool: two, args: [path.join(root, "y")] },
      { tool: three, args: [path.join(root, "x")] },
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
    // one and two overlap; three waits for one (same file), and starts after two started.
    expect(log.indexOf("start two")).toBeLessThan(log.indexOf("end one"));
    expect(log.indexOf("start three")).toBeGreaterThan(log.indexOf("end one"));
    expect(fs.readFileSync(path.join(root, "x"), "utf8")).toBe("three");
  });

  it("a tool without a described footprint is opaque: it runs alone", async () => {
    const log: string[] = [];
    const sleepy = (name: string) => new Promise<void>((r) => setTimeout(() => (log.push(`end ${name}`), r()), 10));
    const opaque = trusted(async function opaque(n: string): Promise<void> {
      log.push(`start ${n}`);
      await sleepy(n);
    });
    await runBatch([{ tool: opaque, args: ["1"] }, { tool: opaque, args: ["2"] }]);
    expect(log).toEqual(["start 1", "end 1", "start 2", "end 2"]);
  });

  it("a wrong-typed argument resolves to opaque and serializes the call", async () => {
    const log: string[] = [];
    const t = trusted(footprint({ kind: "path", field: "p", access: "read" }), async function t(p: unknown): Promise<void> {
      log.push(`start ${String(p)}`);
      await new Promise((r) => setTimeout(r, 10));
      log.push(`end ${String(p)}`);
    });
    await runBatch([{ tool: t, args: ["a"] }, { tool: t, args: [7] }, { tool: t, args: ["b"] }]);
    expect(log.indexOf("start 7")).toBeGreaterThan(log.indexOf("end a"));
    expect(log.indexOf("start b")).toBeGreaterThan(log.indexOf("end 7"));
  });

  it("a failed call is reported in its place and does not stop the others", async () => {
    const boom = trusted(footprint(), async function boom(): Promise<void> {
      throw new Error("boom");
    });
    const results = await runBatch([{ tool: boom, args: [] }, { tool: readF, args: [path.join(TOP, "nothing")] }]);
    expect(results[0]).toMatchObject({ status: "rejected" });
    expect(results[1]).toEqual({ status: "fulfilled", value: "<missing>" });
  });

  it("refuses a value that is not a trusted tool", async () => {
    await expect(runBatch([{ tool: () => 1, args: [] }])).rejects.toThrow(/must be a trusted tool/);
  });
});
