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
import { batches, delayMaps, prepareRun, SPEC_TOOLS, type Spec } from "./fs-batches";
import { latency, readF, writeF } from "./fs-tools";

const TOP = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-batch-")));
afterAll(() => fs.rmSync(TOP, { recursive: true, force: true }));
let runs = 0;

async function runIn(specs: readonly Spec[], delays: Record<string, number>, sequential: boolean) {
  const run = prepareRun(path.join(TOP, `run-${runs++}`), specs, delays);
  const calls: BatchCall[] = specs.map((s, i) => ({ tool: SPEC_TOOLS[s.tool], args: run.args[i]! }));
  const { result, trace } = record(() => runBatch(calls, { sequential }));
  const results = await result;
  return {
    files: await run.files(),
    results: results.map((r) => (r.status === "fulfilled" ? { ok: run.rel(r.value) } : { error: String(r.reason) })),
    trace: trace.map((o: Occurrence) => run.rel(o)),
  };
}

describe("runBatch", () => {
  it("concurrent == sequential over random batches of filesystem calls (files, results, trace)", async () => {
    await fc.assert(
      fc.asyncProperty(batches, delayMaps, async (specs, delays) => {
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
