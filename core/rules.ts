/**
 * The trusted-layer rules as data. Codes are stable: they appear in builds (`error TS93003`), in
 * the editor and in CI logs, and are documented in the README's rule table (generated from here).
 *
 * Examples are complete files. In `invalid`, ⟦ and ⟧ mark the exact span the diagnostic covers;
 * the test suite compiles every example and checks code, line, column and span.
 */
export interface RuleExample {
  /** Path of the example file; a `trusted` segment makes it part of the trusted layer. */
  readonly file: string;
  readonly code: string;
  /** `false`: the example project's clauz3.lock does not pin this file (by default it pins every trusted file). */
  readonly pinned?: boolean;
}

export interface Rule {
  readonly code: number;
  /** Stable message id (kebab-case). */
  readonly id: string;
  /** One line for the README. */
  readonly doc: string;
  /** Message with `{placeholder}` slots; always says what to write instead. */
  readonly message: string;
  readonly valid: RuleExample;
  readonly invalid: RuleExample;
}

const LAYER = "tools/demo/trusted/layer.ts";
const HEADER = `import { trusted, requires, ensures, FilePath } from "clauz3";
import { Event, performs } from "clauz3/events";
import { contract, type ContractSpec } from "clauz3/spec";
`;
const EVENTS = `export class FsEvent extends Event { constructor(readonly path: string) { super(); } }
export class Read extends FsEvent {}
export class Write extends FsEvent {}
`;
const layer = (body: string): RuleExample => ({ file: LAYER, code: HEADER + EVENTS + body });
const footprintLayer = (body: string): RuleExample => ({ file: LAYER, code: HEADER.replace("Event, performs", "Event, performs, footprint") + EVENTS + body });
/** The lock rules concern the lock itself: their examples are a lock (docs/lock.md has the cases). */
const LOCK = "clauz3.lock";
const LOCK_EXAMPLE = `{
  "files": {
    "tools/demo/trusted/layer.ts": { "sha256": "${"0".repeat(64)}" }
  },
  "libraries": {
    "tools/demo": { "id": "demo", "origin": "local", "revision": "sha256:${"0".repeat(64)}" }
  },
  "version": 1
}
`;

/**
 * Names an event field may not take (rule 93009): the relation queries (DESIGN.md's six,
 * `allSameValue`, `sharesValueWith`, and `sharesValue`, the deprecated name of `allSameValue`),
 * an event's own members, and `event`, the key `toJSON` writes the class name to.
 * Fields are instance properties, so the class's static `name`, `length` and `prototype` do not
 * collide with them: `readonly name: string` is a field like any other.
 */
export const RESERVED_FIELD_NAMES: ReadonlySet<string> = new Set([
  "all", "where", "empty", "count", "sum", "distinct", "allSameValue", "sharesValueWith", "sharesValue",
  "fields", "equals", "toJSON", "toString", "constructor", "event",
]);

