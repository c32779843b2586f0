import { check, isPrefixClosed } from "./check";
import { GuaranteeViolationError } from "./errors";
import type { Occurrence } from "./occurrence";
import { record } from "./recorder";
import type { ContractSpec } from "./spec-data";

/**
 * Run `body` under the runtime backstop: before each trusted call's implementation runs, the
 * guarantees that can be checked on a prefix of the run (all, empty, distinct, sharesValue,
 * count().atMost/lessThan) are evaluated on the trace plus the call's events; a violation throws
 * `GuaranteeViolationError` and the call does not happen. The prover's proof is the primary
 * defence; this catches a layer whose implementation differs from what was proved.
 */
export function enforce<R>(guarantees: readonly ContractSpec[], body: () => R): { result: R; trace: Occurrence[] } {
  const enforced = guarantees.filter(isPrefixClosed);
  return record(body, {
    trace: [],
    before(tool, occurrences, trace) {
      const next = [...trace, ...occurrences];
      for (const g of enforced) {
        const [violation] = check(g, next);
        if (violation) throw new GuaranteeViolationError(tool, violation.contract, violation.message);
      }
    },
  });
}
