/**
 * The rule table (core/rules.ts) as the CLI shows it: `clauz3 explain`, and the rule metadata of
 * SARIF (name, description, help text, help URI). TypeScript's own codes are not in it.
 */
import { PROOF_RULES, RULES, type RuleExample } from "../../core/rules";
import { COVERAGE_RULES } from "../../core/coverage/rules";

export interface RuleInfo {
  readonly code: number;
  /** `TS93003`: how builds, editors and CI logs print the code. */
  readonly name: string;
  /** Stable kebab-case id (`event-field-argument`). */
  readonly id: string;
  readonly doc: string;
  /** The message template, for trusted-layer rules. */
  readonly message?: string;
  readonly examples: readonly { readonly label: string; readonly example: RuleExample }[];
}

const layerRules: RuleInfo[] = Object.values(RULES).map((r) => ({
  code: r.code,
  name: `TS${r.code}`,
  id: r.id,
  doc: r.doc,
  message: r.message,
  // The lock rules and the two build rules share a placeholder example; it shows nothing.
  examples: r.valid.code === r.invalid.code ? [] : [{ label: "valid", example: r.valid }, { label: "invalid", example: r.invalid }],
}));

const proofRules: RuleInfo[] = PROOF_RULES.map((r) => ({
  code: r.code,
  name: `TS${r.code}`,
  id: r.id,
  doc: r.doc,
  examples: r.example ? [{ label: "example", example: r.example }] : [],
}));

const coverageRules: RuleInfo[] = COVERAGE_RULES.map((r) => ({
  code: r.code,
  name: `TS${r.code}`,
  id: r.id,
  doc: `${r.doc} (${r.severity})`,
  examples: r.example ? [{ label: "example", example: r.example }] : [],
}));

export const ALL_RULES: readonly RuleInfo[] = [...layerRules, ...proofRules, ...coverageRules].sort((a, b) => a.code - b.code);

/** The rule of a clauz3 code; undefined for TypeScript's own codes. */
export function ruleInfo(code: number): RuleInfo | undefined {
  return ALL_RULES.find((r) => r.code === code);
}

/** `TS93003`, `ts93003`, `93003` or `event-field-argument` → its rule. */
export function findRule(query: string): RuleInfo | undefined {
  const q = query.trim().toLowerCase();
  const code = /^(?:ts)?(\d+)$/.exec(q);
  return code ? ruleInfo(Number(code[1])) : ALL_RULES.find((r) => r.id === q);
}

/** The rule as text: what `clauz3 explain` prints, and SARIF's `help.text`. */
export function explainText(rule: RuleInfo): string {
  const lines = [`${rule.name} ${rule.id}`, "", rule.doc];
  if (rule.message) lines.push("", `Message: ${rule.message}`);
  for (const { label, example } of rule.examples) {
    lines.push("", `${label[0]!.toUpperCase()}${label.slice(1)} (${example.file}${label === "invalid" || label === "example" ? ", ⟦…⟧ marks where it is reported" : ""}):`, "");
    lines.push(...example.code.trimEnd().split("\n").map((l) => `    ${l}`));
  }
  return `${lines.join("\n")}\n`;
}

/** The rule as Markdown (SARIF's `help.markdown`). */
export function explainMarkdown(rule: RuleInfo): string {
  const parts = [`**${rule.name}** \`${rule.id}\`: ${rule.doc}`];
  if (rule.message) parts.push(`Message: ${rule.message}`);
  for (const { label, example } of rule.examples) parts.push(`${label} (\`${example.file}\`):\n\n\`\`\`ts\n${example.code.trimEnd()}\n\`\`\``);
  return parts.join("\n\n");
}
