/**
 * Skills for agents: what a trusted library offers an agent (its tools, its contracts, how to call
 * them), read from the layer model — the libraries' TypeScript syntax and types, never executed —
 * and sample programs generated from the tools' and contracts' signatures. Which sample is shown
 * is decided by proving the candidates (cli/skills.ts): this module only writes them.
 */
import * as path from "node:path";
import type * as TS from "typescript";
import type { Library } from "../manifest";
import type { ContractModel, LayerModel, ParameterModel, ToolModel, ValueType } from "../model";
import { showValueType } from "../types";

/** Version of the `clauz3 tools --json` layout (schema/tools.schema.json). */
export const TOOLS_FORMAT = "clauz3-tools/1";

/** At most this many candidate programs are proved per library before the search gives up. */
export const MAX_SAMPLE_CANDIDATES = 24;

export interface SkillTool {
  readonly name: string;
  readonly qualifiedName: string;
  /** `readFile(path: string): string`; a tool of named arguments shows its one object. */
  readonly signature: string;
  readonly summary: string | undefined;
  readonly async: boolean;
  /** The events the tool performs, `Read(path), Write(path=dest)`; empty when it performs none. */
  readonly performs: string;
  /** The messages (or predicate texts) of its `requires` preconditions. */
  readonly requires: readonly string[];
  /** Module specifier of the file that exports it, relative to the project directory. */
  readonly module: string;
}

export interface SkillContract {
  readonly name: string;
  readonly qualifiedName: string;
  /** `filesystem.neverReadUnder(prefix: string)` */
  readonly signature: string;
  /** The sentence template (`description`), undefined when the contract has none. */
  readonly template: string | undefined;
  readonly summary: string | undefined;
  readonly module: string;
}

/** A sample program that the prover proved (cli/skills.ts): one contract, one tool call. */
export interface SkillSample {
  readonly program: string;
  readonly contract: string;
  readonly tool: string;
  /** The guarantee's sentence as the prover rendered it. */
  readonly sentence: string | undefined;
}

export interface Skill {
  readonly library: Library;
  readonly tools: readonly SkillTool[];
  readonly contracts: readonly SkillContract[];
  /** The proved sample, or why there is none. */
  readonly sample: SkillSample | { readonly problem: string };
}

/** A candidate sample: the program text and what it calls under which contract. */
export interface SampleCandidate {
  readonly program: string;
  readonly contract: string;
  readonly tool: string;
}

/**
 * `./tools/filesystem/trusted/effects.js` for a file of the project, from the project directory.
 * With the `.js` extension, which every module resolution maps to the `.ts` source and which
 * `node16`/`nodenext` ES modules require.
 */
export function moduleSpecifier(projectDir: string, fileName: string): string {
  const rel = path.relative(projectDir, fileName).replace(/\\/g, "/").replace(/\.(d\.)?([cm]?)tsx?$/, ".$2js");
  return rel.startsWith("../") ? rel : `./${rel}`;
}

function parameterText(p: ParameterModel): string {
  return `${p.rest ? "..." : ""}${p.name}${p.optional ? "?" : ""}: ${p.typeText}${p.defaultText !== undefined ? ` = ${p.defaultText}` : ""}`;
}

function toolSignature(t: ToolModel): string {
  const params = t.objectParameter ? `${t.objectParameter.name}: ${t.objectParameter.typeText}` : t.parameters.map(parameterText).join(", ");
  const result = showValueType(t.returnType);
  return `${t.name}(${params}): ${t.async ? `Promise<${result}>` : result}`;
}

function performsText(layer: LayerModel, tool: ToolModel): string {
  return (tool.performs?.events ?? [])
    .map((e) => {
      const fields = Object.entries(e.fields).map(([field, param]) => (field === param ? field : `${field}=${param}`));
      return `${layer.events.get(e.eventId)?.name ?? e.eventId}(${fields.join(", ")})`;
    })
    .join(", ");
}

/** A JavaScript identifier for a library's namespace import: `web-search` → `web_search`. */
export function namespaceName(domain: string): string {
  const n = domain.replace(/[^A-Za-z0-9_$]/g, "_");
  return /^[A-Za-z_$]/.test(n) ? n : `_${n}`;
}

function inLibrary(library: Library, fileName: string): boolean {
  return library.files.some((f) => f.fileName === fileName);
}

/** The tools and contracts of one library, in source order (file, then position). */
export function libraryEntries(layer: LayerModel, library: Library): { tools: ToolModel[]; contracts: ContractModel[] } {
  const order = (a: { fileName: string; declaration: { getStart(): number } }, b: { fileName: string; declaration: { getStart(): number } }): number =>
    a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : a.declaration.getStart() - b.declaration.getStart();
  return {
    tools: [...layer.tools.values()].filter((t) => inLibrary(library, t.fileName)).sort(order),
    contracts: [...layer.contracts.values()].filter((c) => inLibrary(library, c.fileName)).sort(order),
  };
}

