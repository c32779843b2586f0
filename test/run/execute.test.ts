/**
 * Running a compiled program inside a receipt's binding (cli/run/execute.ts), without the CLI: the
 * whole-run guarantees (a lower bound here) are checked when main returns and a violation is the
 * outcome `violated` with the event log kept; a binding whose receipt approves another program
 * refuses every trusted call; calls made while modules load are the run's.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { execute } from "../../cli/run/execute";
import type { CompiledProgram } from "../../cli/run/compile";
import { bindApproval, type BoundDigests } from "../../runtime/approval";

const DIGESTS: BoundDigests = { program: "a".repeat(64), invocation: "b".repeat(64), guarantees: ["c".repeat(64)], layer: "d".repeat(64) };

/** A trusted module (an event, a tool performing it, a lower-bound contract) and an agent program calling the tool `times` times. */
function compiled(atLoad = 0): CompiledProgram {
  const root = "/virtual/project";
  const effects = `${root}/tools/t/trusted/effects.ts`;
  const plan = `${root}/plan.ts`;
  return {
    entry: plan,
    agentModules: new Set([plan]),
    modules: new Map([
      [
        effects,
        `"use strict";
const { trusted } = require("clauz3");
const { Event, performs } = require("clauz3/events");
const { contract } = require("clauz3/spec");
class Sent extends Event { constructor(n) { super(); this.n = n; } }
exports.Sent = Sent;
exports.send = trusted(performs((n) => new Sent(n)), function send(n) { return n; });
exports.atLeastTwo = contract(() => Sent.count().atLeast(2));
`,
      ],
      [
        plan,
        `"use strict";
const t = require("./tools/t/trusted/effects");
for (let i = 0; i < ${atLoad}; i++) t.send(-1);
exports.guarantees = [t.atLeastTwo()];
exports.main = function main(times) { for (let i = 0; i < times; i++) t.send(i); if (times < 0) throw new Error("negative"); return times; };
`,
      ],
    ]),
  };
}

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-execute-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const binding = (claims: BoundDigests = DIGESTS) => bindApproval({ receipt: "receipt", request: "request", claims, expected: DIGESTS, redeemedAt: new Date(0).toISOString() });
const lines = (file: string): unknown[] => fs.readFileSync(file, "utf8").trim().split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as unknown);

describe("executing an approved program", () => {
  it("runs main with the inputs and keeps every call in the event log", async () => {
    const logFile = path.join(tmp, "ran.jsonl");
    const r = await execute({ compiled: compiled(), binding: binding(), target: "main", inputs: [2], guaranteeCount: 1, logFile });
    expect(r).toMatchObject({ outcome: "ran", result: 2, calls: 4 });
    expect(lines(logFile)).toEqual([{ effect: "send", n: 0 }, { event: "Sent", n: 0 }, { effect: "send", n: 1 }, { event: "Sent", n: 1 }]);
  });

  it("a lower bound broken on the whole run is reported when main returns (violated), the log kept", async () => {
    const logFile = path.join(tmp, "violated.jsonl");
    const r = await execute({ compiled: compiled(), binding: binding(), target: "main", inputs: [1], guaranteeCount: 1, logFile });
    expect(r.outcome).toBe("violated");
    expect(r).toMatchObject({ calls: 2, message: "main returned, but the run broke a guarantee: contract: Sent.count() is 1, expected atLeast(2)" });
    expect(lines(logFile)).toHaveLength(2);
  });

  it("calls made while the modules load count toward the run", async () => {
    const r = await execute({ compiled: compiled(1), binding: binding(), target: "main", inputs: [1], guaranteeCount: 1, logFile: path.join(tmp, "load.jsonl") });
    expect(r).toMatchObject({ outcome: "ran", calls: 4 });
  });

  it("main throwing is the outcome threw", async () => {
    const r = await execute({ compiled: compiled(), binding: binding(), target: "main", inputs: [-1], guaranteeCount: 1, logFile: path.join(tmp, "threw.jsonl") });
    expect(r).toMatchObject({ outcome: "threw", message: expect.stringContaining("negative") });
  });

  it("a binding whose receipt approves another program refuses the first trusted call", async () => {
    const logFile = path.join(tmp, "other.jsonl");
    const r = await execute({ compiled: compiled(), binding: binding({ ...DIGESTS, program: "e".repeat(64) }), target: "main", inputs: [2], guaranteeCount: 1, logFile });
    expect(r).toMatchObject({ outcome: "threw", calls: 0, message: expect.stringContaining(`the receipt in force approves program ${"e".repeat(64)}, not ${"a".repeat(64)}`) });
    const identities = await execute({ compiled: compiled(), binding: binding({ ...DIGESTS, guarantees: [] }), target: "main", inputs: [2], guaranteeCount: 1, logFile });
    expect(identities).toMatchObject({ outcome: "threw", message: expect.stringContaining("the receipt in force approves other guarantee identities") });
  });

  it("a program whose guarantees differ in number from the approved ones does not run", async () => {
    const r = await execute({ compiled: compiled(), binding: binding(), target: "main", inputs: [2], guaranteeCount: 2, logFile: path.join(tmp, "count.jsonl") });
    expect(r).toMatchObject({ outcome: "threw", calls: 0, message: "the program's guarantees hold 1 guarantee(s) when it runs, not the 2 that were approved" });
  });
});
