/**
 * Coverage in approval requests (docs/coverage.md): the request `run` builds carries the prover's
 * coverage; the service replaces it with the coverage of its own proof and reports how the
 * submitted one differs. A required gap is a problem of the request: it cannot be approved.
 */
import { canonicalJson } from "./canonical";
import { coverageJson } from "../coverage/json";
import { displayPath } from "../describe";
import type { ProgramVerdict } from "../prover/api";
import type { ApprovalRequest } from "./types";

/** `request` with the coverage of `verdict` (paths shown relative to `projectDir`, as the request shows files). */
export function withCoverage(request: ApprovalRequest, verdict: ProgramVerdict, projectDir: string): ApprovalRequest {
  return { ...request, coverage: coverageJson(verdict.coverage ?? [], (f) => displayPath(f, projectDir)) };
}

/** How the submitted coverage differs from the computed one, and the computed required gaps. */
export function coverageProblems(submitted: ApprovalRequest, computed: ApprovalRequest): { field: string; problem: string }[] {
  const out: { field: string; problem: string }[] = [];
  const mine = computed.coverage ?? [];
  if (submitted.coverage !== null && canonicalJson(submitted.coverage) !== canonicalJson(mine)) {
    out.push({ field: "coverage", problem: `differs from the coverage the service computed (${mine.map((c) => `${c.library}: ${c.status}`).join(", ") || "no used library with a coverage policy"})` });
  }
  for (const c of mine) {
    if (c.status !== "required-gap") continue;
    const missing = c.required.filter((r) => !r.stated).map((r) => r.contract);
    out.push({ field: "coverage", problem: `${c.library} is used but ${missing.length ? `${missing.join(", ")} required by its coverage policy ${missing.length === 1 ? "is" : "are"} not stated` : `its coverage policy cannot be applied (${c.problems.join("; ")})`}` });
  }
  return out;
}
