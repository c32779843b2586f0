/**
 * Running the approved program (docs/run.md): inside the receipt's binding (runtime/approval.ts),
 * load the compiled modules from memory, then run the target with the inputs under the runtime
 * backstop (`enforce`): the prefix parts of the guarantees before each trusted call, every
 * guarantee — sums and lower bounds included — when the target returns. Every call the run makes
 * (at load too) is kept as an event log, one JSON object per line, whatever the outcome.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { JsonValue } from "../../core/describe";
import { runApproved, type ApprovalBinding } from "../../runtime/approval";
import { enforce, GuaranteeViolationError, IncompleteRunError, record, traceMark, type Occurrence } from "../../runtime";
import type { ContractSpec } from "../../runtime/spec-data";
import type { CompiledProgram } from "./compile";
import { loadCompiled } from "./load";

export type Execution =
  /** The target returned and every guarantee held on the whole run. */
  | { readonly outcome: "ran"; readonly result: unknown; readonly calls: number; readonly log: string }
  /** A guarantee was broken (before a call, at load, or on the whole run when the target returned). */
  | { readonly outcome: "violated"; readonly message: string; readonly calls: number; readonly log: string }
  /** The program threw (or a call failed, or the program cannot run as asked). */
  | { readonly outcome: "threw"; readonly message: string; readonly calls: number; readonly log: string };

export interface ExecuteInput {
  readonly compiled: CompiledProgram;
  readonly binding: ApprovalBinding;
  readonly target: string;
  readonly inputs: readonly JsonValue[];
  /** Number of guarantees the request lists (describe's count), which the program's `guarantees` must have. */
  readonly guaranteeCount: number;
  /** Where the event log is written. */
  readonly logFile: string;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  try {
    return `threw ${JSON.stringify(error)}`;
  } catch {
    return `threw ${String(error)}`;
  }
}

function violation(error: unknown): GuaranteeViolationError | undefined {
  if (error instanceof GuaranteeViolationError) return error;
  if (error instanceof IncompleteRunError && error.cause instanceof GuaranteeViolationError) return error.cause;
  if (error instanceof IncompleteRunError && error.refusal instanceof GuaranteeViolationError) return error.refusal;
  return undefined;
}

function writeLog(file: string, log: readonly Occurrence[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const lines = log.map((o) => {
    try {
      return JSON.stringify(o.toJSON());
    } catch {
      return JSON.stringify({ unserialisable: String((o as { constructor?: { name?: string } }).constructor?.name) });
    }
  });
  fs.writeFileSync(file, lines.length > 0 ? `${lines.join("\n")}\n` : "");
}

export async function execute(input: ExecuteInput): Promise<Execution> {
  const log: Occurrence[] = [];
  const recorder = { trace: log };
  type Ending = { readonly outcome: "ran"; readonly result: unknown } | { readonly outcome: "violated" | "threw"; readonly message: string };
  const done = (e: Ending): Execution => {
    writeLog(input.logFile, log);
    return { ...e, calls: log.length, log: input.logFile } as Execution;
  };
  return runApproved(input.binding, async () => {
    try {
      // Calls made while the modules load are the run's too (enforce checks them first).
      const mark = traceMark();
      const exports = record(() => loadCompiled(input.compiled), recorder).result;
      const target = exports[input.target];
      if (typeof target !== "function") return done({ outcome: "threw", message: `the program does not export a function ${input.target}` });
      const guarantees = exports.guarantees ?? [];
      if (!Array.isArray(guarantees)) return done({ outcome: "threw", message: "the program's guarantees export is not an array" });
      const counted = guarantees.filter((g: { kind?: unknown }) => g?.kind === "guarantee").length;
      if (counted !== input.guaranteeCount) return done({ outcome: "threw", message: `the program's guarantees hold ${counted} guarantee(s) when it runs, not the ${input.guaranteeCount} that were approved` });
      const run = (): unknown => (target as (...args: unknown[]) => unknown)(...input.inputs);
      Object.defineProperty(run, "name", { value: input.target });
      const enforced = await record(() => enforce(guarantees as ContractSpec[], run, { since: mark }), recorder).result;
      return done({ outcome: "ran", result: await enforced.result });
    } catch (error) {
      const broken = violation(error);
      return done(broken ? { outcome: "violated", message: broken.message } : { outcome: "threw", message: messageOf(error) });
    }
  });
}
