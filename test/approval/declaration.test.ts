import * as path from "node:path";
import ts from "typescript";
import { openGate } from "../../core/gate";
import { readLayer } from "../../core/layer/read";
import { defaultReadBytes, librariesOf, type ReadBytes } from "../../core/manifest";
import { RULES } from "../../core/rules";
import { createProgram, PROJECT } from "../helpers/program";

/**
 * Rule 93015 across code and manifest: a library whose clauz3.json requires approval says so in
 * every tool module (`requireApproval("<id>")`), and only such a library does (core/gate/approval.ts).
 */
const HEAD = `import { trusted, requireApproval } from "clauz3";\nimport { Event, performs } from "clauz3/events";\n`;
const EVENT = `export class Pay extends Event { constructor(readonly to: string) { super(); } }\n`;
const TOOL = `export const pay = trusted(performs((to: string) => new Pay(to)), function pay(to: string): void {});\n`;
const manifest = (requiresApproval?: boolean) => JSON.stringify({ title: "Payments", summary: "Pay people.", ...(requiresApproval === undefined ? {} : { requiresApproval }) });

function readBytesWith(files: Record<string, string>): ReadBytes {
  return (f) => {
    const rel = path.posix.relative(PROJECT, f);
    return rel in files ? Buffer.from(files[rel]!, "utf8") : f.startsWith(`${PROJECT}/`) ? undefined : defaultReadBytes(f);
  };
}

/** The 93015 diagnostics of a project: `file:line message`. */
function approvalFindings(files: Record<string, string>): string[] {
  const program = createProgram(files);
  const layer = readLayer(ts, program);
  const gate = openGate({ ts, program, layer, libraries: librariesOf(layer.model, readBytesWith(files)) });
  return [...gate.findings, ...gate.programFindings]
    .filter((d) => d.code === RULES.approvalDeclaration.code)
    .map((d) => `${path.posix.relative(PROJECT, d.file!.fileName)}:${d.file!.getLineAndCharacterOfPosition(d.start!).line + 1} ${d.file!.text.slice(d.start!, d.start! + d.length!)} — ${String(d.messageText)}`);
}

describe("requireApproval and the manifest (rule 93015)", () => {
  it("accepts a library that requires approval in its manifest and in every tool module", () => {
    expect(approvalFindings({
      "tools/payments/clauz3.json": manifest(true),
      "tools/payments/trusted/pay.ts": `${HEAD}requireApproval("payments");\n${EVENT}${TOOL}`,
      "tools/payments/trusted/events.ts": `import { Event } from "clauz3/events";\nexport class Refund extends Event { constructor(readonly to: string) { super(); } }\n`,
    })).toEqual([]);
  });

  it("reports a tool module of an approval library without the declaration, on its first tool", () => {
    const found = approvalFindings({ "tools/payments/clauz3.json": manifest(true), "tools/payments/trusted/pay.ts": `${HEAD}${EVENT}${TOOL}` });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^tools\/payments\/trusted\/pay\.ts:4 pay — The manifest of library "payments" requires approval, but this module does not say so in code/);
    expect(found[0]).toContain('Write `requireApproval("payments");` as a top-level statement');
  });

  it("reports a declaration in a library whose manifest does not require approval, or that has no manifest", () => {
    const code = `${HEAD}requireApproval("payments");\n${EVENT}${TOOL}`;
    for (const m of [manifest(false), manifest()]) {
      const found = approvalFindings({ "tools/payments/clauz3.json": m, "tools/payments/trusted/pay.ts": code });
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(/^tools\/payments\/trusted\/pay\.ts:3 requireApproval\("payments"\) — `requireApproval` in library "payments", whose payments\/clauz3\.json does not say `"requiresApproval": true`/);
    }
    const none = approvalFindings({ "tools/payments/trusted/pay.ts": code });
    expect(none).toHaveLength(1);
    expect(none[0]).toContain("which has no valid clauz3.json");
  });

  it("reports a declaration naming another library, on its argument", () => {
    const found = approvalFindings({ "tools/payments/clauz3.json": manifest(true), "tools/payments/trusted/pay.ts": `${HEAD}requireApproval("billing");\n${EVENT}${TOOL}` });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^tools\/payments\/trusted\/pay\.ts:3 "billing" — `requireApproval\("billing"\)` names another library than this module's, "payments"/);
  });

  it("reports the forms the runtime cannot rely on: after a tool, inside a function, twice, without a literal", () => {
    const cases: [string, RegExp][] = [
      [`${HEAD}${EVENT}${TOOL}requireApproval("payments");\n`, /comes after a tool of this module/],
      [`${HEAD}${EVENT}export function later(): void { requireApproval("payments"); }\n${TOOL}`, /is a statement of its own at the top level/],
      [`${HEAD}requireApproval("payments");\nrequireApproval("payments");\n${EVENT}${TOOL}`, /is declared twice/],
      [`${HEAD}const id = "payments";\nrequireApproval(id);\n${EVENT}${TOOL}`, /takes one string literal/],
    ];
    for (const [code, problem] of cases) {
      const found = approvalFindings({ "tools/payments/clauz3.json": manifest(true), "tools/payments/trusted/pay.ts": code });
      expect(found.some((f) => problem.test(f)), `${code}\n${found.join("\n")}`).toBe(true);
    }
  });

  it("is refused in agent code, like the other layer declarations", () => {
    const program = createProgram({
      "tools/payments/clauz3.json": manifest(true),
      "tools/payments/trusted/pay.ts": `${HEAD}requireApproval("payments");\n${EVENT}${TOOL}`,
      "plan.ts": `import { requireApproval } from "clauz3";\nrequireApproval("payments");\nexport const guarantees = [];\nexport function main(): void {}\n`,
    });
    const layer = readLayer(ts, program);
    expect(layer.findings.filter((f) => f.file.fileName.endsWith("plan.ts")).map((f) => f.rule)).toContain("agentDeclaration");
  });
});
