/**
 * `Promise.all` over trusted async calls runs by footprints (runtime/in-flight.ts): over random
 * programs of filesystem calls made at once, the files, results and trace equal those of the same
 * calls awaited one at a time; events are recorded in program order, as the prover models them.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { manifestEventAccess, toolFootprint } from "../../core/footprint/derive";
import { callPairs } from "../../core/prover/commute";
import { record, trusted, type Occurrence } from "../../runtime";
import { footprint } from "../../runtime/events";
import { conflicts, resolveFootprint } from "../../runtime/footprint";
import { createProgram, stdlibFiles } from "../helpers/program";
import { batches, delayMaps, prepareRun, SPEC_TOOLS, type Spec } from "./fs-batches";

const TOP = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-all-")));
afterAll(() => fs.rmSync(TOP, { recursive: true, force: true }));
let runs = 0;

/** Run the calls as a program would: all made at once under `Promise.all`, or awaited one at a time. */
async function runIn(specs: readonly Spec[], delays: Record<string, number>, mode: "all" | "awaited") {
  const run = prepareRun(path.join(TOP, `run-${runs++}`), specs, delays);
  const calls = specs.map((s, i) => () => SPEC_TOOLS[s.tool](...run.args[i]!));
  const program = async (): Promise<unknown[]> => {
    if (mode === "all") return Promise.all(calls.map((call) => call()));
    const out: unknown[] = [];
    for (const call of calls) out.push(await call());
    return out;
  };
  const { result, trace } = record(program);
  const results = await result;
  return { files: await run.files(), results: run.rel(results), trace: trace.map((o: Occurrence) => run.rel(o)) };
}

describe("Promise.all over trusted async calls", () => {
  it("leaves the same files, results and trace as awaiting each call in turn (random programs)", async () => {
    await fc.assert(
      fc.asyncProperty(batches, delayMaps, async (specs, delays) => {
        const all = await runIn(specs, delays, "all");
        const awaited = await runIn(specs, delays, "awaited");
        expect(all).toEqual(awaited);
      }),
      { numRuns: 100 },
    );
  });

  it("runs commuting calls at once and a conflicting one after the call it conflicts with", async () => {
    const root = path.join(TOP, "order");
    fs.mkdirSync(root, { recursive: true });
    const log: string[] = [];
    const slow = (name: string, ms: number) => async (p: string): Promise<void> => {
      log.push(`start ${name}`);
      await new Promise((r) => setTimeout(r, ms));
      fs.writeFileSync(p, name);
      log.push(`end ${name}`);
    };
    const w = (name: string, ms: number) => trusted(footprint({ kind: "path", field: "p", access: "write" }), async function (p: string): Promise<void> {
      return slow(name, ms)(p);
    });
    const one = w("one", 30), two = w("two", 1), three = w("three", 1);
    const { trace, result } = record(() => Promise.all([one(path.join(root, "x")), two(path.join(root, "y")), three(path.join(root, "x"))]));
    await result;
    expect(log.indexOf("start two")).toBeLessThan(log.indexOf("end one"));
    expect(log.indexOf("start three")).toBeGreaterThan(log.indexOf("end one"));
    expect(fs.readFileSync(path.join(root, "x"), "utf8")).toBe("three");
    // Recorded when made: program order, whatever order the calls finished in (two ended first).
    expect(log.indexOf("end two")).toBeLessThan(log.indexOf("end one"));
    expect(trace.map((o) => (o as { tool: unknown }).tool)).toEqual([one, two, three]);
  });

  it("an opaque call waits for every call in flight, and every later call waits for it", async () => {
    const log: string[] = [];
    const step = (name: string) => async (): Promise<void> => {
      log.push(`start ${name}`);
      await new Promise((r) => setTimeout(r, 10));
      log.push(`end ${name}`);
    };
    const reader = trusted(footprint({ kind: "path", field: "p", access: "read" }), async function reader(p: string): Promise<void> {
      return step(`read ${p}`)();
    });
    const opaque = trusted(async function opaque(): Promise<void> {
      return step("opaque")();
    });
    await Promise.all([reader("/r/1"), reader("/r/2"), opaque(), reader("/r/3")]);
    expect(log.slice(0, 2).sort()).toEqual(["start read /r/1", "start read /r/2"]);
    expect(log.indexOf("start opaque")).toBeGreaterThan(Math.max(log.indexOf("end read /r/1"), log.indexOf("end read /r/2")));
    expect(log.indexOf("start read /r/3")).toBeGreaterThan(log.indexOf("end opaque"));
  });

  it("a call awaited before the next is made never waits (one await at a time behaves as before)", async () => {
    const log: string[] = [];
    const opaque = trusted(async function opaque(n: string): Promise<void> {
      log.push(`start ${n}`);
      await new Promise((r) => setTimeout(r, 5));
      log.push(`end ${n}`);
    });
    // Started synchronously, inside the call: not deferred to a later tick.
    const first = opaque("1");
    expect(log).toEqual(["start 1"]);
    await first;
    const second = opaque("2");
    expect(log).toEqual(["start 1", "end 1", "start 2"]);
    await second;
  });

  it("a call made inside a tool's implementation does not wait for that tool", async () => {
    const inner = trusted(async function inner(): Promise<string> {
      return "inner";
    });
    const outer = trusted(async function outer(): Promise<string> {
      return `outer(${await inner()})`;
    });
    expect(await Promise.all([outer(), outer()])).toEqual(["outer(inner)", "outer(inner)"]);
  });
});

