/**
 * Coverage of one agent program (docs/coverage.md): for each library the program uses — a tool
 * named by the library's `coverage.whenUsed` is called on a path the prover finds reachable — which
 * of the library's contracts the program states. Plain JSON: it travels in verdicts (and the proof
 * cache) and in approval requests.
 */
import type { Span } from "../model";

/** Worst first: the order of `COVERAGE_STATUSES` is the order reports and the approval page use. */
export type CoverageStatus = "required-gap" | "silent-gap" | "recommended-gap" | "covered";

export const COVERAGE_STATUSES: readonly CoverageStatus[] = ["required-gap", "silent-gap", "recommended-gap", "covered"];

/** A contract the library's policy names, and whether the program states it. */
export interface PolicyContract {
  /** Library-qualified name (`filesystem.neverWritesOutside`). */
  readonly contract: string;
  readonly stated: boolean;
}

/** A reachable call that makes the program use the library. */
export interface CoverageUse {
  /** Library-qualified tool (`filesystem.writeFile`). */
  readonly tool: string;
  readonly location: Span;
}

export interface LibraryCoverage {
  /** Library identifier (`stdlib:filesystem`, or the domain name). */
  readonly library: string;
  readonly title: string;
  readonly status: CoverageStatus;
  /** The reachable calls that make the program use the library, in program order (one per call site). */
  readonly uses: readonly CoverageUse[];
  readonly required: readonly PolicyContract[];
  readonly recommended: readonly PolicyContract[];
  /** The library-qualified contracts of this library the program states, in `guarantees` order (each once). */
  readonly stated: readonly string[];
  /** The program lists `noGuarantees(library)`. */
  readonly noGuarantees: boolean;
  /** Why the library's policy could not be applied (a required contract that does not exist…): then the status is `required-gap`. */
  readonly problems: readonly string[];
}

/** Worst status first, then by library identifier (deterministic). */
export function sortCoverage(list: readonly LibraryCoverage[]): LibraryCoverage[] {
  return [...list].sort((a, b) => COVERAGE_STATUSES.indexOf(a.status) - COVERAGE_STATUSES.indexOf(b.status) || (a.library < b.library ? -1 : a.library > b.library ? 1 : 0));
}