export const RULES = {
  agentDeclaration: {
    code: 93001,
    id: "agent-declaration",
    doc: "Agent programs may not declare tools, events, contracts or their effects.",
    message: "`{name}` is a trusted-layer declaration and is not allowed in agent source (outside the trusted roots). Call the tools and contracts of a trusted layer instead, or move this declaration into a `…/trusted/` directory.",
    valid: {
      file: "plan.ts",
      code: `import { readFile } from "./tools/filesystem/trusted/effects";\nexport function main(path: string): void { readFile(path); }\n`,
    },
    invalid: {
      file: "plan.ts",
      code: `import { trusted } from "clauz3";\nexport const sneaky = ⟦trusted⟧(function sneaky(p: string): void {});\n`,
    },
  },
  performsTwice: {
    code: 93002,
    id: "performs-twice",
    doc: "A tool declares its events in exactly one `performs`.",
    message: "`{tool}` already declares `performs(...)`; a second one is refused rather than replacing the first. Return every event from one builder: `performs((a, b) => [new A(a), new B(b)])`.",
    valid: layer(`export const copy = trusted(performs((src: string, dest: string) => [new Read(src), new Write(dest)]), function copy(src: string, dest: string): void {});\n`),
    invalid: layer(`export const copy = trusted(performs((src: string) => new Read(src)), ⟦performs((dest: string) => new Write(dest))⟧, function copy(src: string, dest: string): void {});\n`),
  },
  eventFieldArgument: {
    code: 93003,
    id: "event-field-argument",
    doc: "Every event field argument is a builder parameter (no literal, no computed value).",
    message: "Event field `{field}` of `{event}` must be a builder parameter, not {what}. Add a tool parameter for it and pass that parameter: computed or literal values cannot be checked against the call's arguments.",
    valid: layer(`export const readFile = trusted(performs((path: string) => new Read(path)), function readFile(path: string): string { return ""; });\n`),
    invalid: layer(`export const readConfig = trusted(performs(() => new Read(⟦"/etc/app.conf"⟧)), function readConfig(): string { return ""; });\n`),
  },
  unknownBuilderParameter: {
    code: 93004,
    id: "unknown-builder-parameter",
    doc: "A builder (or requires/ensures predicate) parameter names a parameter of the tool.",
    message: "`{name}` is not a parameter of `{tool}` (its parameters: {parameters}). Rename it to the tool parameter it stands for: builder and predicate parameters name the tool's parameters (any subset, any order).",
    valid: layer(`export const readFile = trusted(performs((path: string) => new Read(path)), function readFile(path: string): string { return ""; });\n`),
    invalid: layer(`export const readFile = trusted(performs((⟦file⟧: string) => new Read(file)), function readFile(path: string): string { return ""; });\n`),
  },
  toolParameterForm: {
    code: 93005,
    id: "tool-parameter-form",
    doc: "Tool and builder parameters are required, typed, plain identifiers: no default, optional or rest.",
    message: "Parameter `{name}` of `{tool}` {problem}. Declare it as a required parameter with a type (`{name}: {type}`), and let the caller pass every value explicitly.",
    valid: layer(`export const readFile = trusted(performs((path: string) => new Read(path)), function readFile(path: string, encoding: string): string { return ""; });\n`),
    invalid: layer(`export const readFile = trusted(performs((path: string) => new Read(path)), function readFile(path: string, ⟦encoding = "utf8"⟧): string { return ""; });\n`),
  },
  parameterTypeMismatch: {
    code: 93006,
    id: "parameter-type-mismatch",
    doc: "Builder parameters and the event fields they fill have the tool parameter's declared type.",
    message: "{what} has type `{actual}` but tool parameter `{parameter}` of `{tool}` is `{expected}`. Declare the same type on both sides.",
    valid: layer(`export const readFile = trusted(performs((path: string) => new Read(path)), function readFile(path: string): string { return ""; });\n`),
    invalid: layer(`export const readAt = trusted(performs((⟦path: number⟧) => new Read(path)), function readAt(path: string): string { return ""; });\n`),
  },
  builderReturn: {
    code: 93007,
    id: "builder-return",
    doc: "A `performs` builder is an inline arrow that returns `new EventClass(...)` or an array literal of them.",
    message: "{problem} Write the builder as an inline arrow returning event constructions only: `new EventClass(param, ...)` or `[new A(x), new B(y)]`; a tool performs the same events on every call.",
    valid: layer(`export const copy = trusted(performs((src: string, dest: string) => [new Read(src), new Write(dest)]), function copy(src: string, dest: string): void {});\n`),
    invalid: layer(`export const maybeRead = trusted(performs((path: string) => ⟦path ? [new Read(path)] : []⟧), function maybeRead(path: string): void {});\n`),
  },
  eventFieldForm: {
    code: 93008,
    id: "event-field-form",
    doc: "Event fields are public `readonly` typed constructor parameters; inherited fields are passed to `super` in order.",
    message: "{problem} Declare each field as a constructor parameter `readonly name: type`, pass inherited fields first to `super(...)`, and put nothing else in the class.",
    valid: layer(`export class WriteText extends Write { constructor(path: string, readonly text: string) { super(path); } }\n`),
    invalid: layer(`export class Send extends Event { ⟦to: string = "";⟧ }\n`),
  },
  reservedFieldName: {
    code: 93009,
    id: "reserved-field-name",
    doc: `Event fields cannot be named after relation queries or Event members: ${[...RESERVED_FIELD_NAMES].map((n) => `\`${n}\``).join(", ")}.`,
    message: "Event field `{name}` collides with the relation query or Event method `{name}`. Rename the field (for example `{name}Value`).",
    valid: layer(`export class Tally extends Event { constructor(readonly total: number) { super(); } }\n`),
    invalid: layer(`export class Tally extends Event { constructor(⟦readonly count: number⟧) { super(); } }\n`),
  },
  invalidTemplate: {
    code: 93010,
    id: "invalid-template",
    doc: "A description template uses only `{parameter}` substitutions, names every parameter, and only parameters of describable types.",
    message: "Invalid description template for `{contract}`: {problem}. Write plain text with `{parameter}` placeholders naming every parameter (`{{`/`}}` for literal braces).",
    valid: layer(`export const neverReadUnder = contract({ description: "No tool reads a path starting with {prefix}." }, (prefix: string): ContractSpec => Read.all((e) => !e.path.startsWith(prefix)));\n`),
    invalid: layer(`export const neverReadUnder = contract({ description: ⟦"No tool reads under {prefix.upper}."⟧ }, (prefix: string): ContractSpec => Read.all((e) => !e.path.startsWith(prefix)));\n`),
  },
  toolForm: {
    code: 93011,
    id: "tool-form",
    doc: "A tool is `export const name = trusted(...declarations, function name(...) {...})` at module top level.",
    message: "{problem} Write `export const name = trusted(performs(...), requires(...), function name(params) { ... })` at the top level of a trusted module.",
    valid: layer(`export const readFile = trusted(performs((path: string) => new Read(path)), function readFile(path: string): string { return ""; });\n`),
    invalid: layer(`export function make() { return ⟦trusted(function inner(path: string): void {})⟧; }\n`),
  },
  contractForm: {
    code: 93012,
    id: "contract-form",
    doc: "A contract is `export const name = contract(options?, (params) => spec)` whose body is one expression or `const`s and one `return`.",
    message: "{problem} Write `export const name = contract({ description: \"…\" }, (param: T): ContractSpec => Relation.all(...))`; a block body may hold only `const` declarations and one final `return`.",
    valid: layer(`export const readsAtMost = contract({ description: "At most {n} reads." }, (n: number): ContractSpec => {\n  const reads = Read.count();\n  return reads.atMost(n);\n});\n`),
    invalid: layer(`export const readsAtMost = contract({ description: "At most {n} reads." }, (n: number): ContractSpec => {\n  ⟦let limit = n;⟧\n  return Read.count().atMost(limit);\n});\n`),
  },
  predicateForm: {
    code: 93013,
    id: "predicate-form",
    doc: "`requires`/`ensures` take an inline predicate and an optional literal message.",
    message: "{problem} Write `requires((param: T) => condition, \"message\")` or `ensures((result: R, param: T) => condition, \"message\")` with an inline arrow and a string literal.",
    valid: layer(`export const readFile = trusted(performs((path: string) => new Read(path)), requires((path: string) => path.length > 0, "path must not be empty"), function readFile(path: string): string { return ""; });\n`),
    invalid: layer(`const nonEmpty = (path: string) => path.length > 0;\nexport const readFile = trusted(performs((path: string) => new Read(path)), requires(⟦nonEmpty⟧), function readFile(path: string): string { return ""; });\n`),
  },
  eventClassForm: {
    code: 93014,
    id: "event-class-form",
    doc: "An event class extends `Event` (or another event class) by name at module top level and holds only its constructor.",
    message: "{problem} Write event classes as data: `export class Name extends Base { constructor(readonly field: T) { super(); } }`.",
    valid: layer(`export class Delete extends Write {}\n`),
    invalid: layer(`export class Delete extends Write { ⟦describe(): string { return "delete " + this.path; }⟧ }\n`),
  },
  approvalDeclaration: {
    code: 93015,
    id: "approval-declaration",
    doc: "A library whose manifest says `\"requiresApproval\": true` says so in code too: every trusted module of it that defines tools starts with `requireApproval(\"<library id>\")`, a top-level statement before its first `trusted(...)` (the manifest is left behind by a build into another outDir; code is not). A declaration in another library, one naming another id, or one in another place is reported on the call.",
    message: "{problem} Write `requireApproval(\"{library}\");` as a top-level statement before the module's first `trusted(...)`, in every tool module of a library whose clauz3.json says `\"requiresApproval\": true` (and only there).",
    valid: { file: LAYER, code: `import { trusted, requireApproval } from "clauz3";\nimport { Event, performs } from "clauz3/events";\nrequireApproval("demo");\nexport class Pay extends Event { constructor(readonly to: string) { super(); } }\nexport const pay = trusted(performs((to: string) => new Pay(to)), function pay(to: string): void {});\n` },
    invalid: { file: LAYER, code: `import { trusted, requireApproval } from "clauz3";\nimport { Event, performs } from "clauz3/events";\nexport class Pay extends Event { constructor(readonly to: string) { super(); } }\nexport const pay = trusted(performs((to: string) => new Pay(to)), function pay(to: string): void {});\n⟦requireApproval("demo")⟧;\n` },
  },
  unpinnedTrustedFile: {
    code: 93020,
    id: "unpinned-trusted-file",
    doc: "Every trusted file is pinned in `clauz3.lock` with the SHA-256 of its bytes (`clauz3 lock` writes it; `check`, `prove`, `tspc` and the editor verify it). A file that is not, or changed since, is reported on its first statement, and every program that imports it (transitively) is refused.",
    message: "`{file}` {state}: review it, then run `clauz3 lock` to write its digest into the lock. A file in a trusted folder is trusted only once it is pinned; if nobody reviewed it, delete it.",
    valid: { file: LAYER, code: `// pinned: clauz3.lock lists this file with the sha256 of its bytes\nexport const LIMIT = 3;\n` },
    invalid: { file: LAYER, pinned: false, code: `// not pinned: written after clauz3 lock ran (by an agent, say)\n⟦export const LIMIT = 3;⟧\n` },
  },
  staleLockEntry: {
    code: 93021,
    id: "stale-lock-entry",
    doc: "Every file `clauz3.lock` pins exists; an entry whose file is gone is reported on its key in the lock.",
    message: "clauz3.lock pins `{file}`, which does not exist. Run `clauz3 lock` to write the lock again without it (or restore the file if it was removed by mistake).",
    valid: { file: LOCK, code: LOCK_EXAMPLE },
    invalid: { file: LOCK, code: LOCK_EXAMPLE },
  },
  invalidLock: {
    code: 93022,
    id: "invalid-lock",
    doc: "`clauz3.lock` is JSON that matches `schema/lock.schema.json`; otherwise it is a configuration error on the field (exit 2 in the CLI) and every trusted file counts as unpinned.",
    message: "{lock} is not a valid lock: {field} {problem}. Every trusted file counts as unpinned until it is. Write it again with `clauz3 lock` (it is generated: do not edit it by hand).",
    valid: { file: LOCK, code: LOCK_EXAMPLE },
    invalid: { file: LOCK, code: LOCK_EXAMPLE },
  },
  invalidManifest: {
    code: 93023,
    id: "invalid-manifest",
    doc: "A library's `clauz3.json` is JSON that matches `schema/manifest.schema.json`; each field that does not is reported on the field, by `check`, `prove` and `tspc` as by `libraries` and `describe`.",
    message: "{manifest} is not a valid library manifest: {problem}. Write the field the schema expects (clauz3/schema/manifest.schema.json): `title`, `summary`, and optionally `version`, `badge` (\"mock\" or \"mixed\"), `dependencies`, `requirements`.",
    valid: { file: "tools/payments/clauz3.json", code: `{ "title": "Payments", "summary": "Charge and refund cards." }\n` },
    invalid: { file: "tools/payments/clauz3.json", code: `{ "title": "Payments", "summary": "Charge and refund cards." }\n` },
  },
  objectParameterProperty: {
    code: 93024,
    id: "object-parameter-property",
    doc: "A tool of one object of named arguments declares every property required, as data, of a modelled type (its properties are the tool's named parameters).",
    message: "Property `{name}` of the object parameter `{parameter}` of `{tool}` {problem}. Declare every property as required data of a modelled type (`{name}: string`, `number`, `boolean`, `FilePath`, `DirectoryPath` or an array of those), so that every call passes it explicitly.",
    valid: layer(`export const readFile = trusted(performs(({ path }) => new Read(path)), function readFile(req: { path: string; encoding: string }): string { return ""; });\n`),
    invalid: layer(`export const readFile = trusted(performs(({ path }) => new Read(path)), function readFile(req: { path: string; ⟦encoding?: string;⟧ }): string { return ""; });\n`),
  },
  objectBuilderForm: {
    code: 93025,
    id: "object-builder-form",
    doc: "The builder and predicates of a tool of named arguments take its object in one parameter: plain destructured property names, or the whole object by name.",
    message: "{problem} Write the tool's object as one parameter: destructure plain property names (`({ to, subject }) => ...`) or name the whole object (`msg => ... msg.to ...`); no defaults, rest elements, nested patterns or computed keys.",
    valid: layer(`export const readFile = trusted(performs((req) => new Read(req.path)), requires(({ path }) => path !== ""), function readFile(req: { path: string }): string { return ""; });\n`),
    invalid: layer(`export const readFile = trusted(performs(({ ⟦path = "/tmp"⟧ }) => new Read(path)), function readFile(req: { path: string }): string { return ""; });\n`),
  },
  fluentForm: {
    code: 93050,
    id: "fluent-form",
    doc: "A fluent is `export const Name = fluent(\"Name\", { key: String, value: Boolean, initial: false })` at the top level of a trusted module: keys and values `String`, `Number` or `Boolean`, `initial` a literal of the value type.",
    message: "{problem} Write `export const Name = fluent(\"Name\", { key: String, value: Boolean, initial: false })` at the top level of a trusted module: the name as a string literal equal to the export's, `key` and `value` one of `String`, `Number`, `Boolean`, and `initial` a literal of the value type.",
    valid: { file: LAYER, code: `import { fluent } from "clauz3/events";\nexport const Locked = fluent("Locked", { key: String, value: Boolean, initial: false });\n` },
    invalid: { file: LAYER, code: `import { fluent } from "clauz3/events";\nexport const Locked = fluent("Locked", { key: String, value: Boolean, initial: ⟦0⟧ });\n` },
  },
  updatesForm: {
    code: 93051,
    id: "updates-form",
    doc: "An `updates` builder is an inline arrow returning `Fluent.set(key, value)` or an array literal of them, each argument a builder parameter or a literal; a tool declares at most one `updates`.",
    message: "{problem} Write `updates((door: string) => Locked.set(door, true))`: one inline arrow per tool returning writes of fluents of the trusted layer, each key and value a builder parameter or a literal; a tool makes the same writes on every call.",
    valid: { file: LAYER, code: `import { trusted } from "clauz3";\nimport { fluent, updates } from "clauz3/events";\nexport const Locked = fluent("Locked", { key: String, value: Boolean, initial: false });\nexport const lock = trusted(updates((door: string) => Locked.set(door, true)), function lock(door: string): void {});\n` },
    invalid: { file: LAYER, code: `import { trusted } from "clauz3";\nimport { fluent, updates } from "clauz3/events";\nexport const Locked = fluent("Locked", { key: String, value: Boolean, initial: false });\nexport const lock = trusted(updates((door: string) => Locked.set(⟦door.trim()⟧, true)), function lock(door: string): void {});\n` },
  },
  updateArgumentType: {
    code: 93052,
    id: "update-argument-type",
    doc: "The key and value of a fluent write have the fluent's declared types.",
    message: "{what} of `{fluent}` is {actual}, but `{fluent}` declares {expected}. Pass a tool parameter or a literal of the declared type.",
    valid: { file: LAYER, code: `import { trusted } from "clauz3";\nimport { fluent, updates } from "clauz3/events";\nexport const Locked = fluent("Locked", { key: String, value: Boolean, initial: false });\nexport const lock = trusted(updates((door: string) => Locked.set(door, true)), function lock(door: string): void {});\n` },
    invalid: { file: LAYER, code: `import { trusted } from "clauz3";\nimport { fluent, updates } from "clauz3/events";\nexport const Locked = fluent("Locked", { key: String, value: Boolean, initial: false });\nexport const lock = trusted(updates((door: string) => Locked.set(door, ⟦"yes"⟧)), function lock(door: string): void {});\n` },
  },
  footprintForm: {
    code: 93060,
    id: "footprint-form",
    doc: "A tool's `footprint(...)` lists selectors as object literals of literal values, of a known kind (docs/footprints.md).",
    message: "{problem} Write each selector as data, for example `{ kind: \"path\", field: \"dest\", access: \"write\" }`, `{ kind: \"rateLimit\", provider: \"smtp\" }` or `{ kind: \"opaque\" }` (docs/footprints.md).",
    valid: footprintLayer(`export const send = trusted(footprint({ kind: "rateLimit", provider: "smtp" }), function send(to: string): void {});\n`),
    invalid: footprintLayer(`export const send = trusted(footprint({ kind: "rateLimit", ⟦provider: 42⟧ }), function send(to: string): void {});\n`),
  },
  footprintParameter: {
    code: 93061,
    id: "footprint-parameter",
    doc: "Every footprint selector names a parameter of its tool, of the right type (a path for `path` and `manifest`, a scalar for `scoped`).",
    message: "The footprint of `{tool}` names `{field}`: {problem}. Use the name of the tool parameter that holds the path or key the selector stands for.",
    valid: footprintLayer(`export const drop = trusted(footprint({ kind: "scoped", family: "table", field: "table", access: "write" }), function drop(table: string): void {});\n`),
    invalid: footprintLayer(`export const drop = trusted(footprint({ kind: "scoped", family: "table", ⟦field: "name"⟧, access: "write" }), function drop(table: string): void {});\n`),
  },
  footprintEmpty: {
    code: 93062,
    id: "footprint-empty",
    doc: "A mutating tool (one of its events writes) may not declare an empty `footprint()`.",
    message: "`{tool}` performs `{event}`, which writes, but declares an empty footprint: it would run beside every call. Remove `footprint()` (the events' footprint is derived), list what it touches, or write `footprint({ kind: \"opaque\" })`.",
    valid: footprintLayer(`export const save = trusted(performs((path: string) => new Write(path)), footprint({ kind: "opaque" }), function save(path: string): void {});\n`),
    invalid: footprintLayer(`export const save = trusted(performs((path: string) => new Write(path)), ⟦footprint()⟧, function save(path: string): void {});\n`),
  },
  footprintContradicts: {
    code: 93063,
    id: "footprint-contradicts",
    doc: "A declared footprint selector may not contradict the tool's events (a read of what they write, one path where they touch a tree).",
    message: "The footprint of `{tool}` {problem}. Declare the access and shape its events have (or remove the selector: the events' footprint is derived), or declare the event class's access in the library's clauz3.json `eventAccess`.",
    valid: footprintLayer(`export const save = trusted(performs((path: string) => new Write(path)), footprint({ kind: "manifest", field: "path", access: "write" }), function save(path: string): void {});\n`),
    invalid: footprintLayer(`export const save = trusted(performs((path: string) => new Write(path)), footprint(⟦{ kind: "path", field: "path", access: "read" }⟧), function save(path: string): void {});\n`),
  },
  internalError: {
    code: 93090,
    id: "internal-error",
    doc: "clauz3 failed on this file; nothing was checked. Never a silent pass.",
    message: "clauz3 could not check {file}: {detail}. This is a bug in clauz3; the file is treated as failing until it is fixed.",
    valid: layer(""),
    invalid: layer(""),
  },
  cannotCheck: {
    code: 93091,
    id: "cannot-check",
    doc: "The build's emit settings keep the transformer from running; it says so instead of passing silently.",
    message: "clauz3/plugin cannot report trusted-layer diagnostics when {option} is set, and no check ran. Build with emit enabled (for example `tspc --outDir out`) or run `clauz3 check`.",
    valid: layer(""),
    invalid: layer(""),
  },
  moduleSettings: {
    code: 93092,
    id: "module-settings",
    doc: "The project's `module`/`moduleResolution` are a combination clauz3 supports (docs/module-settings.md) and resolve `clauz3`, `clauz3/events` and `clauz3/spec`; otherwise a configuration error on the option (exit 2 in the CLI), and no other clauz3 rule runs.",
    message: "{problem} clauz3 supports `module`/`moduleResolution` commonjs/node10, node16 (or node18, node20)/node16, nodenext/nodenext, and es2015…esnext or preserve/bundler (docs/module-settings.md). Set one of them in compilerOptions.",
    valid: layer(""),
    invalid: layer(""),
  },
} as const satisfies Record<string, Rule>;