/** What the skill says about a library's tools and contracts (everything but the sample). */
export function describeEntries(layer: LayerModel, library: Library, projectDir: string): { tools: SkillTool[]; contracts: SkillContract[] } {
  const { tools, contracts } = libraryEntries(layer, library);
  const ns = namespaceName(library.domain);
  return {
    tools: tools.map((t) => ({
      name: t.name,
      qualifiedName: t.qualifiedName,
      signature: toolSignature(t),
      summary: t.summary,
      async: t.async,
      performs: performsText(layer, t),
      requires: t.requires.map((r) => r.message ?? r.node.getText()),
      module: moduleSpecifier(projectDir, t.fileName),
    })),
    contracts: contracts.map((c) => ({
      name: c.name,
      qualifiedName: c.qualifiedName,
      signature: `${ns}.${c.name}(${c.parameters.map(parameterText).join(", ")})`,
      template: c.template?.text,
      summary: c.summary,
      module: moduleSpecifier(projectDir, c.fileName),
    })),
  };
}

/**
 * The words a candidate's strings are made of. A contract's bounds are generous (10) and a tool's
 * amounts small (1), so `atMost(n)` holds of one call; a contract's strings are either the tool's
 * word (`same`) or `"other"`, so both `only(x)` and `never(x)` shapes have a candidate that holds.
 */
interface Words {
  /** The tool's strings: `"example"`, or a variant its precondition asks for (`"https://example"`). */
  readonly tool: string;
  readonly role: "tool" | "same" | "other";
}

/** A literal of a type, or undefined when none can be written. */
function literalOf(t: ValueType, words: Words, needs: Set<string>): string | undefined {
  const word = words.role === "other" ? "other" : words.tool;
  switch (t.kind) {
    case "string": return JSON.stringify(word);
    case "number": return words.role === "tool" ? "1" : "10";
    case "boolean": return "true";
    case "FilePath":
      needs.add("FilePath");
      return `FilePath(${JSON.stringify(`${word}.txt`)})`;
    case "DirectoryPath":
      needs.add("DirectoryPath");
      return `DirectoryPath(${JSON.stringify(word)})`;
    case "array": {
      const e = literalOf(t.element, words, needs);
      return e === undefined ? undefined : `[${e}]`;
    }
    case "record": {
      const fields = t.fields.map((f) => [f.name, literalOf(f.type, words, needs)] as const);
      return fields.some(([, v]) => v === undefined) ? undefined : `{ ${fields.map(([n, v]) => `${n}: ${v}`).join(", ")} }`;
    }
    default: return undefined;
  }
}

/** Arguments of a call: required parameters only (optional and defaulted ones are left out). */
function argumentsOf(params: readonly ParameterModel[], words: Words, needs: Set<string>, objectForm: boolean): string | undefined {
  const given = params.filter((p) => !p.optional && p.defaultText === undefined && !p.rest);
  const values = given.map((p) => literalOf(p.type, words, needs));
  if (values.some((v) => v === undefined)) return undefined;
  if (objectForm) return `{ ${given.map((p, i) => `${p.name}: ${values[i]}`).join(", ")} }`;
  return values.join(", ");
}

const WORD = "example";

/**
 * The words to try for a tool's strings: `"example"`, then, for each string literal its
 * preconditions mention (`url.startsWith("https://")`, `name.endsWith(".csv")`), the word with
 * that literal in front and behind, so a tool that only takes https URLs still gets a call that
 * meets its precondition. Which one holds is left to the prover.
 */
function toolWords(ts: typeof TS, tool: ToolModel): string[] {
  const literals: string[] = [];
  const visit = (n: TS.Node): void => {
    if ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) && n.text !== "" && !literals.includes(n.text)) literals.push(n.text);
    ts.forEachChild(n, visit);
  };
  for (const r of tool.requires) visit(r.fn.body);
  const words = [WORD, ...literals.flatMap((l) => [`${l}${WORD}`, `${WORD}${l}`])];
  return [...new Set(words)];
}

/**
 * Candidate samples for a library, most likely to be proved first: contracts with fewer
 * parameters first, tools that perform events before those that perform none, synchronous tools
 * before asynchronous ones, plain words before those a precondition asks for. Each calls one tool
 * once under one contract.
 */
