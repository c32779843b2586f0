/**
 * The status of one used library (docs/coverage.md), worst first:
 * - `required-gap`: a required contract the program does not state (or a policy that cannot be applied);
 * - `silent-gap`: the program states no contract of the library and does not list `noGuarantees(library)`;
 * - `recommended-gap`: a recommended contract the program does not state;
 * - `covered`: none of these.
 */
import type { GuaranteeModel } from "../guarantees";
import { libraryOfFile, type Library } from "../manifest";
import type { CoverageUse, LibraryCoverage } from "./types";
import { fieldText, type ResolvedCoverage } from "./declaration";

export function libraryCoverage(
  policy: ResolvedCoverage,
  uses: readonly CoverageUse[],
  guarantees: readonly GuaranteeModel[],
  silencedFiles: readonly string[],
  libraries: readonly Library[],
): LibraryCoverage {
  const { library } = policy;
  const own = guarantees.filter((g) => libraryOfFile(libraries, g.contract.fileName) === library);
  const statedIds = new Set(own.map((g) => g.contract.id));
  const stated = [...new Set(own.map((g) => g.contract.qualifiedName))];
  const noGuarantees = silencedFiles.some((f) => libraryOfFile(libraries, f) === library);
  const required = policy.required.map((c) => ({ contract: c.qualifiedName, stated: statedIds.has(c.id) }));
  const recommended = policy.recommended.map((c) => ({ contract: c.qualifiedName, stated: statedIds.has(c.id) }));
  const problems = policy.problems.map((p) => `${library.manifestPath}: ${fieldText(p.path)}: ${p.problem}`);
  const status =
    problems.length > 0 || required.some((r) => !r.stated) ? "required-gap"
    : own.length === 0 && !noGuarantees ? "silent-gap"
    : recommended.some((r) => !r.stated) ? "recommended-gap"
    : "covered";
  return { library: library.id, title: library.title, status, uses, required, recommended, stated, noGuarantees, problems };
}