export type RuleName = keyof typeof RULES;

/** Fill a rule's message template. Unknown placeholders are kept so a mistake shows. */
export function formatMessage(rule: Rule, data: Readonly<Record<string, string>>): string {
  return rule.message.replace(/\{([A-Za-z]+)\}/g, (whole, key: string) => data[key] ?? whole);
}

/** Codes of proof results (prover diagnostics), stable like the rule codes. */
export const PROOF_CODES = {
  /** A guarantee is broken by a reachable call (error on the call). */
  violated: 93101,
  /** A `requires` precondition can fail at a call (error on the call). */
  precondition: 93102,
  /** A `throw` is reachable (error on the throw). */
  throw: 93103,
  /** The program or contract leaves the modelled subset (error on the node). */
  refused: 93104,
  /** The solver answered unknown or timed out: refused, never proved. */
  unknown: 93105,
  /** A guarantee is proved (suggestion on its entry in `guarantees`). */
  proved: 93100,
  /** The editor gave up on a proof after its editor budget (error on `main`; docs/editor.md). */
  budget: 93085,
} as const;

/** A proof result as documentation (`clauz3 explain`, SARIF rule metadata, the README's code table). */
export interface ProofRule {
  readonly code: number;
  /** Stable id (kebab-case), the key of the code in PROOF_CODES. */
  readonly id: keyof typeof PROOF_CODES;
  readonly doc: string;
  /**
   * An agent program that gets this code, beside the stdlib filesystem layer at
   * `tools/filesystem/`; ⟦ and ⟧ mark where it is reported. Absent when no small program gets it
   * on every machine (93105 depends on the solver's budget).
   */
  readonly example?: RuleExample;
}

