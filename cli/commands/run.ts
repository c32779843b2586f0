/**
 * `clauz3 run <program> [--target main] [--inputs '<JSON array>'] [--timeout <s>] [--resume <id>] [--json]`:
 * check and prove the program as `check` does, submit its approval request to the approval service,
 * wait for a reviewer's decision, and on an approval verify and redeem the receipt, then compile
 * exactly the approved sources in memory and run the target with the inputs under the runtime
 * backstop bound to the receipt. Exit codes: 0 ran; 1 not proved, threw or broke a guarantee;
 * 2 configuration, service or receipt error; 3 rejected; 4 changes requested; 5 no decision before
 * the timeout (docs/run.md).
 */
import * as path from "node:path";
import type { Command } from "commander";
import type * as TS from "typescript";
import { ApprovalRequestError, bindingOf, buildRequest, type ApprovalRequest } from "../../core/approval";
import type { JsonValue } from "../../core/describe";
import { openGate } from "../../core/gate";
import { action, type CliContext } from "../command";
import { reportJson } from "../format/json";
import { chooseOutput, emitReport, exitCodeOf } from "../format/output";
import { makeReport } from "../format/report";
import { EXIT_CODES_HELP, helpAfter } from "../format/help";
import { CliError, EXIT } from "../io";
import { loadProject, verifiedLock, type Project } from "../project";
import { proveFiles, shown, warmUpSolver } from "../proofs";
import { parseSolverOptions, PROGRAM_TIMEOUT_OPTION, RLIMIT_OPTION } from "../options";
import { bindReceipt, ReceiptBindError } from "../../runtime/approval-bind";
import { statusOf, submit, waitForDecision, ServiceError, type StatusAnswer } from "../run/client";
import { compileApproved, CompileError } from "../run/compile";
import { readRunConfig, RunConfigError, type RunConfig } from "../run/config";
import { EXIT_OF, jsonResult, renderHuman, RUN_RESULT_VERSION, type Outcome, type RunDocument } from "../run/document";
import { execute } from "../run/execute";

interface Options {
  readonly target: string;
  readonly inputs?: string;
  readonly timeout?: string;
  readonly resume?: string;
  readonly json?: boolean;
  readonly project?: string;
  readonly rlimit?: string;
  readonly programTimeout?: string;
}

export const RUN_EXIT_CODES_HELP = `Exit codes of run:
  0  ran: approved, receipt verified and redeemed, main returned and kept every guarantee
  1  not proved (nothing submitted), the program threw, or it broke a guarantee
  2  configuration, usage or service error, or a receipt that does not let this program run
  3  rejected (feedback printed)
  4  changes requested (feedback printed)
  5  no decision before --timeout (the request stays pending; --resume <id>)`;

/** Default wait for a decision, in seconds. */
export const DEFAULT_WAIT_SECONDS = 600;

type Draft = { -readonly [K in keyof RunDocument]?: RunDocument[K] };

