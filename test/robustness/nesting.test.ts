/**
 * Deep nesting (the outside review: 700 levels of parentheses crashed `prove` with a stack trace
 * and no JSON for any file). A program nested deeper than MAX_NESTING is refused on the node where
 * the limit is crossed, before anything recurses over it; a program just within it is proved; and
 * a stack overflow anywhere in one proof refuses that program only.
 */
import ts from "typescript";
import { MAX_NESTING } from "../../core/prover/limits";
import type { ProgramVerdict } from "../../core/prover/api";
import { proveProgram } from "../../core/prover/prove";
import { PROOF_CODES } from "../../core/rules";
import { createProgram, PROJECT, stdlibFiles } from "../helpers/program";
import { TEST_LAYER } from "../prover/layer";
import { IMPORTS } from "../prover/prove-helpers";
import { deep, failures, proveOne } from "./helpers";

describe("programs nested beyond the limit are refused on the node, before execution", () => {
  it.each(Object.entries(deep))("%s, 700 levels", async (_kind, make) => {
    const v = await proveOne(make(700));
    expect(v.verdict).toBe("refused");
    const refusal = v.results.find((r) => r.message.includes(`nested more than ${MAX_NESTING} levels`));
    expect(refusal, failures(v).join("\n")).toBeDefined();
    expect(refusal!.code).toBe(PROOF_CODES.refused);
    expect(refusal!.message).toMatch(/name intermediate values with `const`/);
    // on the node inside `main` where the limit is crossed (IMPORTS take two lines, the guarantee one)
    expect(refusal!.location.line).toBeGreaterThanOrEqual(4);
  });

  it("deep nesting inside a guarantee argument is refused too", async () => {
    const nested = `${"[".repeat(300)}"a@corp.com"${"]".repeat(300)}`;
    const v = await proveOne(`export const guarantees = [m.onlyTo(${nested})];\nexport function main(): void {}\n`);
    expect(v.verdict).toBe("refused");
    expect(failures(v).join("\n")).toMatch(new RegExp(`nested more than ${MAX_NESTING} levels`));
  });
});

describe("programs within the limit are proved as before", () => {
  it.each([
    ["parentheses", deep.parentheses(150)],
    ["concatenation", deep.concatenation(40)],
    ["ifs", deep.ifs(40)],
    ["blocks", deep.blocks(150)],
  ])("%s", async (_kind, program) => {
    const v = await proveOne(program);
    expect(failures(v).filter((m) => m.startsWith("refused"))).toEqual([]);
  });

  it("a violation within the limit is still found", async () => {
    const v = await proveOne(deep.parentheses(150).replace('if (x !== "boss@corp.com") ', ""));
    expect(v.verdict).toBe("violated");
  });
});

describe("a stack overflow while proving one program refuses that program only", () => {
  const body = `export const guarantees = [m.neverEmail("boss@corp.com")];\nexport function main(to: string): void {\n  if (to !== "boss@corp.com") sendEmail(to, "hi");\n}\n`;
  const fresh = () => {
    const program = createProgram({ ...stdlibFiles(), "tools/mail/trusted/layer.ts": TEST_LAYER, "plan.ts": IMPORTS + body });
    return { program, file: program.getSourceFile(`${PROJECT}/plan.ts`)! };
  };

  /**
   * Prove with most of the stack used up, leaving less and less until the proof itself runs out
   * (how many frames it needs depends on the engine's frame sizes, so the spare room is searched).
   */
  async function starvedProof(): Promise<ProgramVerdict> {
    const room = (d: number): number => {
      try {
        return room(d + 1);
      } catch {
        return d;
      }
    };
    const depth = room(0);
    for (const spare of [4000, 2000, 1000, 500, 250, 120, 60, 30]) {
      const { program, file } = fresh();
      const descend = (d: number): Promise<ProgramVerdict> => (d <= 0 ? proveProgram({ ts, program, file }) : descend(d - 1));
      let pending: Promise<ProgramVerdict>;
      try {
        pending = descend(depth - spare);
      } catch {
        continue; // the descent itself ran out: leave more room
      }
      const v = await pending;
      if (v.results.some((r) => /ran out of stack/.test(r.message))) return v;
    }
    throw new Error("no amount of spare stack made the proof run out");
  }

  it("refuses the program with a message about nesting, and the next program is proved", async () => {
    const starved = await starvedProof();
    expect(starved.verdict).toBe("refused");
    expect(starved.results).toHaveLength(1);
    expect(starved.results[0]!.message).toMatch(/^refused: proving this program ran out of stack .*nested too deeply/);
    expect(starved.results[0]!.code).toBe(PROOF_CODES.refused);
    // A fresh program (the starved one's type checker may hold half-computed types) proves normally.
    const { program, file } = fresh();
    expect((await proveProgram({ ts, program, file })).verdict).toBe("proved");
  });
});
