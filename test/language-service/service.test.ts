/**
 * The language service's behaviour over edits, in memory: background proofs keyed by content (no
 * stale verdict), layer edits re-proving open programs, quick info, fallbacks on failure, the
 * scheduler, and reading the layer again only when it changed.
 */
import ts from "typescript";
import { readLayer } from "../../core/layer/read";
import type { Finding } from "../../core/context";
import { readLayerIncrementally } from "../../core/layer/incremental";
import type { ProgramVerdict } from "../../core/prover/api";
import { proveProgram } from "../../core/prover/prove";
import { PROOF_CODES, RULES } from "../../core/rules";
import { EDITOR_HOST_STEPS } from "../../language-service/budget";
import { ProofScheduler, type ProofJob } from "../../language-service/scheduler";
import { harness, HEADER, shown, stdlibFiles } from "./vfs";

const program = (guarded: boolean, comment = "") => HEADER + `export const guarantees = [fs.neverReadUnder("/secrets")];
export function main(path: string): void {
  if (path !== ""${guarded ? ' && !path.startsWith("/secrets")' : ""}) readFile(path);${comment}
}
`;
const VIOLATED = program(false);
const PROVED = program(true);
const proved = (ds: readonly ts.Diagnostic[]) => shown(ds).filter((d) => d.message.startsWith("proved: "));

describe("after an edit", () => {
  it("shows no verdict of the old text until the new text is proved", async () => {
    const h = harness({ ...stdlibFiles(), "plan.ts": VIOLATED });
    const plan = h.at("plan.ts");
    expect(shown(await h.settledSemantic("plan.ts")).map((d) => d.code)).toEqual([PROOF_CODES.violated]);

    h.edit("plan.ts", PROVED);
    // Right after the edit: the violation of the old text is gone, and nothing is claimed proved yet.
    expect(shown(h.ls.getSemanticDiagnostics(plan))).toEqual([]);
    expect(proved(h.ls.getSuggestionDiagnostics(plan))).toEqual([]);
    expect(h.scheduler.busy).toBe(true);
    await h.refreshed();
    expect(shown(h.ls.getSemanticDiagnostics(plan))).toEqual([]);
    expect(proved(h.ls.getSuggestionDiagnostics(plan))).toHaveLength(1);

    // Back to a text proved before: its verdict is cached by content and shown at once.
    const started = h.scheduler.started;
    h.edit("plan.ts", VIOLATED);
    expect(shown(h.ls.getSemanticDiagnostics(plan)).map((d) => d.code)).toEqual([PROOF_CODES.violated]);
    expect(h.scheduler.started).toBe(started);
  });

  it("proves only the latest text of a burst of edits", async () => {
    const h = harness({ ...stdlibFiles(), "plan.ts": VIOLATED });
    const plan = h.at("plan.ts");
    h.ls.getSemanticDiagnostics(plan);
    for (let i = 0; i < 5; i++) {
      h.edit("plan.ts", program(i % 2 === 0, ` // ${i}`));
      h.ls.getSemanticDiagnostics(plan);
    }
    const last = program(true, " // 5");
    h.edit("plan.ts", last);
    expect(shown(await h.settledSemantic("plan.ts"))).toEqual([]);
    expect(proved(await h.settledSuggestions("plan.ts"))).toHaveLength(1);
    // Only the last text: each earlier one was abandoned by the next edit before its proof started.
    expect(h.scheduler.started).toBe(1);
  });

  it("re-proves an open program when a trusted layer file it depends on changes", async () => {
    const h = harness({ ...stdlibFiles(), "plan.ts": PROVED });
    const plan = h.at("plan.ts");
    expect(shown(await h.settledSemantic("plan.ts"))).toEqual([]);
    expect(proved(await h.settledSuggestions("plan.ts"))).toHaveLength(1);

    // The contract now also forbids reading /tmp/x, which the program may do.
    const contracts = "tools/filesystem/trusted/contracts.ts";
    const before = h.text(contracts);
    const after = before.replace("Read.all((e) => !e.path.startsWith(prefix)),", 'Read.all((e) => !e.path.startsWith(prefix) && e.path !== "/tmp/x"),');
    expect(after).not.toBe(before);
    const refreshed = h.refreshed();
    h.edit(contracts, after);
    // The operator reviewed the change and pinned it (an unpinned layer file refuses the program instead).
    h.relock();
    // The client asks for the edited file's diagnostics; the open program is re-proved in the background.
    h.ls.getSemanticDiagnostics(h.at(contracts));
    await refreshed;
    const now = shown(h.ls.getSemanticDiagnostics(plan));
    expect(now.map((d) => [d.code, d.span])).toEqual([[PROOF_CODES.violated, "readFile(path)"]]);
    expect(now[0]!.message).toContain('path="/tmp/x"');
    expect(proved(h.ls.getSuggestionDiagnostics(plan))).toEqual([]);
  });
});

