/**
 * Coverage as JSON documents carry it (`check --json`, approval requests): each use's location is
 * a file path as the document shows paths, with line and column.
 */
import type { CoverageStatus, LibraryCoverage, PolicyContract } from "./types";

export interface CoverageJson {
  readonly library: string;
  readonly title: string;
  readonly status: CoverageStatus;
  readonly uses: readonly { readonly tool: string; readonly location: { readonly file: string; readonly line: number; readonly column: number } }[];
  readonly required: readonly PolicyContract[];
  readonly recommended: readonly PolicyContract[];
  readonly stated: readonly string[];
  readonly noGuarantees: boolean;
  readonly problems: readonly string[];
}

export function coverageJson(list: readonly LibraryCoverage[], shownPath: (fileName: string) => string): CoverageJson[] {
  return list.map((c) => ({
    library: c.library,
    title: c.title,
    status: c.status,
    uses: c.uses.map((u) => ({ tool: u.tool, location: { file: shownPath(u.location.fileName), line: u.location.line, column: u.location.column } })),
    required: c.required.map((r) => ({ ...r })),
    recommended: c.recommended.map((r) => ({ ...r })),
    stated: [...c.stated],
    noGuarantees: c.noGuarantees,
    problems: [...c.problems],
  }));
}
