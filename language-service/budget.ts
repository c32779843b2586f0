/**
 * The editor budgets: how much solver time one program's proof may use in the editor (plugin
 * option `editorBudgetMs`), and how many steps its symbolic execution of `main` may take on the
 * editor's thread in one piece ({@link EDITOR_HOST_STEPS}), before it is stopped and refused with
 * code 93085 on `main`. `clauz3 check` has neither (only its own `--program-timeout`), so the
 * refusal sends the user there. docs/editor.md.
 */
import type * as TS from "typescript";
import type { ProgramVerdict } from "../core/prover/api";
import type { BudgetSpent } from "./scheduler";
import { PROOF_CODES } from "../core/rules";
import { spanOf } from "../core/span";

/** Default editor budget (ms of solver time per program). */
export const DEFAULT_EDITOR_BUDGET_MS = 10_000;
/**
 * Steps of symbolic execution (exec/caps.ts, as EXEC_STEP_LIMIT counts them) one run of `main` may
 * take in the editor. It runs on tsserver's thread in one piece: at 3–17 µs a step on the bench
 * machine, 25 000 steps hold the editor for a tenth to four tenths of a second, where the CLI's cap
 * (400 000) held it for several seconds (two nested loops of 150 unrolled iterations). The largest
 * program of the corpus takes 650 steps.
 */
export const EDITOR_HOST_STEPS = 25_000;

/** The option's problem, or undefined when it is absent or valid. */
export function editorBudgetProblem(value: unknown): string | undefined {
  if (value === undefined || (typeof value === "number" && Number.isFinite(value) && value >= 1)) return undefined;
  return `clauz3/language-service could not start: option "editorBudgetMs" must be a number of milliseconds of at least 1 (for example 10000), got ${JSON.stringify(value) ?? String(value)}. Nothing was checked. Fix the option in compilerOptions.plugins.`;
}

/** `main`'s name (the function or the const), else the first statement, else the file. */
function mainNode(ts: typeof TS, file: TS.SourceFile): TS.Node {
  for (const stmt of file.statements) {
    if (ts.isFunctionDeclaration(stmt) && stmt.name?.text === "main") return stmt.name;
    if (ts.isVariableStatement(stmt)) {
      for (const d of stmt.declarationList.declarations) if (ts.isIdentifier(d.name) && d.name.text === "main") return d.name;
    }
  }
  return file.statements[0] ?? file;
}

/** The verdict of a program whose proof spent an editor budget: refused, one result on `main`. */
export function budgetVerdict(ts: typeof TS, file: TS.SourceFile, spent: BudgetSpent): ProgramVerdict {
  const why =
    "solverMs" in spent
      ? `the proof used the editor budget of ${spent.solverMs} ms of solver time without a verdict; raise it with the plugin option "editorBudgetMs"`
      : `its symbolic execution takes more than the ${spent.hostSteps} steps the editor runs at once on its own thread; unrolled loops count every iteration`;
  const message = `refused: could not decide within the editor budget — run \`clauz3 check\` (${why}). The program is not proved.`;
  return { file: file.fileName, verdict: "refused", results: [{ kind: "guarantee", verdict: "refused", code: PROOF_CODES.budget, location: spanOf(mainNode(ts, file)), message }] };
}
