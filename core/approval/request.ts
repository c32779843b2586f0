/**
 * Building the approval request of one agent program (docs/approval.md). Every identity comes from
 * `describeProgram` (what `describe` prints), every digest of the layer from its verified lock:
 * nothing is recomputed another way. A program whose guarantees are not all literal contract calls,
 * whose layer is not exactly what its lock pins, or whose loads are refused gets no request.
 */
import type * as TS from "typescript";
import type { TypeScript } from "../context";
import { describeProgram, displayPath, type JsonValue } from "../describe";
import type { LayerResult } from "../layer/read";
import { coverageJson } from "../coverage/json";
import type { ProgramVerdict } from "../prover/api";
import { runtimeLoads, type ModuleHost } from "../layer/loads";
import { sha256Hex, verifyLock, type Lock } from "../lock";
import type { Library, ReadBytes } from "../manifest";
import { jsonProblem } from "./canonical";
import { inputsProblem } from "./inputs";
import { layerFingerprint, programDigest } from "./digests";
import { APPROVAL_REQUEST_VERSION, ApprovalRequestError, type ApprovalRequest, type ProgramSource, type RequestLayer } from "./types";
import { validateRequest } from "./validate";

export interface RequestInput {
  readonly ts: TypeScript;
  readonly program: TS.Program;
  readonly layer: LayerResult;
  /** The agent program. */
  readonly file: TS.SourceFile;
  /** Where Node finds the modules the program loads (default `ts.sys`; an in-memory system in tests), as the prover takes it. */
  readonly host?: ModuleHost;
  /** The target's arguments: must be a JSON array. */
  readonly inputs: unknown;
  /** The exported function to run; default `main`. */
  readonly target?: string;
  readonly libraries?: readonly Library[];
  readonly readBytes?: ReadBytes;
  /** The program's verdict (proved), whose coverage the request carries (docs/coverage.md); without it `coverage` is null. */
  readonly verdict?: ProgramVerdict;
}

/** The layer part of a request, from a verified lock (sorted by path, so the same lock gives the same fingerprint). */
export function requestLayerOf(lock: Lock): RequestLayer {
  const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  const files = [...lock.files].sort(([a], [b]) => compare(a, b)).map(([p, f]) => ({ path: p, sha256: f.sha256 }));
  const libraries = [...lock.libraries].sort(([a], [b]) => compare(a, b)).map(([directory, l]) => ({ directory, id: l.id, origin: l.origin, revision: l.revision }));
  return { fingerprint: layerFingerprint(files), files, libraries };
}

/** A source file as the request carries it. */
export function sourceOf(file: TS.SourceFile, projectDir: string, readBytes?: ReadBytes): ProgramSource {
  return { path: displayPath(file.fileName, projectDir, readBytes), source: file.text, sha256: sha256Hex(Buffer.from(file.text, "utf8")) };
}

/** Build and validate the approval request of `input.file`; throws `ApprovalRequestError` naming what stops it. */
export function buildRequest(input: RequestInput): ApprovalRequest {
  const { ts, program, layer, file } = input;
  const target = input.target ?? "main";
  if (layer.isTrusted(file)) throw new ApprovalRequestError("program", "is a file of the trusted layer, not an agent program");
  if (!Array.isArray(input.inputs)) throw new ApprovalRequestError("inputs", "must be a JSON array (the target's arguments in order)");
  const inputs = input.inputs as unknown[];
  const notJson = jsonProblem(inputs, "inputs");
  if (notJson) throw new ApprovalRequestError(notJson.field, notJson.problem);

  const lock = verifyLock(ts, program, layer.isTrusted);
  if (lock.state !== "ok" || !lock.lock) {
    throw new ApprovalRequestError("layer", `is not pinned: ${lock.state === "missing" ? `no lock at ${lock.lockPath} (run \`clauz3 lock\`)` : `${lock.lockPath} is not valid${lock.error ? ` (${lock.error.field} ${lock.error.problem})` : ""}`}`);
  }
  const first = lock.findings[0];
  if (first) throw new ApprovalRequestError("layer", `does not match its lock: ${first.message}${lock.findings.length > 1 ? ` (and ${lock.findings.length - 1} more)` : ""}`);
  const layerPart = requestLayerOf(lock.lock);

  const description = describeProgram({ ts, program, layer: layer.model, file, libraries: input.libraries, readBytes: input.readBytes });
  const refusal = description.refusals[0];
  if (refusal) throw new ApprovalRequestError("guarantees", `cannot be described: ${refusal.message}`);

  const loads = runtimeLoads(ts, program, file, layer.isTrusted, input.host ?? ts.sys);
  if (loads.refusal) throw new ApprovalRequestError("program", `loads a module it may not: ${loads.refusal.message}`);
  // The proof is about inputs of `main`'s declared types: other values get no request (inputs.ts).
  const mistyped = target === "main" ? inputsProblem(ts, program.getTypeChecker(), file, inputs as JsonValue[]) : undefined;
  if (mistyped) throw new ApprovalRequestError(mistyped.field, mistyped.problem);
  const projectDir = program.getCurrentDirectory();
  const main = sourceOf(file, projectDir, input.readBytes);
  const imports = loads.agentModules.filter((m) => m !== file).map((m) => sourceOf(m, projectDir, input.readBytes));

  const request: ApprovalRequest = {
    version: APPROVAL_REQUEST_VERSION,
    program: { ...main, target, imports, digest: programDigest({ ...main, imports }, layerPart.fingerprint) },
    layer: layerPart,
    guarantees: description.guarantees,
    noGuarantees: description.noGuarantees,
    inputs: inputs as JsonValue[],
    coverage: input.verdict ? coverageJson(input.verdict.coverage ?? [], (f) => displayPath(f, projectDir, input.readBytes)) : null,
  };
  // The request leaves this process as JSON: it must be what the schema and the digests say.
  return validateRequest(request);
}
