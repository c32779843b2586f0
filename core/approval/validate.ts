/**
 * Reading an approval request that arrives as JSON: ajv against
 * `schema/approval-request.schema.json` (strict: every field required, none extra), then the
 * digests the request states are checked against its own contents. A request that fails either
 * gets an `ApprovalRequestError` naming the field. A request that passes is self-consistent, not
 * verified: its identities are the submitter's claims until the service recomputes them.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ErrorObject, ValidateFunction } from "ajv";
import { sha256Hex } from "../lock/digest";
import { createAjv, packageRoot } from "../manifest";
import { layerFingerprint, programDigest } from "./digests";
import { ApprovalRequestError, type ApprovalRequest, type ProgramSource } from "./types";

let validator: ValidateFunction | undefined;

/** The approval request JSON Schema shipped with the package. */
export function approvalRequestSchema(): object {
  return JSON.parse(fs.readFileSync(path.join(packageRoot(), "schema", "approval-request.schema.json"), "utf8")) as object;
}

/** `guarantees[0].library.badge` from an ajv instance path. */
export function fieldOf(pointer: readonly string[]): string {
  if (pointer.length === 0) return "the request";
  return pointer
    .map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? (i === 0 ? s : `.${s}`) : `[${JSON.stringify(s)}]`))
    .join("");
}

function pointerOf(instancePath: string): string[] {
  return instancePath === "" ? [] : instancePath.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The first schema violation as the field concerned and what is wrong with it (`body` names the document: the service's other bodies say what they are). */
export function schemaError(errors: readonly ErrorObject[], body = "an approval request"): ApprovalRequestError {
  const e = errors[0];
  if (!e) return new ApprovalRequestError("the request", body === "an approval request" ? "does not match schema/approval-request.schema.json" : `is not ${body}`);
  const pointer = pointerOf(e.instancePath);
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required":
      return new ApprovalRequestError(fieldOf([...pointer, String(params.missingProperty)]), "is missing");
    case "additionalProperties":
      return new ApprovalRequestError(fieldOf([...pointer, String(params.additionalProperty)]), `is not a field of ${body}`);
    case "const":
      if (body !== "an approval request") return new ApprovalRequestError(fieldOf(pointer), `must be ${JSON.stringify(params.allowedValue)}`);
      return new ApprovalRequestError(fieldOf(pointer), `must be ${JSON.stringify(params.allowedValue)} (this clauz3 reads approval request version 1)`);
    case "enum":
      return new ApprovalRequestError(fieldOf(pointer), `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`);
    case "type":
      return new ApprovalRequestError(fieldOf(pointer), `must be ${String(params.type).replace(",", " or ")}`);
    case "pattern":
      return new ApprovalRequestError(fieldOf(pointer), params.pattern === "^[0-9a-f]{64}$" ? "must be 64 lowercase hex digits" : `must match ${String(params.pattern)}`);
    default:
      return new ApprovalRequestError(fieldOf(pointer), e.message ?? "is invalid");
  }
}

function checkSource(s: ProgramSource, field: string): void {
  const actual = sha256Hex(Buffer.from(s.source, "utf8"));
  if (actual !== s.sha256) throw new ApprovalRequestError(`${field}.sha256`, `is not the SHA-256 of ${field}.source (${actual})`);
}

/** Validate JSON data as an approval request; throws `ApprovalRequestError` naming the first bad field. */
export function validateRequest(data: unknown): ApprovalRequest {
  validator ??= createAjv().compile(approvalRequestSchema());
  if (!validator(data)) throw schemaError(validator.errors ?? []);
  const request = data as ApprovalRequest;
  const { program, layer } = request;
  checkSource(program, "program");
  program.imports.forEach((m, i) => checkSource(m, `program.imports[${i}]`));
  for (let i = 1; i < layer.files.length; i++) {
    if (!(layer.files[i - 1]!.path < layer.files[i]!.path)) throw new ApprovalRequestError(`layer.files[${i}].path`, "must sort after the path before it (files are sorted by path, each once)");
  }
  const fingerprint = layerFingerprint(layer.files);
  if (fingerprint !== layer.fingerprint) throw new ApprovalRequestError("layer.fingerprint", `is not the fingerprint of layer.files (${fingerprint})`);
  const digest = programDigest(program, layer.fingerprint);
  if (digest !== program.digest) throw new ApprovalRequestError("program.digest", `is not the digest of the program's sources and layer (${digest})`);
  return request;
}