describe("quick info on a contract call in guarantees", () => {
  it("shows the qualified call, the sentence, the symbol and the current verdict, after TypeScript's own", async () => {
    const h = harness({ ...stdlibFiles(), "plan.ts": PROVED });
    const plan = h.at("plan.ts");
    const at = PROVED.indexOf("neverReadUnder(") + 3;
    const text = (info: ts.QuickInfo | undefined) => ts.displayPartsToString(info?.documentation);

    const pending = h.ls.getQuickInfoAtPosition(plan, at);
    expect(text(pending)).toContain("Verdict: proving…");
    await h.settledSemantic("plan.ts");
    const info = h.ls.getQuickInfoAtPosition(plan, at)!;
    const original = h.env.languageService.getQuickInfoAtPosition(plan, at)!;
    expect(info.displayParts).toEqual(original.displayParts);
    expect(info.textSpan).toEqual(original.textSpan);
    expect(text(info)).toBe(
      [
        '**clauz3 guarantee** `filesystem.neverReadUnder(prefix="/secrets")`',
        'No filesystem tool reads a path starting with "/secrets".',
        "Symbol: `tools/filesystem/trusted/contracts#neverReadUnder`",
        "Verdict: proved",
        "---",
        ts.displayPartsToString(original.documentation),
      ].join("\n\n"),
    );
    // On the argument too; elsewhere the quick info is TypeScript's.
    expect(text(h.ls.getQuickInfoAtPosition(plan, PROVED.indexOf('"/secrets"') + 2))).toContain("Verdict: proved");
    const elsewhere = PROVED.indexOf("readFile(path)") + 2;
    expect(h.ls.getQuickInfoAtPosition(plan, elsewhere)).toEqual(h.env.languageService.getQuickInfoAtPosition(plan, elsewhere));
  });

  it("shows the first JSDoc paragraph of a contract without a description, and a violation", async () => {
    const extra = `import { contract, type ContractSpec } from "clauz3/spec";
import { Read } from "./events";
/**
 * The program reads nothing at all.
 *
 * Not even one file.
 */
export const readsNothing = contract((): ContractSpec => Read.empty());
`;
    const plan = HEADER.replace("contracts\";", "contracts\";\nimport * as more from \"./tools/filesystem/trusted/extra\";") + `export const guarantees = [more.readsNothing()];
export function main(path: string): void {
  if (path !== "") readFile(path);
}
`;
    const h = harness({ ...stdlibFiles(), "tools/filesystem/trusted/extra.ts": extra, "plan.ts": plan });
    await h.settledSemantic("plan.ts");
    const doc = ts.displayPartsToString(h.ls.getQuickInfoAtPosition(h.at("plan.ts"), plan.indexOf("readsNothing()") + 1)?.documentation);
    expect(doc).toContain("**clauz3 guarantee** `filesystem.readsNothing()`\n\nThe program reads nothing at all.\n\nSymbol: `tools/filesystem/trusted/extra#readsNothing`\n\nVerdict: violated: filesystem.readsNothing() is violated");
    expect(doc).toContain("Counterexample: main(path=");
  });
});

