/**
 * Concrete runs of corpus programs against their headers (fixtures/programs/README.md), without the
 * prover: the expected verdicts of the async corpus (issue 10) were decided by reading JavaScript,
 * and this checks them the way the differential tester's oracle checks a proof — by running `main`
 * for real (fuzz/execute.ts: tool implementations return drawn values that keep their `ensures`,
 * `await` is sequencing) with inputs and tool results drawn from the program's literals, their
 * neighbours and corner cases (fuzz/values.ts).
 *
 * - `@expect proved`: no run breaks a guarantee, fails a precondition or throws. A run that does is
 *   a contradiction of the header (printed with the run).
 * - `violated`/`precondition`/`throw`: each listed result is searched for among the runs (found, or
 *   not found in N runs: random search can miss a narrow case, so that is not a contradiction); a
 *   result a run shows that the header does not list is a contradiction.
 * - `refused`: not run.
 *
 * The runs are synchronous (see execute.ts): an `async` callback of `xs.map` that fails stops the
 * later elements' calls, where Node would still make them, so a run may perform fewer events than
 * Node would after a failed precondition (it never performs more).
 *
 *     node fuzz/run.mjs --help   (builds fuzz/.build), then
 *     node fuzz/.build/fuzz/corpus-runs.js [--runs 300] [--seed 1] <dir under fixtures/programs> ...
 */
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import ts from "typescript";
import { readLayer } from "../core/layer/read";
import { check, isPrefixClosed } from "../runtime/check";
import { RequiresError } from "../runtime/errors";
import { loadLayer, loadPlan, OracleFailure, runMain, type LoadedLayer, type Run, type ToolRuntime } from "./execute";
import { LAYER_IMPORT, ROOT } from "./project";
import { shapeOf, type Shape } from "./shapes";
import { keepElementPromises, poolsOf, show, valueArb, type Pools } from "./values";

const CORPUS = path.join(ROOT, "fixtures/programs");

/** The trusted modules a program may import, by the directory its import path names, in load order. */
const LAYERS: Readonly<Record<string, { readonly files: readonly string[]; readonly renames: readonly (readonly [string, string, string])[] }>> = {
  ops: { files: ["fixtures/layers/ops/trusted/events.ts", "fixtures/layers/ops/trusted/effects.ts", "fixtures/layers/ops/trusted/contracts.ts"], renames: [] },
  net: { files: ["fixtures/layers/net/trusted/events.ts", "fixtures/layers/net/trusted/effects.ts", "fixtures/layers/net/trusted/contracts.ts"], renames: [["fixtures/layers/net/trusted/effects.ts", "pause", "pauseNet"]] },
  filesystem: {
    files: ["stdlib/filesystem/trusted/events.ts", "stdlib/filesystem/trusted/effects.ts", "stdlib/filesystem/trusted/async.ts", "stdlib/filesystem/trusted/contracts.ts"],
    renames: [["stdlib/filesystem/trusted/async.ts", "splitLines", "splitLinesAsync"], ["stdlib/filesystem/trusted/async.ts", "walk", "walkAsync"]],
  },
};

/**
 * Values of the world every run may also see, beside the program's literals (fuzz/values.ts): the
 * corpus tools' `ensures` ask for addresses with "@", https URLs, whole amounts and HTTP statuses,
 * which a program's own literals often do not contain.
 */
const WORLD_STRINGS = ["a@corp.com", "ceo@corp.com", "b@example.com", "a@corp.com ", "https://example.com/", "#ops", "T-1", "x"];
const WORLD_NUMBERS = [1, 2, 3, 7, 100, 200, 404, 500, 2000, 50000, 100000, 500000];