export default function register(program: Command, context: CliContext): void {
  const command = program
    .command("run")
    .description("prove an agent program, submit it for approval, and run it once a reviewer approves (docs/run.md)")
    .argument("<program>", "the agent program (.ts) to run")
    .option("--target <name>", "the exported function to run (the approval service approves main only)", "main")
    .option("--inputs <json>", "the target's arguments as one JSON array (default [])")
    .option("--timeout <seconds>", `how long to wait for a decision; 0 submits and returns (default ${DEFAULT_WAIT_SECONDS})`)
    .option("--resume <id>", "wait for (and act on) the decision of a request submitted before, instead of submitting")
    .option("--json", "print one JSON document (schema/run-result.schema.json)")
    .option("-p, --project <tsconfig>", "the project's tsconfig.json (default: found from the current directory)")
    .option(...RLIMIT_OPTION)
    .option(...PROGRAM_TIMEOUT_OPTION);
  // run's own exit codes replace the 0–2 every other command keeps to.
  const examples = helpAfter([
    ["clauz3 run plan.ts --inputs '[\"a\"]'", "submit plan.ts with main's arguments, wait for the decision, run it when approved"],
    ["clauz3 run plan.ts --timeout 0", "submit and return at once (exit 5 while it is pending)"],
    ["clauz3 run plan.ts --resume <id>", "pick up the decision on a request submitted before"],
  ]);
  command.addHelpText("after", examples.replace(EXIT_CODES_HELP, RUN_EXIT_CODES_HELP));
  command.action(
    action(context, async (file: string, opts: Options) => {
      const { io } = context;
      const draft: Draft = { program: file, target: opts.target };
      const finish = (outcome: Outcome, fields: Draft = {}): number => {
        const doc: RunDocument = {
          version: RUN_RESULT_VERSION,
          outcome,
          exitCode: EXIT_OF[outcome],
          program: file,
          target: opts.target,
          requestId: null,
          attached: null,
          status: null,
          decision: null,
          feedback: null,
          receipt: null,
          events: null,
          message: null,
          ...draft,
          ...fields,
        } as RunDocument;
        io.stdout(opts.json ? `${JSON.stringify(doc, null, 2)}\n` : renderHuman(doc));
        return doc.exitCode;
      };
      const fail = (message: string): number => finish("error", { message });

      let inputs: JsonValue[];
      let timeout: number;
      try {
        inputs = parseInputs(opts.inputs);
        timeout = parseTimeout(opts.timeout);
      } catch (error) {
        if (error instanceof CliError) return fail(error.message.replace(/^clauz3: /, ""));
        throw error;
      }
      const solver = parseSolverOptions({ rlimit: opts.rlimit, programTimeout: opts.programTimeout });
      warmUpSolver();
      const abs = path.resolve(io.cwd, file);
      let project: Project;
      let config: RunConfig;
      try {
        project = loadProject({ cwd: io.cwd, project: opts.project, extraRoots: [abs] });
        verifiedLock(project);
        config = readRunConfig(project.projectDir, io.env ?? {});
      } catch (error) {
        if (error instanceof CliError || error instanceof RunConfigError) return fail(error.message.replace(/^clauz3: /, ""));
        throw error;
      }
      const source = project.program.getSourceFiles().find((f) => path.resolve(f.fileName) === abs);
      if (!source) return fail(`${file} is not a TypeScript source file of the project`);
      if (project.layer.isTrusted(source)) return fail(`${file} is a file of the trusted layer, not an agent program`);

      // (a) The gate, exactly as `check` runs it, for this program: anything but proved means no request.
      const { ts, program, layer } = project;
      const gate = openGate({ ts, program, options: project.options, layer, libraries: project.libraries, programs: [source] });
      const inScope = (d: TS.Diagnostic): boolean => !d.file || !layer.agentFiles.includes(d.file) || d.file === source;
      const findings = [...gate.typescript, ...gate.configuration, ...gate.findings].filter(inScope);
      const verdicts = await proveFiles(project, [source], solver, gate);
      const report = makeReport("check", ts, program, io.cwd, findings, verdicts);
      if (gate.configurationError || exitCodeOf(report, undefined) !== EXIT.ok) {
        const outcome: Outcome = gate.configurationError ? "error" : "not-proved";
        const message = gate.configurationError ? "the project's configuration is not valid (see the findings); nothing was submitted" : `${file} is not proved (${verdicts[0]?.verdict ?? "not checked"}); nothing was submitted`;
        if (opts.json) return finish(outcome, { message, check: reportJson(report) });
        // The findings as `check` prints them, then the outcome.
        emitReport(io, chooseOutput({}, io), report);
        return finish(outcome, { message });
      }

      // (b) The request, from the identities describe computes.
      let request: ApprovalRequest;
      try {
        request = buildRequest({ ts, program, layer, file: source, inputs, target: opts.target, libraries: project.libraries, verdict: verdicts[0] });
      } catch (error) {
        if (error instanceof ApprovalRequestError) return fail(`no approval request can be made: ${error.message}`);
        throw error;
      }

      // (c) Submit (or resume), (d) wait.
      let status: StatusAnswer;
      try {
        if (opts.resume !== undefined) {
          status = await statusOf(config.service, opts.resume);
        } else {
          status = await submit(config.service, request);
          draft.attached = status.created === false;
        }
        draft.requestId = status.id;
        // A request the service could not verify can be rejected or sent back, never approved: say why now.
        if (!status.verified && status.status === "pending") io.stderr(`clauz3 run: the service could not verify request ${status.id}, so it cannot be approved: ${status.problems.map((p) => `${p.field} ${p.problem}`).join("; ")}\n`);
        if (status.status === "pending" && timeout > 0) io.stderr(`clauz3 run: waiting up to ${timeout} s for a reviewer's decision on request ${status.id}${draft.attached ? " (attached to the pending request for the same program and inputs)" : ""}\n`);
        status = await waitForDecision(config.service, status, timeout);
      } catch (error) {
        if (error instanceof ServiceError) return fail(error.message);
        throw error;
      }
      draft.status = status.status;
      draft.decision = status.decision;
      switch (status.status) {
        case "pending":
          return finish("pending", { message: `no decision within ${timeout} s; the request stays pending` });
        case "rejected":
          return finish("rejected", { feedback: status.decision?.feedback ?? null, message: "a reviewer rejected the request" });
        case "changes_requested":
          return finish("changes-requested", { feedback: status.decision?.feedback ?? null, message: "a reviewer requested changes" });
        case "approved":
          break;
      }
      if (!status.receipt) return finish("receipt-refused", { receipt: { id: null, redeemed: false, reason: "missing" }, message: "the request is approved but the service returned no receipt" });

      // (e) Verify with the operator's keys, redeem once, then compile and run exactly what was approved.
      let binding;
      try {
        binding = await bindReceipt({ token: status.receipt.token, keys: config.keys, expected: bindingOf(request), service: config.service });
      } catch (error) {
        if (error instanceof ReceiptBindError) {
          return finish("receipt-refused", { receipt: { id: status.receipt.id, redeemed: false, reason: error.reason }, message: `the receipt does not let this program run: ${error.message}` });
        }
        throw error;
      }
      draft.receipt = { id: binding.receipt, redeemed: true, reason: null };
      let compiled;
      try {
        compiled = compileApproved(project, source, request);
      } catch (error) {
        if (error instanceof CompileError) return fail(error.message);
        throw error;
      }
      const logFile = path.join(project.projectDir, ".clauz3", "runs", `${status.id}.jsonl`);
      // A module that cannot load (run/load.ts) or a target that throws is the program's failure: exit 1, log kept.
      const execution = await execute({ compiled, binding, target: opts.target, inputs, guaranteeCount: request.guarantees.length, logFile });
      const events = { count: execution.calls, log: shown(execution.log, io.cwd) };
      if (execution.outcome === "ran") return finish("ran", { result: jsonResult(execution.result), events });
      return finish(execution.outcome, { message: execution.message, events });
    }),
  );
}

/** `--inputs`: one JSON array (default []). */
function parseInputs(text: string | undefined): JsonValue[] {
  if (text === undefined) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(`clauz3: --inputs is not JSON (${(error as Error).message}); give the target's arguments as one JSON array, like '["a", 2]'.`, EXIT.usage);
  }
  if (!Array.isArray(value)) throw new CliError(`clauz3: --inputs must be a JSON array of the target's arguments, like '["a", 2]', not ${text}.`, EXIT.usage);
  return value as JsonValue[];
}

/** `--timeout`: whole seconds ≥ 0. */
function parseTimeout(text: string | undefined): number {
  if (text === undefined) return DEFAULT_WAIT_SECONDS;
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new CliError(`clauz3: --timeout expects whole seconds ≥ 0, not ${JSON.stringify(text)}.`, EXIT.usage);
  return Number(text);
}