describe("failures", () => {
  it("leave TypeScript's results unchanged, and are logged", async () => {
    const faults = new Set(["getSemanticDiagnostics", "getSuggestionDiagnostics", "getQuickInfoAtPosition"]);
    const h = harness({ ...stdlibFiles(), "plan.ts": VIOLATED + "const n: number = 'x';\n" }, { faults });
    const plan = h.at("plan.ts");
    const ls = h.env.languageService;
    expect(h.ls.getSemanticDiagnostics(plan)).toEqual(ls.getSemanticDiagnostics(plan));
    expect(h.ls.getSemanticDiagnostics(plan).map((d) => d.code)).toEqual([2322]);
    expect(h.ls.getSuggestionDiagnostics(plan)).toEqual(ls.getSuggestionDiagnostics(plan));
    const at = VIOLATED.indexOf("neverReadUnder(") + 3;
    expect(h.ls.getQuickInfoAtPosition(plan, at)).toEqual(ls.getQuickInfoAtPosition(plan, at));
    expect(h.errors.map((e) => e.split(":")[0])).toEqual(["getSemanticDiagnostics", "getSemanticDiagnostics", "getSuggestionDiagnostics", "getQuickInfoAtPosition"]);
    // Other methods are the original's.
    expect(h.ls.getCompletionsAtPosition(plan, VIOLATED.indexOf("readFile(path)"), {})?.entries.length).toBeGreaterThan(0);
  });

  it("of the prover fail closed: an error on the program, never a silent pass", async () => {
    const h = harness({ ...stdlibFiles(), "plan.ts": PROVED });
    // Replace the proof with one that throws, as a bug in the prover would.
    const request = h.scheduler.request.bind(h.scheduler);
    h.scheduler.request = (job) => request({ ...job, prove: () => Promise.reject(new Error("boom")) });
    const ours = shown(await h.settledSemantic("plan.ts"));
    expect(ours).toEqual([expect.objectContaining({ code: RULES.internalError.code, span: "guarantees", category: "Error" })]);
    expect(ours[0]!.message).toContain("boom");
    expect(proved(h.ls.getSuggestionDiagnostics(h.at("plan.ts")))).toEqual([]);
  });

  it("of the configuration are shown on every file, and nothing is proved", () => {
    const h = harness({ ...stdlibFiles(), "plan.ts": PROVED }, { config: { trustedRoots: "tools/**" as unknown as string[] } });
    const ours = shown(h.ls.getSemanticDiagnostics(h.at("plan.ts")));
    expect(ours).toHaveLength(1);
    expect(ours[0]!.message).toContain('option "trustedRoots" must be an array of non-empty glob strings');
    expect(h.scheduler.started).toBe(0);
  });
});

it("uses the trustedRoots option like the transformer", async () => {
  const layer = Object.fromEntries(Object.entries(stdlibFiles()).map(([k, v]) => [k.replace("tools/filesystem/trusted/", "lib/fs/"), v]));
  const plan = PROVED.replaceAll("./tools/filesystem/trusted/", "./lib/fs/");
  const h = harness({ ...layer, "plan.ts": plan }, { config: { trustedRoots: ["lib/**"] } });
  expect(shown(await h.settledSemantic("plan.ts"))).toEqual([]);
  expect(proved(await h.settledSuggestions("plan.ts")).map((d) => d.message)).toEqual(['proved: No filesystem tool reads a path starting with "/secrets".']);
});

describe("the scheduler", () => {
  const verdict: ProgramVerdict = { file: "p.ts", verdict: "proved", results: [] };
  const job = (key: string, slot: string, log: string[], current = () => true): ProofJob => ({
    key,
    slot,
    prove: async () => {
      log.push(`start ${key}`);
      await new Promise((r) => setTimeout(r, 20));
      return verdict;
    },
    isCurrent: current,
    onSettled: () => log.push(`settled ${key} for ${slot}`),
  });

  it("never proves one key twice, even for two requesters", async () => {
    const s = new ProofScheduler();
    const log: string[] = [];
    expect(s.request(job("k", "a", log))).toBeUndefined();
    expect(s.request(job("k", "b", log))).toBeUndefined();
    expect(s.request(job("k", "a", log))).toBeUndefined();
    while (s.busy) await new Promise((r) => setTimeout(r, 5));
    expect(log).toEqual(["start k", "settled k for a", "settled k for b"]);
    expect(s.request(job("k", "c", log))).toEqual({ verdict });
    expect(s.started).toBe(1);
  });

  it("skips a waiting proof whose content is no longer current", async () => {
    const s = new ProofScheduler();
    const log: string[] = [];
    s.request(job("k1", "a", log));
    s.request(job("k2", "b", log, () => false));
    while (s.busy) await new Promise((r) => setTimeout(r, 5));
    expect(log).toEqual(["start k1", "settled k1 for a"]);
  });
});