/** The layers a program imports, by the trusted import paths in its text. */
function layersOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/from "[./]+(?:layers\/(\w+)|stdlib\/(filesystem))\/trusted\/\w+"/g)) {
    const name = m[1] ?? m[2]!;
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

/** One module holding the layers' events, tools and contracts (their imports of each other dropped, clauz3 imports merged). */
function mergedLayerText(layers: readonly string[]): string {
  const named = new Map<string, Set<string>>();
  const bodies: string[] = [];
  for (const l of layers) {
    for (const file of LAYERS[l]!.files) {
      let text = fs.readFileSync(path.join(ROOT, file), "utf8");
      for (const [f, from, to] of LAYERS[l]!.renames) if (f === file) text = text.replace(new RegExp(`\\b${from}\\b`, "g"), to);
      // Imports read from the syntax tree: a layer may wrap one over several lines (Prettier does).
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
      let body = "";
      let cut = 0;
      for (const st of source.statements) {
        if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
        body += text.slice(cut, st.getStart(source));
        cut = st.getEnd();
        const spec = st.moduleSpecifier.text;
        const clause = st.importClause;
        if (!clause || clause.isTypeOnly || !spec.startsWith("clauz3")) continue;
        const names = named.get(spec) ?? new Set<string>();
        if (clause.namedBindings && ts.isNamedImports(clause.namedBindings)) {
          for (const el of clause.namedBindings.elements) if (!el.isTypeOnly) names.add(el.propertyName ? `${el.propertyName.text} as ${el.name.text}` : el.name.text);
        } else if (clause.namedBindings || clause.name) {
          throw new Error(`${file}: only named imports of clauz3 modules are merged (\`import { a, b } from "clauz3/…"\`)`);
        }
        named.set(spec, names);
      }
      bodies.push(body + text.slice(cut));
    }
  }
  const imports = [...named].map(([spec, names]) => `import { ${[...names].join(", ")} } from "${spec}";`);
  return `${imports.join("\n")}\n${bodies.join("\n")}`;
}

/**
 * The program with every trusted import pointed at the merged layer (same lines, so call sites keep
 * their positions), and `Promise.all(xs.map(…))` read as the array of the callbacks' results (runs
 * are synchronous: the callbacks already ran, in order; execute.ts rewrites only `Promise.all([…])`).
 */
function planText(text: string): string {
  return text.replace(/from "[./]+(?:layers\/\w+|stdlib\/filesystem)\/trusted\/\w+"/g, `from "${LAYER_IMPORT}"`).replace(/\bPromise\.all\((?!\[)/g, "Array.from(");
}

function headerOf(text: string): string[] {
  const out: string[] = [];
  for (const l of text.split("\n")) {
    if (!l.startsWith("//")) break;
    const m = /^\/\/ @expect (.*)$/.exec(l);
    if (m) out.push(m[1]!);
  }
  return out;
}

/** The contract export name of each `guarantees` entry, in order. */
function guaranteeNames(file: ts.SourceFile): string[] {
  const decl = file.statements.flatMap((s) => (ts.isVariableStatement(s) ? [...s.declarationList.declarations] : [])).find((d) => d.name.getText(file) === "guarantees");
  const init = decl?.initializer;
  if (!init || !ts.isArrayLiteralExpression(init)) return [];
  return init.elements.map((e) => (ts.isCallExpression(e) ? (ts.isPropertyAccessExpression(e.expression) ? e.expression.name.text : e.expression.getText(file)) : "?"));
}

function programs(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory() && (!e.name.startsWith("_") || e.name === "_pending")) out.push(...programs(full));
    else if (e.isFile() && e.name.endsWith(".ts")) out.push(full);
  }
  return out.sort();
}

/** What one run shows, as header keys (`violated <contract>` without a line: the blamed call of a count is a matter of the prover's convention). */
function findings(run: Run, guarantees: readonly unknown[], names: readonly string[]): string[] {
  const out = new Set<string>();
  guarantees.forEach((g, i) => {
    if (run.error && !isPrefixClosed(g as never)) return;
    if (check(g as never, run.trace).length > 0) out.add(`violated ${names[i]}`);
  });
  for (const label of run.failedPreconditions) out.add(`precondition ${label.slice(0, label.indexOf("@"))} line=${label.slice(label.indexOf("@") + 1).split(":")[0]}`);
  const e = run.error;
  if (e && !(e.value instanceof RequiresError)) {
    if (e.value instanceof OracleFailure) out.add(`oracle error: ${e.value.message}`);
    else if (e.throwSite) out.add(`throw line=${e.throwSite.split(":")[0]}`);
    else out.add("throw (not a throw statement)");
  }
  return [...out].sort();
}

function main(): void {
  const argv = process.argv.slice(2);
  const option = (name: string, fallback: number): number => {
    const i = argv.indexOf(name);
    if (i < 0) return fallback;
    const v = Number(argv[i + 1]);
    argv.splice(i, 2);
    return v;
  };
  const runs = option("--runs", 300);
  const seed = option("--seed", 1);
  const files = argv.flatMap((d) => programs(path.join(CORPUS, d)));
  const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, "fixtures/tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(String(d.messageText)); } })!;
  const program = ts.createProgram({ rootNames: [...new Set([...config.fileNames, ...files])], options: config.options });
  const checker = program.getTypeChecker();
  const model = readLayer(ts, program).model;
  const toolShapes = new Map<string, Shape>();
  for (const tool of model.tools.values()) {
    const sig = checker.getSignatureFromDeclaration(tool.implementation);
    if (sig) toolShapes.set(tool.name, shapeOf(checker, checker.getReturnTypeOfSignature(sig)));
  }
  const loaded = new Map<string, LoadedLayer>();
  const tally: Record<string, number> = {};
  for (const file of files) {
    const rel = path.relative(CORPUS, file);
    const text = fs.readFileSync(file, "utf8");
    const header = headerOf(text);
    const say = (outcome: string, detail = ""): void => {
      tally[outcome] = (tally[outcome] ?? 0) + 1;
      console.log(`${outcome.padEnd(16)} ${rel.padEnd(60)} ${detail}`);
    };
    if (header.some((h) => h.startsWith("refused"))) {
      say("not run", "expected refused");
      continue;
    }
    const source = program.getSourceFile(file)!;
    const key = layersOf(text).join("+");
    if (!loaded.has(key)) loaded.set(key, loadLayer(mergedLayerText(layersOf(text))));
    const layer = loaded.get(key)!;
    let plan;
    try {
      plan = loadPlan(planText(text), layer);
    } catch (error) {
      say("oracle error", `does not load: ${String(error)}`);
      continue;
    }
    const names = guaranteeNames(source);
    const own = poolsOf(source);
    const pools: Pools = { strings: [...own.strings, ...WORLD_STRINGS], numbers: [...own.numbers, ...WORLD_NUMBERS] };
    const fn = source.statements.find((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === "main");
    const params = (fn?.parameters ?? []).map((p) => shapeOf(checker, checker.getTypeAtLocation(p)));
    const toolNames = [...layer.toolNames].filter((n) => toolShapes.get(n) && toolShapes.get(n)!.k !== "undefined");
    const inputsArb = fc.tuple(...params.map((s) => valueArb(s, pools, true)));
    const streamsArb = fc.record(Object.fromEntries(toolNames.map((n) => [n, fc.infiniteStream(valueArb(toolShapes.get(n)!, pools, true))])) as Record<string, fc.Arbitrary<fc.Stream<unknown>>>);
    const seen = new Map<string, string>();
    const samples = fc.sample(fc.tuple(inputsArb, streamsArb), { seed, numRuns: runs });
    for (const [inputs, streams] of samples) {
      const choose = (tool: ToolRuntime, _label: string, args: readonly unknown[]): unknown => {
        const stream = streams[tool.name];
        if (!stream) return undefined;
        const elementOk = (x: unknown): boolean => tool.ensures.every((e) => e([x], args));
        for (let i = 0; i < 200; i++) {
          const v = keepElementPromises(stream.next().value, elementOk, args);
          if (tool.ensures.every((e) => e(v, args))) return v;
        }
        throw new OracleFailure(`no value drawn for ${tool.name} satisfies its ensures`);
      };
      const run = runMain(plan, inputs, choose);
      for (const f of findings(run, plan.guarantees, names)) {
        if (!seen.has(f)) seen.set(f, `main(${inputs.map(show).join(", ")}) with ${run.results.map(([l, v]) => `${l} → ${show(v)}`).join(", ")}`);
      }
    }
    // A `throw line=N` where line N has no `throw` statement is a use of a possibly-undefined value (a TypeError) or a
    // built-in that throws (encodeURIComponent's URIError): the run's error without a throw site.
    const lines = text.split("\n");
    const expected = header
      .filter((h) => h !== "proved")
      .map((h) => (h.startsWith("violated") ? h.replace(/ line=\d+$/, "") : h.startsWith("throw line=") && !/\bthrow\b/.test(lines[Number(h.slice(11)) - 1] ?? "") ? "throw (not a throw statement)" : h));
    const oracleErrors = [...seen.keys()].filter((k) => k.startsWith("oracle error"));
    const extra = [...seen.keys()].filter((k) => !expected.includes(k) && !k.startsWith("oracle error"));
    const missing = expected.filter((k) => !seen.has(k));
    if (oracleErrors.length > 0) say("oracle error", oracleErrors.join("; "));
    else if (extra.length > 0) say("CONTRADICTED", extra.map((k) => `${k}: ${seen.get(k)}`).join(" | "));
    else if (expected.length === 0) say("proved: held", `${runs} runs`);
    else if (missing.length === 0) say("violated: found", expected.join("; "));
    else say("violated: partly", `not found in ${runs} runs: ${missing.join("; ")}`);
  }
  console.log(`\n${JSON.stringify(tally)}`);
}

main();
