/**
 * A count or sum with a `where` over the calls of a loop that carries state (core/prover/encode.ts
 * `carriedAggregate`): where the call's own fields decide the filter (a literal address that ends
 * with "@corp"), the loop's ghost count is the filtered count; a filter that depends on the
 * iteration is not counted by the ghosts (a short run may still show a violation). Each verdict
 * was decided from JavaScript's semantics before running the prover; body line 1 is file line 4.
 */
import type { LoopCase } from "./cases";
import { proveLoopCases } from "./run-cases";

const internal = (stop: string, to = '"ops@corp"') => `export const guarantees = [m.internalAtMost(2)];
export function main(names: string[]): void {
  let sent = 0;
  for (const t of names) {
    if (${stop}) break;
    sendEmail(${to}, t);
    sent++;
  }
}`;

const cases: LoopCase[] = [
  { name: "two internal emails at most: the filter holds of every call, so the ghost count is the filtered count", verdict: "proved", body: internal("sent >= 2") },
  { name: "adversarial: one more internal email than the limit", verdict: "violated", line: 9, body: internal("sent > 2") },
  { name: "external emails are not counted: any number of them", verdict: "proved", body: internal("sent > 100", '"ops@example.com"') },
  { name: "adversarial: the filter depends on the element, and a short run shows three internal emails", verdict: "violated", line: 9, body: internal("sent > 2", "t") },
];

proveLoopCases("counts with a where over a loop that carries state", cases);
