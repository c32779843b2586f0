/**
 * A library's `coverage` declaration resolved against the layer: its tool and contract export
 * names become the tools and contracts of that library (by declaration, through the library's own
 * files). What cannot be resolved is a problem of the manifest, named by field: reported by the
 * gate on the field in `clauz3.json` (93044), and making the library's status `required-gap` in a
 * program that uses it (fail closed).
 */
import type { Library } from "../manifest";
import { libraryOfFile } from "../manifest";
import type { ContractModel, LayerModel, ToolModel } from "../model";

export interface PolicyProblem {
  /** JSON path segments of the field in the manifest (`["coverage", "required", 0]`). */
  readonly path: readonly (string | number)[];
  readonly problem: string;
}

export interface ResolvedCoverage {
  readonly library: Library;
  /** The tools whose reachable call makes a program use the library. */
  readonly whenUsed: ReadonlySet<ToolModel>;
  readonly required: readonly ContractModel[];
  readonly recommended: readonly ContractModel[];
  readonly problems: readonly PolicyProblem[];
}

/** `coverage.required[0]`: a field path as messages show it. */
export function fieldText(path: readonly (string | number)[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

/** The resolved policy of every library that declares `coverage` (libraries without one have no policy). */
export function resolveCoverage(layer: LayerModel, libraries: readonly Library[]): ResolvedCoverage[] {
  const out: ResolvedCoverage[] = [];
  for (const library of libraries) {
    const declared = library.manifest?.coverage;
    if (!declared) continue;
    const inLibrary = <T extends { fileName: string }>(m: T): boolean => libraryOfFile(libraries, m.fileName) === library;
    const tools = [...layer.tools.values()].filter(inLibrary);
    const contracts = [...layer.contracts.values()].filter(inLibrary);
    const problems: PolicyProblem[] = [];
    const whenUsed = new Set<ToolModel>();
    if (declared.whenUsed === undefined) tools.forEach((t) => whenUsed.add(t));
    declared.whenUsed?.forEach((name, i) => {
      const found = tools.filter((t) => t.name === name);
      if (found.length === 0) problems.push({ path: ["coverage", "whenUsed", i], problem: `\`${name}\` is not a tool of ${library.id}${tools.length ? ` (its tools: ${tools.map((t) => t.name).sort().join(", ")})` : " (it has no tools)"}` });
      found.forEach((t) => whenUsed.add(t));
    });
    const contractsOf = (key: "required" | "recommended"): ContractModel[] => {
      const list: ContractModel[] = [];
      declared[key]?.forEach((name, i) => {
        const found = contracts.filter((c) => c.name === name);
        if (found.length === 0) {
          problems.push({ path: ["coverage", key, i], problem: `\`${name}\` is not a contract of ${library.id}${contracts.length ? ` (its contracts: ${contracts.map((c) => c.name).sort().join(", ")})` : " (it has no contracts)"}` });
          return;
        }
        if (found.length > 1) {
          problems.push({ path: ["coverage", key, i], problem: `\`${name}\` names ${found.length} contracts of ${library.id} (in ${found.map((c) => c.fileName.split("/").pop()).join(", ")}); a policy names one` });
          return;
        }
        const c = found[0]!;
        const needs = c.parameters.filter((p) => !p.node.initializer);
        if (key === "required" && needs.length > 0) {
          problems.push({ path: ["coverage", key, i], problem: `\`${c.qualifiedName}\` needs argument(s) ${needs.map((p) => `\`${p.name}\``).join(", ")}; a required contract is proved as written, so it takes none (move it to \`recommended\`, or give its parameters defaults)` });
          return;
        }
        list.push(c);
      });
      return list;
    };
    const required = contractsOf("required");
    const recommended = contractsOf("recommended");
    out.push({ library, whenUsed, required, recommended, problems });
  }
  return out;
}