describe("reading the layer again", () => {
  it("reuses the trusted part while only agent files change, and reads it again when a trusted file changes", () => {
    const h = harness({ ...stdlibFiles(), "plan.ts": PROVED, "other.ts": "export const y = 1;\n" });
    const p1 = h.env.languageService.getProgram()!;
    const l1 = readLayerIncrementally(ts, p1, {}, undefined);
    expect(l1.reused).toBe(false);
    h.edit("plan.ts", PROVED.replace("export function main", "import { performs } from \"clauz3/events\";\nexport const x = performs;\nexport function main"));
    const p2 = h.env.languageService.getProgram()!;
    expect(p2).not.toBe(p1);
    const l2 = readLayerIncrementally(ts, p2, {}, l1);
    expect(l2.reused).toBe(true);
    expect(l2.model).toBe(l1.model);
    // Per file, the same findings as reading everything again.
    const fresh = readLayer(ts, p2);
    const view = (fs: readonly Finding[]) => fs.map((f) => [f.file.fileName, f.start, f.length, f.rule, f.message]);
    for (const file of p2.getSourceFiles()) expect(view(l2.findingsOf(file))).toEqual(view(fresh.findings.filter((f) => f.file === file)));
    expect(l2.findingsOf(p2.getSourceFile(h.at("plan.ts"))!).some((f) => f.rule === "agentDeclaration")).toBe(true);
    expect(l2.agentFiles).toEqual(fresh.agentFiles);
    const forPlan = l2.forProgram(p2.getSourceFile(h.at("plan.ts"))!);
    expect(view(forPlan.findings.filter((f) => f.file.fileName === h.at("plan.ts")))).toEqual(view(fresh.findings.filter((f) => f.file.fileName === h.at("plan.ts"))));

    h.edit("tools/filesystem/trusted/contracts.ts", h.text("tools/filesystem/trusted/contracts.ts") + "\n");
    const p3 = h.env.languageService.getProgram()!;
    const l3 = readLayerIncrementally(ts, p3, {}, l2);
    expect(l3.reused).toBe(false);
    expect(l3.model).not.toBe(l2.model);
    // Other options: read again.
    expect(readLayerIncrementally(ts, p3, { trustedRoots: ["tools/**"] }, l3).reused).toBe(false);
    expect(readLayerIncrementally(ts, p3, {}, l3).model).toBe(l3.model);
  });
});

describe("a program whose symbolic execution is long", () => {
  // 20 000 unrolled iterations: more steps than the editor runs at once, far fewer than the CLI's cap.
  const UNROLLED = HEADER + `export const guarantees = [fs.neverReadUnder("/secrets")];
export function main(path: string): void {
  for (let i = 0; i < 200; i++) {
    for (let j = 0; j < 100; j++) {
      if (i === j + 1000) readFile("/secrets/key");
    }
  }
  if (path !== "" && !path.startsWith("/secrets")) readFile(path);
}
`;

  it("is refused in the editor with the budget's code on `main`, where clauz3 check, without the editor's cap, proves it", async () => {
    const h = harness({ ...stdlibFiles(), "plan.ts": UNROLLED });
    const ours = shown(await h.settledSemantic("plan.ts"));
    expect(ours).toEqual([expect.objectContaining({ code: PROOF_CODES.budget, span: "main", category: "Error" })]);
    expect(ours[0]!.message).toContain(`more than the ${EDITOR_HOST_STEPS} steps the editor runs at once`);
    expect(ours[0]!.message).toContain("run `clauz3 check`");
    expect(proved(h.ls.getSuggestionDiagnostics(h.at("plan.ts")))).toEqual([]);
    expect(h.scheduler.stats.steps).toBe(1);
    const program = h.ls.getProgram()!;
    const verdict = await proveProgram({ ts, program, file: program.getSourceFile(h.at("plan.ts"))! });
    expect(verdict.verdict).toBe("proved");
  });
});
