/**
 * Independent verification of a submitted request (docs/approval.md): the service lays the
 * request's sources over its operator's layer (overlay.ts), builds the request itself with
 * `buildRequest` (describe's identities, the lock's fingerprint, the loads Node would follow) and
 * proves the program through the gate, as `clauz3 prove` does. The request verifies only when the
 * program is proved and every digest and identity it states is the one the service computed; what
 * the request says about itself is never taken as verified.
 */
import * as path from "node:path";
import type * as TS from "typescript";
import { buildRequest } from "../core/approval/request";
import { canonicalJson } from "../core/approval/canonical";
import { identityDigest } from "../core/approval/identity";
import { ApprovalRequestError, type ApprovalRequest } from "../core/approval/types";
import { openGate } from "../core/gate";
import { readLayer } from "../core/layer/read";
import { librariesOf } from "../core/manifest";
import type { ProgramVerdict } from "../core/prover/api";
import { isStackOverflow, MAX_NESTING, type BudgetOptions } from "../core/prover/limits";
import { proveProgram } from "../core/prover/prove";
import type { OperatorLayer } from "./layer";
import { libraryProfile, type LibraryProfile } from "./memory/profile";
import { overlayCompilerHost, overlayModuleHost, overlayOf } from "./overlay";
import type { Verification, VerificationProblem } from "./verification";
import { coverageProblems, withCoverage } from "../core/approval/coverage";

/** The export the prover proves, and so the only target a request can be approved for. */
export const PROVED_TARGET = "main";

/** How `submitted` differs from the request the service computed from the same sources. */
export function differences(submitted: ApprovalRequest, computed: ApprovalRequest): VerificationProblem[] {
  const out: VerificationProblem[] = [];
  if (submitted.layer.fingerprint !== computed.layer.fingerprint) {
    out.push({ field: "layer.fingerprint", problem: `is not the fingerprint of the operator's layer (${computed.layer.fingerprint}): the program was described against other trusted files` });
  }
  const loads = (r: ApprovalRequest): string => r.program.imports.map((m) => m.path).join(", ") || "none";
  if (loads(submitted) !== loads(computed)) out.push({ field: "program.imports", problem: `are not the agent modules the program loads (the service found: ${loads(computed)})` });
  if (submitted.program.digest !== computed.program.digest) out.push({ field: "program.digest", problem: `is not the digest the service computed (${computed.program.digest})` });
  if (submitted.guarantees.length !== computed.guarantees.length) {
    out.push({ field: "guarantees", problem: `lists ${submitted.guarantees.length} guarantee(s); the service computed ${computed.guarantees.length}` });
  } else {
    submitted.guarantees.forEach((g, i) => {
      const c = computed.guarantees[i]!;
      if (identityDigest(g) !== identityDigest(c)) out.push({ field: `guarantees[${i}]`, problem: `is not the identity the service computed (identity digest ${identityDigest(c)})` });
      const keys = [...new Set([...Object.keys(g), ...Object.keys(c)])].sort();
      for (const k of keys) {
        const a = (g as unknown as Record<string, unknown>)[k];
        const b = (c as unknown as Record<string, unknown>)[k];
        if (canonicalJson(a ?? null) !== canonicalJson(b ?? null)) out.push({ field: `guarantees[${i}].${k}`, problem: "differs from what the service computed" });
      }
    });
  }
  if (submitted.noGuarantees !== computed.noGuarantees) out.push({ field: "noGuarantees", problem: `is ${submitted.noGuarantees}; the service counted ${computed.noGuarantees}` });
  return out;
}

/** The first result that is not proved, as one sentence. */
function notProved(verdict: ProgramVerdict): string {
  const r = verdict.results.find((x) => x.verdict !== "proved");
  const where = r ? ` at ${path.basename(r.location.fileName)}:${r.location.line}:${r.location.column}` : "";
  return `is ${verdict.verdict} against the operator's layer${r ? `: ${r.kind}${where}: ${r.message}` : ""}`;
}

/**
 * Verify a request that passed `validateRequest`. Throws `ApprovalRequestError` for a source path
 * the service refuses to lay over its layer (nothing is read then); every other failure is a
 * problem of the returned verification.
 */
export async function verifySubmission(layer: OperatorLayer, submitted: ApprovalRequest, solver: BudgetOptions = {}): Promise<Verification> {
  const files = overlayOf(submitted, layer);
  const { ts } = layer;
  const programFile = path.join(layer.dir, ...submitted.program.path.split("/"));
  const host = overlayCompilerHost(layer, files);
  const moduleHost = overlayModuleHost(layer, files);
  let program: TS.Program;
  try {
    program = ts.createProgram({ rootNames: [programFile], options: layer.compilerOptions, host });
  } catch (error) {
    // TypeScript's parser recurses over nesting (cli/project.ts guards the CLI the same way).
    if (!isStackOverflow(error)) throw error;
    return { verified: false, problems: [{ field: "program", problem: `is nested too deeply for TypeScript's parser (the prover's limit is ${MAX_NESTING} levels)` }], verdict: "refused", computed: null };
  }
  const file = program.getSourceFile(programFile);
  if (!file) return { verified: false, problems: [{ field: "program.path", problem: "is not a source file TypeScript reads under the operator's options" }], verdict: null, computed: null };
  const layerResult = readLayer(ts, program, layer.options);
  const libraries = librariesOf(layerResult.model);
  const problems: VerificationProblem[] = [];
  // The prover proves `main` (program-shape.ts): a receipt for another export would approve code nobody proved.
  if (submitted.program.target !== PROVED_TARGET) problems.push({ field: "program.target", problem: `is ${JSON.stringify(submitted.program.target)}, but the prover proves \`${PROVED_TARGET}\`: only \`${PROVED_TARGET}\` can be approved` });

  let computed: ApprovalRequest | null = null;
  let profile: LibraryProfile | undefined;
  try {
    computed = buildRequest({ ts, program, layer: layerResult, file, host: moduleHost, inputs: submitted.inputs, target: submitted.program.target, libraries });
    problems.push(...differences(submitted, computed));
    profile = libraryProfile(ts, program, file, layerResult, moduleHost, computed);
  } catch (error) {
    if (!(error instanceof ApprovalRequestError)) throw error;
    problems.push({ field: error.field, problem: `${error.problem} (when the service built the request against the operator's layer)` });
  }

  const gate = openGate({ ts, program, options: layer.options, layer: layerResult, libraries, programs: [file] });
  if (gate.configurationError) {
    const first = [...gate.configuration, ...gate.findings][0];
    problems.push({ field: "layer", problem: `the operator's layer has a configuration error${first ? `: ${ts.flattenDiagnosticMessageText(first.messageText, " ")}` : ""}` });
  }
  const verdict = gate.decided.get(file) ?? (await proveProgram({ ts, program, file, options: { ...layer.options, ...solver }, host: moduleHost }, layerResult));
  if (verdict.verdict !== "proved") problems.push({ field: "program", problem: notProved(verdict) });
  // Coverage is the service's own, from its proof (docs/coverage.md); a required gap cannot be approved.
  if (computed && verdict.verdict === "proved") {
    computed = withCoverage(computed, verdict, program.getCurrentDirectory());
    problems.push(...coverageProblems(submitted, computed));
  }
  return { verified: problems.length === 0 && computed !== null, problems, verdict: verdict.verdict, computed, ...(profile ? { profile } : {}) };
}
