/**
 * `clauz3 policy-check <program> --policy <file> [--expect auto_approved|auto_rejected|ask]
 * [--json] [--project tsconfig.json] [--rlimit …] [--timeout …] [--program-timeout …]`: what an
 * approval policy (docs/policies.md) decides for a program, as the approval service would decide
 * it: the outcome and the rule that fired, with each rule evaluated and why. Exit 0; 1 when
 * `--expect` names another outcome; 2 for a bad policy (its file and field named), a program that
 * cannot be read, or a bad option — so operators can test their policies in CI.
 */
import * as path from "node:path";
import type { Command } from "commander";
import { evaluatePolicy, PolicyError, proveWithClauses, readPolicyFile, resolvePolicy, type PolicyOutcome, type PolicyOutcomeKind } from "../../core/policy";
import { action, type CliContext } from "../command";
import { helpAfter } from "../format/help";
import { CliError, EXIT, terminalSafe } from "../io";
import { parseSolverOptions, PROGRAM_TIMEOUT_OPTION, RLIMIT_OPTION, TIMEOUT_OPTION, type SolverFlags } from "../options";
import { loadProject, loadTypeScript, verifiedLock } from "../project";
import { shown, warmUpSolver } from "../proofs";

interface Options extends SolverFlags {
  readonly policy?: string;
  readonly expect?: string;
  readonly json?: boolean;
  readonly project?: string;
}

const NAME = "clauz3 policy-check";
const OUTCOMES: readonly PolicyOutcomeKind[] = ["auto_approved", "auto_rejected", "ask"];

function usage(message: string): CliError {
  return new CliError(`${NAME}: ${message}`, EXIT.usage);
}

/** `work`'s result; a bad policy is a usage error naming its file and field (exit 2). */
function checked<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof PolicyError) throw new CliError(`${NAME}: ${error.message}\n(schema: clauz3/schema/policy.schema.json; docs/policies.md)`, EXIT.usage);
    throw error;
  }
}

/** The outcome as text: the decision and its rule, then each rule evaluated. */
function text(program: string, outcome: PolicyOutcome, skipped: number): string {
  const head = outcome.rule === null ? `${program}: ask (no rule fired: a person decides)` : `${program}: ${outcome.outcome} by rule ${JSON.stringify(outcome.rule)}: ${outcome.reason}`;
  const lines = outcome.evaluations.map((e) => `  ${e.fired ? "→" : "·"} ${JSON.stringify(e.rule)} (${e.decision}): ${e.status.replace("_", " ")}${e.fired ? ", fired" : ""}${e.detail ? `: ${e.detail}` : ""}`);
  if (skipped > 0) lines.push(`  (${skipped} later rule${skipped === 1 ? "" : "s"} not evaluated: the first firing rule decides)`);
  return terminalSafe([head, ...lines].join("\n")) + "\n";
}

export default function register(program: Command, context: CliContext): void {
  program
    .command("policy-check")
    .description("what an approval policy decides for a program: auto_approved, auto_rejected or ask (docs/policies.md)")
    .argument("<program>", "the agent program (.ts)")
    .option("--policy <file>", "the policy file (JSON, schema/policy.schema.json; required)")
    .option("--expect <outcome>", "exit 1 unless the outcome is this one: auto_approved, auto_rejected or ask")
    .option("--json", "print the outcome as one JSON object")
    .option("-p, --project <tsconfig>", "the project's tsconfig.json (default: found from the current directory)")
    .option(...RLIMIT_OPTION)
    .option(...TIMEOUT_OPTION)
    .option(...PROGRAM_TIMEOUT_OPTION)
    .addHelpText("after", helpAfter([
      ["clauz3 policy-check plan.ts --policy policy.json", "the outcome and the rule that fired"],
      ["clauz3 policy-check plan.ts --policy policy.json --expect auto_rejected", "exit 1 unless the policy rejects plan.ts (for CI)"],
      ["clauz3 policy-check plan.ts --policy policy.json --json", "the outcome and every rule evaluated, as JSON"],
    ]))
    .action(
      action(context, async (file: string, opts: Options) => {
        const { io } = context;
        if (opts.policy === undefined) throw usage("--policy <file> is required: the approval policy to evaluate");
        if (opts.expect !== undefined && !OUTCOMES.includes(opts.expect as PolicyOutcomeKind)) throw usage(`--expect must be one of ${OUTCOMES.join(", ")}, not ${JSON.stringify(opts.expect)}`);
        const solver = parseSolverOptions(opts);
        const policyFile = opts.policy;
        const policy = checked(() => readPolicyFile(loadTypeScript(io.cwd), path.resolve(io.cwd, policyFile), policyFile));
        warmUpSolver();
        // The whole project: a clause may name any library of the layer, used by the program or not.
        const project = loadProject({ cwd: io.cwd, project: opts.project, extraRoots: [file] });
        verifiedLock(project);
        const { ts, program: tsProgram, layer } = project;
        const full = path.resolve(io.cwd, file);
        const source = tsProgram.getSourceFiles().find((s) => path.resolve(s.fileName) === full);
        const name = shown(full, io.cwd);
        if (!source || !/\.(?:ts|tsx|mts|cts)$/.test(full) || source.isDeclarationFile) throw usage(`${name} is not a TypeScript source file of the project`);
        if (layer.isTrusted(source)) throw usage(`${name} belongs to the trusted layer; a policy decides about agent programs`);
        if (project.unreadable.has(full)) throw usage(`${name} cannot be read: ${project.unreadable.get(full)}`);
        const resolved = checked(() => resolvePolicy(ts, tsProgram.getTypeChecker(), layer.model, policy));
        const host = ts.createCompilerHost(tsProgram.getCompilerOptions(), true);
        host.getCurrentDirectory = () => project.projectDir;
        const outcome = await evaluatePolicy(resolved, (calls) => proveWithClauses({ ts, program: tsProgram, file: source, layer, host, options: project.options, solver }, calls));
        const matches = opts.expect === undefined || opts.expect === outcome.outcome;
        if (opts.json) {
          io.stdout(`${JSON.stringify({ program: name, policy: opts.policy, ...outcome, ...(opts.expect !== undefined ? { expected: opts.expect, matches } : {}) }, null, 2)}\n`);
        } else {
          io.stdout(text(name, outcome, resolved.rules.length - outcome.evaluations.length));
        }
        if (!matches) {
          io.stderr(`${NAME}: expected ${opts.expect}, but the policy's outcome is ${outcome.outcome}\n`);
          return EXIT.failed;
        }
        return EXIT.ok;
      }),
    );
}
