/**
 * Broken projects, each with the real cause `clauz3 check` must report (file:line and code) and
 * its exit code, plus clean ones. Shared by broken.test.ts (the causes) and agreement.test.ts
 * (`prove`, `check` and `tspc` agree on each).
 */
import { layerFiles, planFile, tsconfig, type Files, type ProjectSpec } from "./projects";

const NODE16 = { module: "node16", moduleResolution: "node16" };

export interface Case {
  readonly name: string;
  readonly spec: ProjectSpec;
  /** The agent programs (`prove` is run on these). */
  readonly programs: readonly string[];
  /** `check`'s exit code. */
  readonly exit: 0 | 1 | 2;
  /** `file:line TScode` lines `check` must report (the real cause first). */
  readonly causes: readonly string[];
  /** Codes that must not appear (findings that would be consequences of the cause). */
  readonly never?: readonly number[];
  /** Whether `tspc` can run at all (it loads the plugin from node_modules/clauz3). */
  readonly tspc?: boolean;
}

function node16(files: Files = {}): Files {
  return { "tsconfig.json": tsconfig(NODE16), ...layerFiles(), "plan.ts": planFile(), ...files };
}

/** The layer-rule codes: none of them may be a consequence of an import that does not resolve. */
const RULE_CODES = [93001, 93002, 93003, 93004, 93005, 93006, 93007, 93008, 93009, 93010, 93011, 93012, 93013, 93014];

export const CASES: readonly Case[] = [
  {
    name: "clean",
    spec: { files: node16() },
    programs: ["plan.ts"],
    exit: 0,
    causes: [],
  },
  {
    name: "type error in an agent program",
    spec: { files: node16({ "plan.ts": planFile("", "  const label: string = 42;\n  if (invoice.length > 0 && label) pay(invoice, 10);\n") }) },
    programs: ["plan.ts"],
    exit: 1,
    causes: ["plan.ts:7 TS2322", "plan.ts:7 TS93104"],
  },
  {
    name: "type error in a trusted file",
    spec: {
      files: node16({
        "tools/payments/trusted/effects.ts": layerFiles()["tools/payments/trusted/effects.ts"]!.replace("function pay(invoice: string, amount: number): void {}", 'function pay(invoice: string, amount: number): void {\n    const cents: number = "100";\n  }'),
      }),
    },
    programs: ["plan.ts"],
    exit: 1,
    causes: ["tools/payments/trusted/effects.ts:10 TS2322", "plan.ts:4 TS93104"],
  },
  {
    name: "invalid library manifest",
    spec: { files: node16({ "tools/payments/clauz3.json": `{"title":"Payments","badge":"real","summery":"typo"}\n` }) },
    programs: ["plan.ts"],
    exit: 1,
    causes: ["tools/payments/clauz3.json:1 TS93023", "tools/payments/clauz3.json:1 TS93023", "tools/payments/clauz3.json:1 TS93023"],
  },
  {
    name: "invalid library manifest on its line",
    spec: { files: node16({ "tools/payments/clauz3.json": `{\n  "title": "Payments",\n  "summary": "Charge invoices.",\n  "badge": "real"\n}\n` }) },
    programs: ["plan.ts"],
    exit: 1,
    causes: ["tools/payments/clauz3.json:4 TS93023"],
  },
  {
    name: "clauz3 not installed",
    spec: { files: node16(), withoutClauz3: true },
    programs: ["plan.ts"],
    exit: 2,
    causes: ["tools/payments/trusted/contracts.ts:1 TS2307", "tools/payments/trusted/effects.ts:1 TS2307", "tools/payments/trusted/effects.ts:2 TS2307", "tools/payments/trusted/events.ts:1 TS2307"],
    never: RULE_CODES,
    tspc: false,
  },
  {
    name: "nodenext import without .js",
    spec: {
      files: {
        "package.json": `{ "type": "module" }\n`,
        "tsconfig.json": tsconfig({ module: "nodenext", moduleResolution: "nodenext" }),
        ...layerFiles(".js"),
        "tools/payments/trusted/effects.ts": layerFiles(".js")["tools/payments/trusted/effects.ts"]!.replace('"./events.js"', '"./events"'),
        "plan.ts": planFile(".js").replace('"./tools/payments/trusted/effects.js"', '"./tools/payments/trusted/effects"'),
      },
    },
    programs: ["plan.ts"],
    exit: 1,
    causes: ["plan.ts:1 TS2835", "tools/payments/trusted/effects.ts:3 TS2835"],
    never: RULE_CODES,
  },
  {
    name: "classic module resolution",
    spec: { files: node16({ "tsconfig.json": tsconfig({ module: "esnext" }) }) },
    programs: ["plan.ts"],
    exit: 2,
    causes: ["tsconfig.json:12 TS93092", "tools/payments/trusted/events.ts:1 TS2792"],
    never: RULE_CODES,
  },
  {
    name: "commonjs with node16 resolution",
    spec: { files: node16({ "tsconfig.json": tsconfig({ module: "commonjs", moduleResolution: "node16" }) }) },
    programs: ["plan.ts"],
    exit: 2,
    causes: ["tsconfig.json:12 TS5110"],
    never: RULE_CODES,
  },
  {
    name: "violated program",
    spec: { files: node16({ "plan.ts": planFile("", "  pay(invoice, 10);\n  pay(invoice + \"-2\", 10);\n") }) },
    programs: ["plan.ts"],
    exit: 1,
    causes: ["plan.ts:8 TS93101"],
  },
];