export function sampleCandidates(ts: typeof TS, layer: LayerModel, library: Library, projectDir: string): SampleCandidate[] {
  const { tools, contracts } = libraryEntries(layer, library);
  const ns = namespaceName(library.domain);
  const toolRank = (t: ToolModel): number => (t.performs && t.performs.events.length > 0 ? 0 : 2) + (t.async ? 1 : 0);
  const orderedTools = [...tools].sort((a, b) => toolRank(a) - toolRank(b)).map((t) => ({ tool: t, words: toolWords(ts, t) }));
  const orderedContracts = [...contracts].sort((a, b) => a.parameters.length - b.parameters.length);
  const out: SampleCandidate[] = [];
  for (const c of orderedContracts) {
    const roles = c.parameters.some((p) => /string|Path/.test(showValueType(p.type))) ? (["same", "other"] as const) : (["same"] as const);
    for (const role of roles) {
      for (const { tool: t, words } of orderedTools) {
        for (const word of words) {
          const needs = new Set<string>();
          const contractArgs = argumentsOf(c.parameters, { tool: word, role }, needs, false);
          const toolArgs = argumentsOf(t.parameters, { tool: word, role: "tool" }, needs, t.objectParameter !== undefined);
          if (contractArgs === undefined || toolArgs === undefined) continue;
          const lines: string[] = [];
          if (needs.size > 0) lines.push(`import { ${[...needs].sort().join(", ")} } from "clauz3";`);
          lines.push(`import * as ${ns} from "${moduleSpecifier(projectDir, c.fileName)}";`);
          lines.push(`import { ${t.name} } from "${moduleSpecifier(projectDir, t.fileName)}";`);
          lines.push("", `export const guarantees = [${ns}.${c.name}(${contractArgs})];`, "");
          const call = `${t.name}(${toolArgs})`;
          if (t.async) lines.push("export async function main(): Promise<void> {", `  await ${call};`, "}");
          else lines.push("export function main(): void {", `  ${call};`, "}");
          const program = `${lines.join("\n")}\n`;
          // A tool with no string parameter gives the same program for every word.
          if (!out.some((o) => o.program === program)) out.push({ program, contract: c.qualifiedName, tool: t.qualifiedName });
        }
      }
    }
  }
  return out;
}

/** The skill as an agent reads it: a SKILL.md with a name and description (front matter) and the reference. */
export function renderSkill(skill: Skill): string {
  const { library } = skill;
  const summary = library.manifest?.summary ?? `The ${library.domain} library (it has no manifest).`;
  const yaml = (s: string): string => JSON.stringify(s);
  const lines = [
    "---",
    `name: ${yaml(`clauz3-${library.domain}`)}`,
    `description: ${yaml(`${library.title}: ${summary}`)}`,
    "---",
    "",
    `# ${library.title} (\`${library.id}\`)`,
    "",
    summary,
    "",
    "An agent program is a TypeScript module that exports `guarantees` (the contracts it keeps) and",
    "`main` (what it does, calling the tools below). `clauz3 check <program>` proves every guarantee",
    "before the program may run; a program that leaves the prover's subset is refused, with a",
    "message saying what to write instead.",
    "",
    "## Tools",
    "",
  ];
  for (const t of skill.tools) {
    lines.push(`- \`${t.signature}\` from \`${t.module}\`${t.summary ? ` — ${t.summary}` : ""}`);
    if (t.performs) lines.push(`  - performs ${t.performs}`);
    for (const r of t.requires) lines.push(`  - requires: ${r}`);
  }
  if (skill.tools.length === 0) lines.push("(none)");
  lines.push("", "## Contracts", "", `Import them as \`import * as ${namespaceName(library.domain)} from "<module>"\` and list calls with literal arguments in \`guarantees\`.`, "");
  for (const c of skill.contracts) {
    lines.push(`- \`${c.signature}\` from \`${c.module}\`${c.template ? ` — “${c.template}”` : c.summary ? ` — ${c.summary}` : ""}`);
  }
  if (skill.contracts.length === 0) lines.push("(none)");
  lines.push("", "## A proved program", "");
  if ("problem" in skill.sample) {
    lines.push(`No sample program: ${skill.sample.problem}`);
  } else {
    const s = skill.sample;
    lines.push(
      `It calls \`${s.tool}\` under \`${s.contract}\`${s.sentence ? ` (“${s.sentence}”)` : ""}. \`clauz3 skills\` proved it`,
      "against the library's source when it wrote this file (module paths are relative to the project directory).",
      "",
      "```ts agent proved",
      s.program.trimEnd(),
      "```",
    );
  }
  return `${lines.join("\n")}\n`;
}

/** The skill as JSON (`clauz3 tools --json`, schema/tools.schema.json). */
export function skillJson(skill: Skill): Record<string, unknown> {
  const { library } = skill;
  return {
    id: library.id,
    domain: library.domain,
    title: library.title,
    summary: library.manifest?.summary ?? null,
    badge: library.manifest?.badge ?? null,
    tools: skill.tools.map((t) => ({ ...t, summary: t.summary ?? null })),
    contracts: skill.contracts.map((c) => ({ ...c, template: c.template ?? null, summary: c.summary ?? null })),
    sample: "problem" in skill.sample ? null : { ...skill.sample, sentence: skill.sample.sentence ?? null },
    sampleProblem: "problem" in skill.sample ? skill.sample.problem : null,
  };
}