const FS_IMPORTS = `import { readFile } from "./tools/filesystem/trusted/effects";\nimport * as fs from "./tools/filesystem/trusted/contracts";\n`;

export const PROOF_RULES: readonly ProofRule[] = [
  {
    code: PROOF_CODES.proved,
    id: "proved",
    doc: "A guarantee is proved for every input of `main` and every value the tools may return (editor: a suggestion on its entry in `guarantees`).",
    example: { file: "plan.ts", code: `${FS_IMPORTS}export const guarantees = [⟦fs.neverReadUnder("/secrets")⟧];\nexport function main(path: string): void {\n  if (path !== "" && !path.startsWith("/secrets")) readFile(path);\n}\n` },
  },
  {
    code: PROOF_CODES.violated,
    id: "violated",
    doc: "A guarantee is violated: the error is on the call whose event breaks it, with a counterexample (the inputs and tool results of a run that breaks it). Guard the call, or change the guarantee.",
    example: { file: "plan.ts", code: `${FS_IMPORTS}export const guarantees = [fs.neverReadUnder("/secrets")];\nexport function main(path: string): void {\n  if (path !== "") ⟦readFile(path)⟧;\n}\n` },
  },
  {
    code: PROOF_CODES.precondition,
    id: "precondition",
    doc: "A tool's `requires` precondition can fail at a call: the error is on the call, with the input that fails it. Check the condition before the call.",
    example: { file: "plan.ts", code: `${FS_IMPORTS}export const guarantees = [fs.neverReadUnder("/secrets")];\nexport function main(path: string): void {\n  if (!path.startsWith("/secrets")) ⟦readFile(path)⟧;\n}\n` },
  },
  {
    code: PROOF_CODES.throw,
    id: "throw",
    doc: "A `throw` (or a use of a possibly-undefined value) is reachable: the error is on it, with the input that reaches it. Handle the case instead of throwing.",
    example: { file: "plan.ts", code: `${FS_IMPORTS}export const guarantees = [fs.neverReadUnder("/secrets")];\nexport function main(path: string): void {\n  if (path === "") ⟦throw new Error("no path")⟧;\n  if (!path.startsWith("/secrets")) readFile(path);\n}\n` },
  },
  {
    code: PROOF_CODES.refused,
    id: "refused",
    doc: "The program or a contract leaves the subset the prover models: the error is on the exact node, saying what to write instead. A refused program is never proved.",
    example: { file: "plan.ts", code: `${FS_IMPORTS}export const guarantees = [fs.neverReadUnder("/secrets")];\nexport function main(path: string): void {\n  ⟦eval(path)⟧;\n}\n` },
  },
  {
    code: PROOF_CODES.unknown,
    id: "unknown",
    doc: "The solver answered unknown, or ran out of its resource limit or time budget: the program is refused, never proved. Simplify the program, or raise `--rlimit` / `--program-timeout`.",
  },
  {
    code: PROOF_CODES.budget,
    id: "budget",
    doc: "Editor only: the proof used the editor budget (plugin option `editorBudgetMs`, solver time) without a verdict, or its symbolic execution of `main` would take more than the 25 000 steps the editor runs at once on its thread, so the editor stopped it; the error is on `main`. Not a verdict on the program: run `clauz3 check`, which has the full budget, or raise `editorBudgetMs` (docs/editor.md).",
  },
];