describe("the prover's verdicts match the runtime's footprints", () => {
  const ROOT = path.resolve(__dirname, "../..");
  const STDLIB_MANIFEST = fs.readFileSync(path.join(ROOT, "stdlib/filesystem/clauz3.json"));
  const accessOf = manifestEventAccess((f) => (f === "/project/tools/filesystem/clauz3.json" ? STDLIB_MANIFEST : undefined));

  it("for a Promise.all of literal calls, `commute` exactly when the resolved footprints do not conflict", async () => {
    const calls: [string, string[]][] = [
      ["readFileAsync", ["d/a"]], ["writeFileAsync", ["d/./a", "x"]], ["readFileAsync", ["d/b"]],
      ["removeTreeAsync", ["d"]], ["writeFileAsync", ["e/a", "y"]], ["copyAsync", ["e/a", "f/a"]], ["listDirAsync", ["f"]],
    ];
    const body = calls.map(([t, args]) => `fa.${t}(${args.map((a) => JSON.stringify(a)).join(", ")})`).join(",\n    ");
    const source = `import * as fa from "./tools/filesystem/trusted/async.js";
import { noGuarantees } from "clauz3/spec";
export const guarantees = [noGuarantees()];
export async function main(): Promise<void> {
  await Promise.all([
    ${body},
  ]);
}
`;
    const program = createProgram({ ...stdlibFiles(), "plan.ts": source });
    const file = program.getSourceFile("/project/plan.ts")!;
    const result = await callPairs({ ts, program, file }, undefined, accessOf);
    expect(result.refusal).toBeUndefined();
    const { readLayer } = await import("../../core/layer/read");
    const layer = readLayer(ts, program);
    const tools = [...layer.model.tools.values()];
    const resolved = calls.map(([name, args]) => {
      const tool = tools.find((t) => t.name === name)!;
      const named = Object.fromEntries(tool.parameters.map((p, i) => [p.name, args[i]]));
      return resolveFootprint(toolFootprint(layer.model, tool, accessOf), named, TOP);
    });
    let compared = 0;
    for (const p of result.pairs) {
      if (p.first === p.second) continue;
      const runtime = conflicts(resolved[p.first]!, resolved[p.second]!);
      expect(p.verdict, `${result.calls[p.first]!.text} ~ ${result.calls[p.second]!.text}`).toBe(runtime ? "may conflict" : "commute");
      compared++;
    }
    expect(compared).toBe((calls.length * (calls.length - 1)) / 2);
  });
});
