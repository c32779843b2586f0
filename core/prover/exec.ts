import type * as TS from "typescript";
import type { TypeScript } from "../context";
import { isProjectSource } from "../layer/classify";
import type { ContractModel, LayerModel, ToolModel, ValueType } from "../model";
import { Refusal } from "../refusal";
import { resolveDeclaration, runtimeExportOf } from "../runtime-symbols";
import { showValueType, valueTypeOf } from "../types";
import type { World } from "./facts";
import { holeOpen } from "./holes";
import { and, FLOAT64, implies, ite, not, numLit, or, rejoin, renameSymbols, RM } from "./smt";
import {
  bool, boolT, merge, num, numFromInt, sameValueZero, str, strictEquals, truthy, UNDEF,
  type Comparison, type Env, type FunctionLike, type Lambda, type RelationIR, type SpecIR, type Sym,
} from "./values";

/** Path conditions longer than this are named before they split (see `compactPc`). */
const PC_NAME_AT = 400;
/** Documented unrolling cap for literal arrays and literal-bound `for` loops. */
export const UNROLL_CAP = 1000;
/** Tool-result arrays whose `ensures` bounds the length by at most this many are unrolled exactly. */
export const BOUNDED_UNROLL_CAP = 16;
/**
 * Statements and expressions executed for one program (unrolled loops count every iteration): a
 * deterministic bound on the executor's work (two nested 1000-iteration loops took 27 s), far
 * above the corpus's largest program.
 */
export const EXEC_STEP_LIMIT = 400_000;
/** Characters of one value's term: `s = s + s` in a loop doubles it each time. */
export const TERM_CHAR_LIMIT = 1_000_000;

/** Mutable execution state along one path. */
export interface State {
  pc: string;
  env: Map<TS.Symbol, Sym>;
}

interface Flow {
  fall: State | null;
  returns: { pc: string; value: Sym }[];
  /** Paths that left by `break` or `continue`, for the enclosing loop (or switch, for `break`). */
  jumps?: Jump[];
}

interface Jump {
  readonly kind: "break" | "continue";
  readonly state: State;
  readonly node: TS.Node;
}

interface Frame {
  readonly fn: FunctionLike | undefined;
  /** The quantified-loop body the frame is executing in, if any (assignments may not escape it). */
  loopBody: TS.Node | undefined;
}

const COMPARISONS: readonly Comparison[] = ["atMost", "atLeast", "lessThan", "greaterThan", "equals", "between"];

/**
 * Symbolic execution of the modelled TypeScript subset. One evaluator serves agent programs
 * (facts: events, calls, obligations, throws) and contract bodies (specifications, lambdas).
 * Everything outside the subset throws a `Refusal` on the exact node.
 */
export class Executor {
  private readonly frames: Frame[] = [{ fn: undefined, loopBody: undefined }];
  private readonly loops: string[] = [];
  private readonly inlining: FunctionLike[] = [];
  private readonly contractStack: ContractModel[] = [];
  private readonly moduleConsts = new Map<TS.Node, Sym>();
  private pureOnly = false;
  /** Statements and expressions of `main` executed so far (see EXEC_STEP_LIMIT); undefined outside `runMain`. */
  private steps: number | undefined;
  /** The program's own file: only helpers declared here are inlined. */
  private mainFile: TS.SourceFile | undefined;

  constructor(
    private readonly ts: TypeScript,
    private readonly program: TS.Program,
    private readonly checker: TS.TypeChecker,
    private readonly layer: LayerModel,
    private readonly world: World,
    private readonly isTrusted: (file: TS.SourceFile) => boolean,
    /**
     * Bounded mode: every array (input or tool result) has at most this many elements and loops
     * over them are unrolled. Only used to search for genuine counterexamples where the general
     * encoding cannot decide; never to prove.
     */
    private readonly arrayBound?: number,
  ) {}

  /** The layer this executor resolves tools, events and contracts in. */
  get layerModel(): LayerModel {
    return this.layer;
  }

  // ───────────────────────────── entry points ─────────────────────────────

  /** Execute `main` with universally quantified inputs. */
  runMain(main: FunctionLike): void {
    const ts = this.ts;
    this.mainFile = main.getSourceFile();
    if (main.asteriskToken || this.isAsync(main)) this.refuse(main, "`main` is async or a generator.", "Write `export function main(...): void` with synchronous calls.");
    const st: State = { pc: "true", env: new Map() };
    for (const p of main.parameters) {
      if (!ts.isIdentifier(p.name) || p.dotDotDotToken || p.initializer || p.questionToken) {
        this.refuse(p, "`main`'s parameters must be plain required parameters.", "Declare each input as `name: string`, `number`, `boolean` or an array of those.");
      }
      const type = this.valueType(p);
      const sym = this.freshInput(p.name.text, type, p);
      this.world.inputs.push({ name: p.name.text, sym, type });
      st.env.set(this.symbolOfDecl(p), sym);
    }
    this.frames.push({ fn: main, loopBody: undefined });
    this.steps = 0;
    try {
      this.execBody(main, st);
    } finally {
      this.steps = undefined;
      this.frames.pop();
    }
  }

  /** Evaluate a contract applied to concrete arguments into a specification. */
  buildSpec(contract: ContractModel, args: readonly Sym[], at: TS.Node): SpecIR {
    if (this.contractStack.includes(contract)) this.refuse(at, `Contract \`${contract.name}\` calls itself.`, "Contracts may call other contracts, not themselves.");
    this.contractStack.push(contract);
    try {
      const env = new Map<TS.Symbol, Sym>();
      contract.body.parameters.forEach((p, i) => {
        let v = args[i];
        if (v === undefined) {
          if (!p.initializer) this.refuse(at, `Argument \`${p.name.getText()}\` of \`${contract.name}\` is missing.`, "Pass every argument.");
          v = this.evalExpr(p.initializer, { pc: "true", env });
        }
        env.set(this.symbolOfDecl(p), v);
      });
      const st: State = { pc: "true", env };
      this.frames.push({ fn: contract.body, loopBody: undefined });
      let result: Sym;
      try {
        result = this.evalFunctionBodyValue(contract.body, st);
      } finally {
        this.frames.pop();
      }
      if (result.k !== "spec") this.refuse(contract.body, `The body of \`${contract.name}\` does not return a specification.`, "Return `Event.all(...)`, `.count().atMost(n)`, `allOf(...)` or another contract's result.");
      return result.spec;
    } finally {
      this.contractStack.pop();
    }
  }

  /** Apply a contract lambda (predicate, selector, key) to an event or call record. */
  applyLambda(lambda: Lambda, item: Sym): Sym {
    const { fn } = lambda;
    const env = new Map(lambda.env);
    const p = fn.parameters[0];
    if (fn.parameters.length !== 1 || !p || !this.ts.isIdentifier(p.name)) {
      this.refuse(fn, "A relation's predicate takes exactly one parameter (the event).", "Write `(e) => condition over e's fields`.");
    }
    env.set(this.symbolOfDecl(p), item);
    const st: State = { pc: "true", env };
    const saved = this.pureOnly;
    this.pureOnly = true;
    this.frames.push({ fn, loopBody: undefined });
    try {
      return this.evalFunctionBodyValue(fn, st);
    } finally {
      this.frames.pop();
      this.pureOnly = saved;
    }
  }

  // ───────────────────────────── helpers ─────────────────────────────

  refuse(node: TS.Node, reason: string, instead: string): never {
    throw new Refusal(node, reason, instead);
  }

  private tick(node: TS.Node): void {
    if (this.steps !== undefined && ++this.steps > EXEC_STEP_LIMIT) {
      this.refuse(node, `Proving the program takes more than ${EXEC_STEP_LIMIT} steps of symbolic execution (unrolled loops count every iteration).`, "Use smaller literal loop bounds and fewer nested loops, or loop over the array itself (`for (const x of xs)`), which is not unrolled.");
    }
  }

  /** A value whose term has grown past TERM_CHAR_LIMIT (a value built from itself in a loop) is refused here, before it doubles again. */
  private sized(v: Sym, at: TS.Node): Sym {
    const t = v.k === "str" || v.k === "num" || v.k === "bool" ? v.t : "";
    if (t.length > TERM_CHAR_LIMIT) this.refuse(at, `This value's formula has grown past ${TERM_CHAR_LIMIT} characters (a value built from itself, repeatedly).`, "Build the value once instead of doubling it in a loop, or loop fewer times.");
    return v;
  }

  private isAsync(fn: FunctionLike): boolean {
    return (this.ts.getModifiers(fn as TS.HasModifiers) ?? []).some((m) => m.kind === this.ts.SyntaxKind.AsyncKeyword);
  }

  private symbolOfDecl(decl: TS.ParameterDeclaration | TS.VariableDeclaration | TS.BindingElement): TS.Symbol {
    const s = this.checker.getSymbolAtLocation(decl.name);
    if (!s) this.refuse(decl, "clauz3 could not resolve this declaration.", "Use a plain identifier.");
    return s;
  }

  private valueType(decl: TS.ParameterDeclaration): ValueType {
    return valueTypeOf({ ts: this.ts, checker: this.checker }, this.checker.getTypeAtLocation(decl));
  }

  /**
   * Before a path splits, give a long path condition a name: both branches repeat it, and where
   * they meet again as `(or (and pc c …) (and pc (not c) …))` it appears twice, so a sequence of
   * splits that do not rejoin exactly (an `ensures` on one side, a throw) doubles the text each
   * time. The name is a macro over the quantified loop indices in scope (so renaming an index,
   * as "another iteration" does, still reaches inside it): the same formula, shared.
   */
  private compactPc(st: State): void {
    st.pc = this.nameTerm(st.pc, "Bool", "pc");
  }

  /** A long term as a macro over the quantified loop indices in scope; short terms as they are. */
  private nameTerm(term: string, sort: string, prefix: string): string {
    if (term.length <= PC_NAME_AT) return term;
    const name = this.world.fresh(prefix);
    const params = this.loops.map((q, i) => [q, `${name}.${i}`] as const);
    const body = renameSymbols(term, new Map(params));
    this.world.declarations.push(`(define-fun ${name} (${params.map(([, p]) => `(${p} Int)`).join(" ")}) ${sort} ${body})`);
    return params.length === 0 ? name : `(${name} ${this.loops.join(" ")})`;
  }

  /**
   * A value merged where paths meet (`ite` over their conditions) with its long terms named: a
   * loop-carried counter guarded by its own value (`if (n < 5) n++`) repeats itself in the
   * condition and both branches, doubling with every unrolled iteration.
   */
  private compactSym(v: Sym): Sym {
    switch (v.k) {
      case "str": return { ...v, t: this.nameTerm(v.t, "String", "v") };
      case "bool": return { ...v, t: this.nameTerm(v.t, "Bool", "v") };
      case "num": return { ...v, t: this.nameTerm(v.t, FLOAT64, "v"), ...(v.int !== undefined ? { int: this.nameTerm(v.int, "Int", "v") } : {}) };
      case "maybe": return { k: "maybe", def: this.nameTerm(v.def, "Bool", "v"), v: this.compactSym(v.v) };
      case "arr": return { k: "arr", items: v.items.map((x) => this.compactSym(x)) };
      case "rec": return { k: "rec", fields: new Map([...v.fields].map(([k, x]) => [k, this.compactSym(x)])) };
      default: return v;
    }
  }

  private declare(name: string, sort: string, arity = 0): void {
    this.world.declarations.push(arity === 0 ? `(declare-const ${name} ${sort})` : `(declare-fun ${name} (${Array(arity).fill("Int").join(" ")}) ${sort})`);
  }

  /** A fresh scalar depending on the current quantified loop indices. */
  private freshScalar(prefix: string, type: ValueType, extra: readonly string[] = []): Sym {
    const loops = [...this.loops, ...extra];
    const sort = type.kind === "number" ? FLOAT64 : type.kind === "boolean" ? "Bool" : "String";
    const name = this.world.fresh(prefix);
    this.declare(name, sort, loops.length);
    const term = loops.length === 0 ? name : `(${name} ${loops.join(" ")})`;
    return this.scalarOfTerm(term, type, loops);
  }

  private scalarOfTerm(term: string, type: ValueType, loops: readonly string[]): Sym {
    switch (type.kind) {
      case "string": case "FilePath": case "DirectoryPath":
        // Every character is a UTF-16 code unit: the session runs Z3 with encoding=bmp (16-bit characters).
        return { k: "str", t: term };
      case "number":
        return { k: "num", t: term };
      case "boolean":
        return boolT(term);
      default:
        return { k: "opaque", why: `values of type ${showValueType(type)} are not modelled` };
    }
  }

  /** A fresh value of a modelled type (scalars, arrays with symbolic length, records). */
  private freshValue(prefix: string, type: ValueType, at: TS.Node, extra: readonly string[] = []): Sym {
    switch (type.kind) {
      case "string": case "FilePath": case "DirectoryPath": case "number": case "boolean":
        return this.freshScalar(prefix, type, extra);
      case "void":
        return UNDEF;
      case "record": {
        const fields = new Map<string, Sym>();
        for (const f of type.fields) fields.set(f.name, this.freshValue(`${prefix}.${f.name}`, f.type, at, extra));
        return { k: "rec", fields };
      }
      case "array": {
        const loops = [...this.loops, ...extra];
        const lenName = this.world.fresh(`${prefix}.length`);
        this.declare(lenName, "Int", loops.length);
        const len = loops.length === 0 ? lenName : `(${lenName} ${loops.join(" ")})`;
        this.world.assumptions.push({ term: `(>= ${len} 0)`, loops });
        const elem = type.element;
        if (elem.kind === "array") {
          return { k: "opaque", why: "arrays of arrays are not modelled" };
        }
        const cache = new Map<string, Sym>();
        // Every array gets its own element functions: two executions of one call site (a helper
        // called twice, an unrolled loop) return two unrelated arrays.
        const instance = holeOpen("shared-call-results") ? "" : String(this.arrays++);
        // Elements are uninterpreted functions of the enclosing loop indices and the element index.
        const makeElement = (index: string): Sym => {
          let v = cache.get(index);
          if (!v) {
            v = this.elementValue(`${prefix}[]`, elem, loops, index, instance);
            cache.set(index, v);
          }
          return v;
        };
        return { k: "sarr", len, at: makeElement, elem, label: prefix };
      }
      default:
        return { k: "opaque", why: `values of type ${showValueType(type)} are not modelled` };
    }
  }

  private elementFns = new Map<string, string>();
  /** Arrays created so far (each has its own element functions). */
  private arrays = 0;
  private elementValue(prefix: string, type: ValueType, loops: readonly string[], index: string, instance: string): Sym {
    if (type.kind === "record") {
      const fields = new Map<string, Sym>();
      for (const f of type.fields) fields.set(f.name, this.elementValue(`${prefix}.${f.name}`, f.type, loops, index, instance));
      return { k: "rec", fields };
    }
    if (type.kind !== "string" && type.kind !== "number" && type.kind !== "boolean" && type.kind !== "FilePath" && type.kind !== "DirectoryPath") {
      return { k: "opaque", why: `values of type ${showValueType(type)} are not modelled` };
    }
    const key = `${prefix}|${instance}|${loops.join(",")}`;
    let name = this.elementFns.get(key);
    if (!name) {
      name = this.world.fresh(prefix);
      this.elementFns.set(key, name);
      const sort = type.kind === "number" ? FLOAT64 : type.kind === "boolean" ? "Bool" : "String";
      this.declare(name, sort, loops.length + 1);
    }
    const term = `(${name} ${[...loops, index].join(" ")})`;
    const indexLoops = /^\d+$/.test(index) ? loops : [...loops, index];
    return this.scalarOfTerm(term, type, indexLoops);
  }

  private freshInput(name: string, type: ValueType, at: TS.Node): Sym {
    if (type.kind === "unsupported" || type.kind === "void" || type.kind === "record" || (type.kind === "array" && (type.element.kind === "array" || type.element.kind === "record" || type.element.kind === "unsupported"))) {
      this.refuse(at, `Input \`${name}\` has type ${showValueType(type)}, which is not modelled.`, "Declare `main`'s inputs as string, number, boolean, or arrays of those.");
    }
    return this.bounded(this.freshValue(name, type, at));
  }

  /** In bounded mode, an array of at most `arrayBound` elements (loops over it are unrolled exactly). */
  private bounded(v: Sym, bound?: number): Sym {
    if (v.k !== "sarr") return v;
    const k = this.arrayBound === undefined ? bound : Math.min(bound ?? this.arrayBound, this.arrayBound);
    if (k === undefined) return v;
    if (this.arrayBound !== undefined) this.world.assumptions.push({ term: `(<= ${v.len} ${k})`, loops: [...this.loops] });
    return { ...v, bound: k };
  }

  private isDefaultLib(decl: TS.Node): boolean {
    return this.program.isSourceFileDefaultLibrary(decl.getSourceFile());
  }

  private isAgentDecl(decl: TS.Node): boolean {
    const sf = decl.getSourceFile();
    return isProjectSource(sf.fileName, sf.isDeclarationFile) && !this.isTrusted(sf);
  }

  private inside(node: TS.Node, container: TS.Node): boolean {
    for (let n: TS.Node | undefined = node; n; n = n.parent) if (n === container) return true;
    return false;
  }

  private get frame(): Frame {
    return this.frames[this.frames.length - 1]!;
  }

  // ───────────────────────────── functions ─────────────────────────────

  private evalFunctionBodyValue(fn: FunctionLike, st: State): Sym {
    const ts = this.ts;
    if (!fn.body) this.refuse(fn, "The function has no body.", "Write the function inline.");
    if (!ts.isBlock(fn.body)) return this.evalExpr(fn.body, st);
    this.enterBlock(fn.body.statements, st);
    const flow = this.execStatements(fn.body.statements, st);
    this.noJumps(flow);
    return this.flowValue(flow, st, fn);
  }

  /** The value of a function body's flow: `ite` over its returns (undefined when it falls through). */
  private flowValue(flow: Flow, st: State, at: TS.Node): Sym {
    let value: Sym | undefined = flow.fall ? UNDEF : undefined;
    for (const r of [...flow.returns].reverse()) {
      if (value === undefined) value = r.value;
      else {
        const m = merge(r.pc, r.value, value);
        if (!m) this.refuse(at, "The function returns values of different kinds on different paths.", "Return values of one type on every path.");
        value = m;
      }
    }
    const exits = [...flow.returns.map((r) => r.pc), ...(flow.fall ? [flow.fall.pc] : [])];
    st.pc = exits.length === 0 ? "false" : exits.length === 1 ? exits[0]! : exits.includes(st.pc) ? st.pc : or(...exits);
    return value ?? UNDEF;
  }

  private execBody(fn: FunctionLike, st: State): Flow {
    const ts = this.ts;
    if (!fn.body) this.refuse(fn, "The function has no body.", "Write the function inline.");
    if (!ts.isBlock(fn.body)) {
      const value = this.evalExpr(fn.body, st);
      return { fall: null, returns: [{ pc: st.pc, value }] };
    }
    this.enterBlock(fn.body.statements, st);
    const flow = this.execStatements(fn.body.statements, st);
    this.noJumps(flow);
    return flow;
  }

  /** Inline a local helper: its events, obligations and throws happen at the call, under the caller's path. */
  private callHelper(fn: FunctionLike, call: TS.CallExpression, st: State): Sym {
    const ts = this.ts;
    if (this.inlining.includes(fn)) this.refuse(call, "Recursion is not modelled.", "Rewrite the helper without calling itself (for example, a `for` loop with a literal bound).");
    if (fn.asteriskToken) this.refuse(fn, "Generators are not modelled.", "Return an array instead.");
    if (this.isAsync(fn)) this.refuse(fn, "Async functions are not modelled.", "Write synchronous code; tools are called synchronously.");
    if (this.inlining.length > 64) this.refuse(call, "Helpers are nested too deeply.", "Flatten the helpers.");
    const args: Sym[] = [];
    for (const a of call.arguments) {
      if (ts.isSpreadElement(a)) this.refuse(a, "Spread arguments are not modelled.", "Pass each argument explicitly.");
      args.push(this.evalExpr(a, st));
    }
    const inner: State = { pc: st.pc, env: new Map(st.env) };
    fn.parameters.forEach((p, i) => {
      if (!ts.isIdentifier(p.name) || p.dotDotDotToken) this.refuse(p, "Destructured and rest parameters are not modelled.", "Use plain parameters.");
      // A default applies whenever the argument is `undefined`: missing, passed as `undefined`, or
      // a possibly-undefined value on the paths where it is.
      let v = args[i] ?? UNDEF;
      if (p.initializer) {
        const init = p.initializer;
        if (v.k === "undef") v = this.evalExpr(init, inner);
        else if (v.k === "maybe") {
          const given = v;
          v = this.branchValues(inner, given.def, () => given.v, (s) => this.evalExpr(init, s), p);
        }
      }
      this.noFunctionValue(v, call.arguments[i] ?? p);
      inner.env.set(this.symbolOfDecl(p), v);
    });
    this.inlining.push(fn);
    this.frames.push({ fn, loopBody: undefined });
    try {
      const flow = this.execBody(fn, inner);
      const value = this.flowValue(flow, inner, fn);
      st.pc = inner.pc;
      this.noFunctionValue(value, call);
      return value;
    } finally {
      this.frames.pop();
      this.inlining.pop();
    }
  }

  /**
   * A value used where JavaScript needs it defined: when it may be `undefined` on this path, that is
   * reported (like a reachable throw) and the path continues where it is defined.
   */
  private definite(v: Sym, at: TS.Node, st: State): Sym {
    if (v.k !== "maybe") return v;
    this.world.throws.push({ message: `\`${at.getText()}\` may be undefined here`, guard: and(st.pc, not(v.def)), site: at, loops: [...this.loops], order: this.world.nextOrder() });
    st.pc = and(st.pc, v.def);
    return v.v;
  }

  /**
   * JavaScript truthiness of a value used as a condition. A value of a type the prover does not
   * model (`string | undefined`, `T | null`, objects with optional fields) may be falsy, undefined or
   * null: it is refused, never assumed truthy.
   */
  private cond(v: Sym, at: TS.Node): string {
    this.notOpaque(v, at);
    return truthy(v);
  }

  /** Refuses a branch on a value whose truthiness, definedness or nullishness is not modelled. */
  private notOpaque(v: Sym, at: TS.Node): void {
    const inner = v.k === "maybe" ? v.v : v;
    if (inner.k === "opaque" && !holeOpen("opaque-truthy")) {
      this.refuse(at, `This value may be undefined, null or falsy in ways the prover does not model: ${inner.why}.`, "Have the tool return a modelled type (string, number, boolean, arrays, interfaces of those without optional fields), or compare the value with a literal of a modelled type.");
    }
  }

  private noFunctionValue(v: Sym, at: TS.Node): void {
    if (v.k === "fn") this.refuse(at, "Functions passed or returned as values are not modelled.", "Call the helper directly by name.");
  }

  // ───────────────────────────── statements ─────────────────────────────

  private execStatements(stmts: readonly TS.Statement[], st: State): Flow {
    const returns: Flow["returns"] = [];
    const jumps: Jump[] = [];
    let cur: State | null = st;
    for (const s of stmts) {
      if (!cur) break;
      const flow = this.execStatement(s, cur);
      returns.push(...flow.returns);
      jumps.push(...(flow.jumps ?? []));
      cur = flow.fall;
    }
    return { fall: cur, returns, jumps };
  }

  /**
   * Entering a block (again: the next iteration of a loop body): its `let`/`const` bindings are in
   * their temporal dead zone until their declarations run, so a value from an earlier iteration must
   * not be visible. A read before the declaration is then refused in `lookup`.
   */
  private enterBlock(stmts: readonly TS.Statement[], st: State): void {
    const ts = this.ts;
    if (holeOpen("tdz")) return;
    const forget = (name: TS.BindingName): void => {
      if (ts.isIdentifier(name)) {
        const sym = this.checker.getSymbolAtLocation(name);
        if (sym) st.env.delete(sym);
      } else for (const el of name.elements) if (!ts.isOmittedExpression(el)) forget(el.name);
    };
    for (const s of stmts) if (ts.isVariableStatement(s)) for (const d of s.declarationList.declarations) forget(d.name);
  }

  /**
   * Paths that meet again (an iteration's end reached normally or by `continue`, a loop's exit
   * reached normally or by `break`): one state whose variables are `ite` over the paths' conditions
   * (the paths are disjoint) and whose condition is their disjunction.
   */
  private joinStates(states: readonly (State | null)[], at: TS.Node): State | null {
    const live = states.filter((x): x is State => x !== null);
    if (live.length <= 1) return live[0] ?? null;
    const last = live[live.length - 1]!;
    const env = new Map<TS.Symbol, Sym>();
    for (const [k, v] of last.env) {
      let acc: Sym | undefined = v;
      for (const other of live.slice(0, -1).reverse()) {
        const ov = other.env.get(k);
        if (ov === undefined || acc === undefined) {
          acc = undefined;
          break;
        }
        const m = merge(other.pc, ov, acc);
        if (!m) this.refuse(at, "A variable holds values of different kinds where these paths meet.", "Assign values of one type to each variable on every path.");
        acc = m;
      }
      if (acc !== undefined) env.set(k, acc === v ? v : this.compactSym(acc));
    }
    return { pc: rejoin(live.map((x) => x.pc)), env };
  }

  /** The jumps of a flow of the given kind. */
  private static jumpsOf(flow: Flow, kind: Jump["kind"]): Jump[] {
    return (flow.jumps ?? []).filter((j) => j.kind === kind);
  }

  /** Jumps that have no enclosing loop here (a function body) cannot be: TypeScript rejects them. */
  private noJumps(flow: Flow): void {
    const j = flow.jumps?.[0];
    if (j) this.refuse(j.node, `\`${j.kind}\` outside a loop is not modelled.`, "Use `break` and `continue` only inside loops.");
  }

  private execStatement(s: TS.Statement, st: State): Flow {
    const ts = this.ts;
    this.tick(s);
    const fall = (): Flow => ({ fall: st, returns: [] });
    if (ts.isBlock(s)) {
      this.enterBlock(s.statements, st);
      return this.execStatements(s.statements, st);
    }
    if (ts.isEmptyStatement(s) || ts.isFunctionDeclaration(s) || ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) {
      if (ts.isFunctionDeclaration(s) && (s.asteriskToken || this.isAsync(s))) this.refuse(s, "Async functions and generators are not modelled.", "Write synchronous helpers.");
      return fall();
    }
    if (ts.isVariableStatement(s)) {
      const list = s.declarationList;
      if (!(list.flags & (ts.NodeFlags.Const | ts.NodeFlags.Let))) this.refuse(s, "`var` is not modelled.", "Declare variables with `const` or `let`.");
      for (const d of list.declarations) {
        if (!ts.isIdentifier(d.name)) this.refuse(d.name, "Destructuring is not modelled.", "Declare one variable per value: `const x = obj.x`.");
        let value: Sym = UNDEF;
        if (d.initializer) {
          const init = this.skip(d.initializer);
          value = ts.isArrowFunction(init) || ts.isFunctionExpression(init) ? this.functionValue(init) : this.evalExpr(d.initializer, st);
        }
        st.env.set(this.symbolOfDecl(d), value);
      }
      return fall();
    }
    if (ts.isExpressionStatement(s)) {
      this.execExpressionStatement(s.expression, st);
      return fall();
    }
    if (ts.isIfStatement(s)) {
      const c = this.cond(this.evalExpr(s.expression, st), s.expression);
      if (c === "true") return this.execStatement(s.thenStatement, st);
      if (c === "false") return s.elseStatement ? this.execStatement(s.elseStatement, st) : fall();
      this.compactPc(st);
      const s1: State = { pc: and(st.pc, c), env: new Map(st.env) };
      const f1 = this.execStatement(s.thenStatement, s1);
      const s2: State = { pc: and(st.pc, not(c)), env: new Map(st.env) };
      const f2: Flow = s.elseStatement ? this.execStatement(s.elseStatement, s2) : { fall: s2, returns: [] };
      return { fall: this.join(st, c, f1.fall, f2.fall, s), returns: [...f1.returns, ...f2.returns], jumps: [...(f1.jumps ?? []), ...(f2.jumps ?? [])] };
    }
    if (ts.isReturnStatement(s)) {
      if (this.frame.loopBody) this.refuse(s, "`return` inside a loop over an array input or tool result is not modelled.", "Filter with an `if` around the calls instead of returning early.");
      const value = s.expression ? this.evalExpr(s.expression, st) : UNDEF;
      return { fall: null, returns: [{ pc: st.pc, value }] };
    }
    if (ts.isThrowStatement(s)) {
      const e = this.skip(s.expression);
      if (ts.isNewExpression(e) && ts.isIdentifier(e.expression) && /^(Error|TypeError|RangeError)$/.test(e.expression.text)) {
        for (const a of e.arguments ?? []) this.evalExpr(a, st);
      } else this.evalExpr(s.expression, st);
      this.world.throws.push({ guard: st.pc, site: s, loops: [...this.loops], order: this.world.nextOrder() });
      return { fall: null, returns: [] };
    }
    if (ts.isForOfStatement(s)) return this.execForOf(s, st);
    if (ts.isForStatement(s)) return this.execFor(s, st);
    if (ts.isSwitchStatement(s)) return this.execSwitch(s, st);
    if (ts.isWhileStatement(s) || ts.isDoStatement(s)) {
      this.refuse(s, `\`${ts.isWhileStatement(s) ? "while" : "do…while"}\` loops are not modelled (their number of iterations is unknown).`, "Use `for (const x of array)` or `for (let i = 0; i < N; i++)` with a literal N.");
    }
    if (ts.isForInStatement(s)) this.refuse(s, "`for…in` is not modelled.", "Use `for (const x of array)`.");
    if (ts.isTryStatement(s)) this.refuse(s, "`try`/`catch` is not modelled: a caught failure would hide what happened.", "Remove the `try`; guard calls with `if` so they cannot fail.");
    if (ts.isBreakStatement(s) || ts.isContinueStatement(s)) {
      const kind = ts.isBreakStatement(s) ? "break" : "continue";
      if (s.label) this.refuse(s, `\`${kind}\` with a label is not modelled.`, `Use \`${kind}\` without a label, or guard the statements with \`if\`.`);
      return { fall: null, returns: [], jumps: [{ kind, state: st, node: s }] };
    }
    if (ts.isLabeledStatement(s)) this.refuse(s, "Labeled statements are not modelled.", "Remove the label and guard with `if`.");
    if (ts.isClassDeclaration(s)) this.refuse(s, "Classes are not modelled in agent programs.", "Use plain functions and values.");
    this.refuse(s, `This statement (${ts.SyntaxKind[s.kind]}) is not modelled.`, "Use const/let, if/else, switch, for…of, for with a literal bound, return and throw.");
  }

  /** Join two branch states after `if (c)`; variables assigned in either branch become `ite(c, …)`. */
  private join(outer: State, c: string, a: State | null, b: State | null, at: TS.Node): State | null {
    if (!a) return b;
    if (!b) return a;
    const pc = a.pc === and(outer.pc, c) && b.pc === and(outer.pc, not(c)) ? outer.pc : or(a.pc, b.pc);
    const env = new Map<TS.Symbol, Sym>();
    for (const [k, va] of a.env) {
      const vb = b.env.get(k);
      if (vb === undefined) continue;
      const m = merge(c, va, vb);
      if (!m) this.refuse(at, "A variable holds values of different kinds after this branch.", "Assign values of one type to each variable on every path.");
      env.set(k, m === va || m === vb ? m : this.compactSym(m));
    }
    return { pc, env };
  }

  private execExpressionStatement(e0: TS.Expression, st: State): void {
    const ts = this.ts;
    const e = this.skip(e0);
    if (ts.isBinaryExpression(e) && e.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && e.operatorToken.kind <= ts.SyntaxKind.LastAssignment) {
      const op = e.operatorToken.kind;
      const target = this.assignTarget(e.left);
      let value = this.evalExpr(e.right, st);
      if (op !== ts.SyntaxKind.EqualsToken) {
        const binary = {
          [ts.SyntaxKind.PlusEqualsToken]: ts.SyntaxKind.PlusToken,
          [ts.SyntaxKind.MinusEqualsToken]: ts.SyntaxKind.MinusToken,
          [ts.SyntaxKind.AsteriskEqualsToken]: ts.SyntaxKind.AsteriskToken,
          [ts.SyntaxKind.SlashEqualsToken]: ts.SyntaxKind.SlashToken,
        }[op as number];
        if (binary === undefined) this.refuse(e.operatorToken, "This compound assignment is not modelled.", "Write `x = x + y` style assignments with +, -, * or /.");
        const old = this.lookup(e.left as TS.Identifier, st);
        // `-=`, `*=` and `/=` convert with ToNumeric; `+=` concatenates when either side is a string.
        const modelled = binary === ts.SyntaxKind.PlusToken ? (old.k === "num" && value.k === "num") || old.k === "str" || value.k === "str" : old.k === "num" && value.k === "num";
        if (!modelled && !holeOpen("increment-non-number")) this.refuse(e, `\`${e.operatorToken.getText()}\` on these values converts them first, which is not modelled.`, "Use compound assignment on two numbers (or `+=` onto a string).");
        value = this.binaryValue(binary, old, value, e);
      }
      this.noFunctionValue(value, e.right);
      st.env.set(target, value);
      return;
    }
    if ((ts.isPostfixUnaryExpression(e) || ts.isPrefixUnaryExpression(e)) && (e.operator === ts.SyntaxKind.PlusPlusToken || e.operator === ts.SyntaxKind.MinusMinusToken)) {
      const target = this.assignTarget(e.operand);
      const old = this.lookup(e.operand as TS.Identifier, st);
      // JavaScript converts the operand with ToNumeric (`"5"++` is 6, `undefined++` is NaN): only numbers are modelled.
      if (old.k !== "num" && !holeOpen("increment-non-number")) this.refuse(e, `\`${e.getText()}\` on a value that is not a number converts it to a number first, which is not modelled.`, "Increment only `number` variables, or convert explicitly and compare the result.");
      st.env.set(target, this.binaryValue(e.operator === ts.SyntaxKind.PlusPlusToken ? ts.SyntaxKind.PlusToken : ts.SyntaxKind.MinusToken, old, num(1), e));
      return;
    }
    this.evalDiscard(e0, st);
  }

  /** Evaluate for effect only: `a && f()`, `c ? f() : g()` as statements need no common value type. */
  private evalDiscard(e0: TS.Expression, st: State): void {
    const ts = this.ts;
    const e = this.skip(e0);
    const branch = (c: string, a: (s: State) => void, b: (s: State) => void): void => {
      if (c === "true") return a(st);
      if (c === "false") return b(st);
      this.compactPc(st);
      const s1: State = { pc: and(st.pc, c), env: st.env };
      const s2: State = { pc: and(st.pc, not(c)), env: st.env };
      a(s1);
      b(s2);
      if (s1.pc !== and(st.pc, c) || s2.pc !== and(st.pc, not(c))) st.pc = or(s1.pc, s2.pc);
    };
    if (ts.isBinaryExpression(e) && (e.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken || e.operatorToken.kind === ts.SyntaxKind.BarBarToken || e.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken)) {
      const left = this.evalExpr(e.left, st);
      const right = (s: State) => this.evalDiscard(e.right, s);
      const none = () => undefined;
      if (e.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken) {
        this.notOpaque(left, e.left);
        const c = left.k === "undef" ? "true" : left.k === "maybe" ? not(left.def) : "false";
        return branch(c, right, none);
      }
      const c = this.cond(left, e.left);
      return e.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken ? branch(c, right, none) : branch(c, none, right);
    }
    if (ts.isConditionalExpression(e)) {
      const c = this.cond(this.evalExpr(e.condition, st), e.condition);
      return branch(c, (s) => this.evalDiscard(e.whenTrue, s), (s) => this.evalDiscard(e.whenFalse, s));
    }
    if (ts.isVoidExpression(e)) return this.evalDiscard(e.expression, st);
    this.evalExpr(e0, st);
  }

  /** The variable an assignment writes; refuses writes that would escape a helper or a quantified loop. */
  private assignTarget(node: TS.Expression): TS.Symbol {
    const ts = this.ts;
    if (!ts.isIdentifier(node)) this.refuse(node, "Only local variables can be assigned.", "Assign to a `let` variable declared in the same function.");
    const sym = this.checker.getSymbolAtLocation(node);
    const decl = sym?.valueDeclaration;
    if (!sym || !decl) this.refuse(node, `\`${node.text}\` cannot be resolved.`, "Assign to a `let` variable declared in the same function.");
    const frame = this.frame;
    if (frame.fn && !this.inside(decl, frame.fn)) {
      this.refuse(node, `The function assigns \`${node.text}\`, which it captured from outside: closures that mutate captured state are not modelled.`, "Return the new value from the helper and assign it at the call.");
    }
    if (!frame.fn && !this.inside(decl, node.getSourceFile())) this.refuse(node, "Assignment to module state is not modelled.", "Use local variables.");
    if (frame.loopBody && !this.inside(decl, frame.loopBody)) {
      this.refuse(node, `The loop body assigns \`${node.text}\`, declared outside a loop over an array input or tool result (loop-carried state is not modelled).`, "Compute per-element values inside the loop, or loop over a literal array or a literal bound.");
    }
    return sym;
  }

  private execForOf(s: TS.ForOfStatement, st: State): Flow {
    const ts = this.ts;
    if (s.awaitModifier) this.refuse(s, "`for await` is not modelled.", "Use a synchronous `for…of`.");
    const init = s.initializer;
    if (!ts.isVariableDeclarationList(init) || init.declarations.length !== 1 || !ts.isIdentifier(init.declarations[0]!.name)) {
      this.refuse(init, "The loop variable must be one `const` identifier.", "Write `for (const x of xs)`.");
    }
    const decl = init.declarations[0]!;
    const loopSym = this.symbolOfDecl(decl);
    const iterable = this.definite(this.evalExpr(s.expression, st), s.expression, st);
    if (iterable.k === "arr") {
      if (iterable.items.length > UNROLL_CAP) this.refuse(s.expression, `The literal array has more than ${UNROLL_CAP} elements.`, `Split the loop; literal arrays are unrolled up to ${UNROLL_CAP} elements.`);
      const returns: Flow["returns"] = [];
      const broken: State[] = [];
      let cur: State | null = st;
      for (const item of iterable.items) {
        if (!cur) break;
        cur.env.set(loopSym, item);
        const flow = this.execStatement(s.statement, cur);
        returns.push(...flow.returns);
        broken.push(...Executor.jumpsOf(flow, "break").map((j) => j.state));
        cur = this.joinStates([...Executor.jumpsOf(flow, "continue").map((j) => j.state), flow.fall], s);
      }
      return { fall: this.joinStates([...broken, cur], s), returns };
    }
    if (iterable.k !== "sarr") {
      this.refuse(s.expression, "Only arrays can be iterated.", "Loop over an array input, a literal array, or an array returned by a tool.");
    }
    if (iterable.bound !== undefined) {
      // Length bounded by an `ensures`: unroll exactly, iteration j happens iff j < length.
      const returns: Flow["returns"] = [];
      const broken: State[] = [];
      let cur: State | null = st;
      for (let j = 0; j < iterable.bound && cur; j++) {
        const c = `(< ${j} ${iterable.len})`;
        this.compactPc(cur);
        const body: State = { pc: and(cur.pc, c), env: new Map(cur.env) };
        body.env.set(loopSym, iterable.at(String(j)));
        const flow = this.execStatement(s.statement, body);
        returns.push(...flow.returns);
        broken.push(...Executor.jumpsOf(flow, "break").map((x) => x.state));
        const end = this.joinStates([...Executor.jumpsOf(flow, "continue").map((x) => x.state), flow.fall], s);
        const skipped: State = { pc: and(cur.pc, not(c)), env: cur.env };
        cur = this.join(cur, c, end, skipped, s);
      }
      return { fall: this.joinStates([...broken, cur], s), returns };
    }
    // Quantified: one symbolic iteration at an arbitrary index q with 0 <= q < length.
    const q = this.world.fresh("i");
    this.declare(q, "Int");
    const range = (x: string) => `(and (<= 0 ${x}) (< ${x} ${iterable.len}))`;
    this.world.loopRanges.set(q, { len: iterable.len });
    const entry = and(st.pc, range(q));
    const body: State = { pc: entry, env: new Map(st.env) };
    body.env.set(loopSym, iterable.at(q));
    this.loops.push(q);
    const savedLoopBody = this.frame.loopBody;
    this.frame.loopBody = s.statement;
    let flow: Flow;
    try {
      flow = this.execStatement(s.statement, body);
    } finally {
      this.frame.loopBody = savedLoopBody;
      this.loops.pop();
    }
    if (flow.returns.length > 0) this.refuse(s, "`return` inside a loop over an array input or tool result is not modelled.", "Guard the calls with `if` instead.");
    const broke = Executor.jumpsOf(flow, "break")[0];
    // Whether iteration q runs would depend on every earlier iteration: not modelled.
    if (broke) this.refuse(broke.node, "`break` inside a loop over an array input or tool result is not modelled (which iterations run would depend on the earlier ones).", "Skip elements with `if` or `continue` instead, or loop over a literal array or a literal bound.");
    // An iteration ends normally or by `continue`; only the path condition matters here (the body
    // assigns nothing declared outside it).
    const after = rejoin([...Executor.jumpsOf(flow, "continue").map((x) => x.state.pc), ...(flow.fall ? [flow.fall.pc] : [])]);
    if (after !== entry) {
      // Some iteration may throw: the code after the loop runs only if no iteration did.
      const q2 = this.world.fresh("j");
      const renamed = renameSymbols(after, new Map([[q, q2]]));
      st.pc = and(st.pc, `(forall ((${q2} Int)) ${implies(range(q2), renamed)})`);
    }
    return { fall: st, returns: [] };
  }

  private execFor(s: TS.ForStatement, st: State): Flow {
    const ts = this.ts;
    const init = s.initializer;
    if (!init || !ts.isVariableDeclarationList(init) || !(init.flags & ts.NodeFlags.Let)) {
      this.refuse(s, "A `for` loop must declare its counter with `let`.", "Write `for (let i = 0; i < N; i++)` with a literal N.");
    }
    const inner: State = { pc: st.pc, env: new Map(st.env) };
    for (const d of init.declarations) {
      if (!ts.isIdentifier(d.name)) this.refuse(d.name, "Destructuring is not modelled.", "Declare the counter as `let i = 0`.");
      inner.env.set(this.symbolOfDecl(d), d.initializer ? this.evalExpr(d.initializer, inner) : UNDEF);
    }
    const returns: Flow["returns"] = [];
    const broken: State[] = [];
    let cur: State | null = inner;
    for (let n = 0; ; n++) {
      if (!cur) break;
      if (n > UNROLL_CAP) this.refuse(s, `The loop runs more than ${UNROLL_CAP} iterations.`, `Loops with literal bounds are unrolled up to ${UNROLL_CAP} iterations.`);
      const cond = s.condition ? this.cond(this.evalExpr(s.condition, cur), s.condition) : "true";
      if (cond === "false") break;
      if (cond !== "true") this.refuse(s.condition ?? s, "The loop bound is not a literal, so the loop cannot be unrolled.", "Use a literal bound (`i < 10`) or loop over the array with `for (const x of xs)`.");
      const flow = this.execStatement(s.statement, cur);
      returns.push(...flow.returns);
      broken.push(...Executor.jumpsOf(flow, "break").map((j) => j.state));
      // `continue` goes on with the incrementor, like the end of the body.
      cur = this.joinStates([...Executor.jumpsOf(flow, "continue").map((j) => j.state), flow.fall], s);
      if (cur && s.incrementor) this.execExpressionStatement(s.incrementor, cur);
    }
    const out = this.joinStates([...broken, cur], s);
    if (out) for (const [k, v] of out.env) if (st.env.has(k)) st.env.set(k, v);
    return { fall: out ? { pc: out.pc, env: st.env } : null, returns };
  }

  /**
   * JavaScript's `switch`: the case expressions are compared in order until one matches, then the
   * clauses run from there, each falling into the next until a `break` (or `return`, `throw`,
   * `continue`) leaves. A clause ends only where every path through it has left; a clause whose
   * last statement is a block `{ … }` falls through like any other.
   */
  private execSwitch(s: TS.SwitchStatement, st: State): Flow {
    const ts = this.ts;
    const d = this.evalExpr(s.expression, st);
    const clauses = s.caseBlock.clauses;
    const defaultIndex = clauses.findIndex((c) => ts.isDefaultClause(c));
    if (defaultIndex >= 0 && defaultIndex !== clauses.length - 1) this.refuse(clauses[defaultIndex]!, "`default` must be the last clause.", "Move `default` to the end.");
    // The clauses form one block: their `let`/`const` declarations are not visible before they run.
    this.enterBlock(clauses.flatMap((c) => [...c.statements]), st);
    const returns: Flow["returns"] = [];
    const continues: Jump[] = [];
    const left: State[] = [];
    /** Paths that have not matched a case yet. */
    let rest: State | null = st;
    /** Paths that ran the previous clause to its end and fall into this one. */
    let falling: State | null = null;
    for (const clause of clauses) {
      let matched: State | null = null;
      if (rest) {
        this.compactPc(rest);
        const restState: State = rest;
        let c = "true";
        if (ts.isCaseClause(clause)) {
          const eq = strictEquals(d, this.evalExpr(clause.expression, restState));
          if (eq === undefined) this.refuse(clause.expression, "This `case` value cannot be compared with the discriminant.", "Compare strings, numbers or booleans.");
          c = eq;
        }
        matched = c === "false" ? null : { pc: and(restState.pc, c), env: new Map(restState.env) };
        rest = c === "true" ? null : { pc: and(restState.pc, not(c)), env: new Map(restState.env) };
      }
      const entry = this.joinStates([matched, falling], s);
      if (!entry) {
        falling = null;
        continue;
      }
      const flow = this.execStatements(clause.statements, entry);
      returns.push(...flow.returns);
      // A `break` inside the clause leaves the switch; a `continue` belongs to an enclosing loop.
      continues.push(...Executor.jumpsOf(flow, "continue"));
      left.push(...Executor.jumpsOf(flow, "break").map((j) => j.state));
      falling = flow.fall;
      const last = clause.statements[clause.statements.length - 1];
      if (holeOpen("switch-fallthrough") && last && ts.isBlock(last) && falling) {
        left.push(falling);
        falling = null;
      }
    }
    return { fall: this.joinStates([...left, falling, rest], s), returns, jumps: continues };
  }

  // ───────────────────────────── expressions ─────────────────────────────

  private skip(e: TS.Expression): TS.Expression {
    const ts = this.ts;
    let x = e;
    while (ts.isParenthesizedExpression(x) || ts.isAsExpression(x) || ts.isSatisfiesExpression(x) || ts.isNonNullExpression(x) || ts.isTypeAssertionExpression(x)) x = x.expression;
    return x;
  }

  private functionValue(fn: TS.ArrowFunction | TS.FunctionExpression): Sym {
    return { k: "fn", node: fn };
  }

  evalExpr(e0: TS.Expression, st: State): Sym {
    const ts = this.ts;
    this.tick(e0);
    const e = this.skip(e0);
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return str(e.text);
    if (ts.isNumericLiteral(e)) return num(Number(e.text));
    if (e.kind === ts.SyntaxKind.TrueKeyword) return bool(true);
    if (e.kind === ts.SyntaxKind.FalseKeyword) return bool(false);
    if (e.kind === ts.SyntaxKind.NullKeyword) this.refuse(e, "`null` is not modelled.", "Use a value of the parameter's type.");
    if (ts.isIdentifier(e)) return this.lookup(e, st);
    if (ts.isTemplateExpression(e)) {
      let acc = this.toStr(str(e.head.text), e);
      for (const span of e.templateSpans) {
        acc = this.sized(this.concat(acc, this.toStr(this.definite(this.evalExpr(span.expression, st), span.expression, st), span.expression)), span.expression);
        acc = this.concat(acc, str(span.literal.text));
      }
      return acc;
    }
    if (ts.isArrayLiteralExpression(e)) {
      return { k: "arr", items: e.elements.map((el) => {
        if (ts.isSpreadElement(el) || ts.isOmittedExpression(el)) this.refuse(el, "Spread elements and holes are not modelled.", "List the elements explicitly.");
        const v = this.evalExpr(el, st);
        this.noFunctionValue(v, el);
        return v;
      }) };
    }
    if (ts.isPrefixUnaryExpression(e)) {
      if (e.operator === ts.SyntaxKind.ExclamationToken) return boolT(not(this.cond(this.evalExpr(e.operand, st), e.operand)));
      if (e.operator === ts.SyntaxKind.MinusToken || e.operator === ts.SyntaxKind.PlusToken) {
        const v = this.definite(this.evalExpr(e.operand, st), e.operand, st);
        if (v.k !== "num") this.refuse(e, "Unary + and - apply to numbers only here.", "Convert explicitly, or compare values of one type.");
        if (e.operator === ts.SyntaxKind.PlusToken) return v;
        return v.c !== undefined ? num(-v.c) : { k: "num", t: `(fp.neg ${v.t})` };
      }
      this.refuse(e, "This operator is not modelled.", "Use !, -, +, comparisons and arithmetic.");
    }
    if (ts.isConditionalExpression(e)) {
      const c = this.cond(this.evalExpr(e.condition, st), e.condition);
      if (c === "true") return this.evalExpr(e.whenTrue, st);
      if (c === "false") return this.evalExpr(e.whenFalse, st);
      return this.branchValues(st, c, (s) => this.evalExpr(e.whenTrue, s), (s) => this.evalExpr(e.whenFalse, s), e);
    }
    if (ts.isBinaryExpression(e)) return this.evalBinary(e, st);
    if (ts.isCallExpression(e)) return this.evalCall(e, st);
    if (ts.isPropertyAccessExpression(e)) return this.evalProperty(e, st);
    if (ts.isElementAccessExpression(e)) return this.evalElement(e, st);
    if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) this.refuse(e, "Functions as values are not modelled here.", "Declare a helper with `const name = (...) => ...` and call it by name.");
    if (ts.isAwaitExpression(e)) this.refuse(e, "`await` is not modelled.", "Call tools synchronously.");
    if (ts.isYieldExpression(e)) this.refuse(e, "Generators are not modelled.", "Return an array instead.");
    if (ts.isNewExpression(e)) this.refuse(e, "`new` is not modelled in agent programs.", "Use plain values; classes are not part of the modelled subset.");
    if (ts.isTaggedTemplateExpression(e)) this.refuse(e, "Tagged templates call an arbitrary function.", "Use a plain template literal.");
    if (ts.isObjectLiteralExpression(e)) this.refuse(e, "Object literals are not modelled (getters and methods could run hidden code).", "Use separate variables.");
    if (ts.isTypeOfExpression(e) || ts.isVoidExpression(e) || ts.isDeleteExpression(e)) this.refuse(e, "This operator is not modelled.", "Compare values of known types instead.");
    this.refuse(e, `This expression (${ts.SyntaxKind[e.kind]}) is not modelled.`, "Use literals, variables, operators, calls of tools and local helpers, and the modelled string and array methods.");
  }

  /** Evaluate two alternatives under `c` / `!c` (calls in each happen only on their branch). */
  private branchValues(st: State, c: string, a: (s: State) => Sym, b: (s: State) => Sym, at: TS.Node): Sym {
    this.compactPc(st);
    const s1: State = { pc: and(st.pc, c), env: st.env };
    const s2: State = { pc: and(st.pc, not(c)), env: st.env };
    const v1 = a(s1);
    const v2 = b(s2);
    if (s1.pc !== and(st.pc, c) || s2.pc !== and(st.pc, not(c))) st.pc = or(s1.pc, s2.pc);
    const m = merge(c, v1, v2);
    if (!m) this.refuse(at, "The two alternatives have different kinds of values.", "Make both alternatives the same type.");
    return m === v1 || m === v2 ? m : this.compactSym(m);
  }

  private lookup(id: TS.Identifier, st: State): Sym {
    const ts = this.ts;
    const sym = this.checker.getSymbolAtLocation(id);
    if (id.text === "undefined" && (!sym || !sym.declarations?.length || this.isDefaultLibSymbol(sym))) return UNDEF;
    if (sym && st.env.has(sym)) return st.env.get(sym)!;
    if (!sym) this.refuse(id, `\`${id.text}\` cannot be resolved.`, "Declare it, or import it from a trusted library.");
    const decl = resolveDeclaration(ts, this.checker, sym);
    if (!decl) this.refuse(id, `\`${id.text}\` has no declaration clauz3 can see.`, "Declare it, or import it from a trusted library.");
    if (this.layer.toolByDeclaration.has(decl)) {
      this.refuse(id, `The trusted tool \`${id.text}\` is used as a value (aliasing, callbacks and indirect calls hide calls from the prover).`, `Call it directly: \`${id.text}(...)\`.`);
    }
    const contract = this.layer.contractByDeclaration.get(decl);
    if (contract) return { k: "contract", contract };
    const event = this.layer.eventByDeclaration.get(decl);
    if (event) return { k: "eventClass", event };
    if (this.isAgentDecl(decl) && this.mainFile && decl.getSourceFile() !== this.mainFile && !this.inside(id, decl.getSourceFile())) {
      this.refuse(id, `\`${id.text}\` is declared in another agent module; the prover inlines only helpers declared in the program itself.`, "Declare the helper in this file, or make it a trusted tool with a reviewed `performs`.");
    }
    if ((ts.isFunctionDeclaration(decl) || ts.isFunctionExpression(decl) || ts.isArrowFunction(decl)) && this.isAgentDecl(decl)) return { k: "fn", node: decl };
    // Module-level constants are initialised before `main` runs; a local one is in `env` once its
    // declaration has run, so reaching here for a local means it has not (the temporal dead zone).
    const moduleLevel = ts.isVariableDeclaration(decl) && ts.isSourceFile(decl.parent.parent.parent);
    if (ts.isVariableDeclaration(decl) && this.isAgentDecl(decl) && decl.initializer && (moduleLevel || holeOpen("tdz"))) {
      const init = this.skip(decl.initializer);
      if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) {
        if (!(decl.parent.flags & ts.NodeFlags.Const)) this.refuse(id, "Helpers must be declared with `const`.", "Write `const helper = (...) => ...`.");
        return { k: "fn", node: init };
      }
      if (ts.isSourceFile(decl.parent.parent.parent) && decl.parent.flags & ts.NodeFlags.Const) return this.moduleConst(decl, init);
    }
    if (this.isDefaultLibSymbol(sym)) {
      if (id.text === "NaN") return num(NaN);
      if (id.text === "Infinity") return num(Infinity);
      if (["eval", "Function", "globalThis", "require", "Reflect", "Proxy", "setTimeout", "setInterval", "queueMicrotask", "Promise"].includes(id.text)) {
        this.refuse(id, `\`${id.text}\` can run code the prover cannot see.`, "Call trusted tools and local helpers directly.");
      }
    }
    if (ts.isVariableDeclaration(decl) && ts.isVariableDeclarationList(decl.parent) && decl.parent.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const)) {
      const scope = decl.parent.parent.parent;
      if (scope && this.inside(id, scope)) {
        this.refuse(id, `\`${id.text}\` is read before its declaration runs on this path (JavaScript throws a ReferenceError: the temporal dead zone).`, `Declare \`${id.text}\` before the code that reads it, including code in helpers called earlier.`);
      }
    }
    if (ts.isParameter(decl) || ts.isVariableDeclaration(decl)) {
      this.refuse(id, `\`${id.text}\` is not in scope on this path (captured from a place the prover does not model).`, "Pass the value as a parameter.");
    }
    this.refuse(id, `\`${id.text}\` is not a trusted tool, a local helper or a modelled built-in.`, "Call trusted tools and local helpers; compute with the modelled operators and methods.");
  }

  private isDefaultLibSymbol(sym: TS.Symbol): boolean {
    const decls = sym.declarations ?? [];
    return decls.length > 0 && decls.every((d) => this.isDefaultLib(d) || /[\\/]node_modules[\\/]@types[\\/]node[\\/]/.test(d.getSourceFile().fileName));
  }

  private moduleConst(decl: TS.VariableDeclaration, init: TS.Expression): Sym {
    const known = this.moduleConsts.get(decl);
    if (known) return known;
    const saved = this.pureOnly;
    this.pureOnly = true;
    try {
      const v = this.evalExpr(init, { pc: "true", env: new Map() });
      this.moduleConsts.set(decl, v);
      return v;
    } finally {
      this.pureOnly = saved;
    }
  }

  private toStr(v: Sym, at: TS.Node): Sym {
    switch (v.k) {
      case "str": return v;
      case "num": {
        if (v.c !== undefined) return str(String(v.c));
        if (v.int === undefined) this.refuse(at, "Converting a symbolic number that may not be an integer to a string is not modelled (JavaScript prints the shortest digits that round-trip).", "Format integers only (lengths, counts, integer arithmetic), or compare the number directly instead of formatting it.");
        // An integer prints as its decimal digits (-0 as "0"). Int terms are lengths (below 2^53
        // by the language) and literals merged with them, where JavaScript's digits are exact.
        const n = this.nameTerm(v.int, "Int", "n");
        return { k: "str", t: `(ite (>= ${n} 0) (str.from_int ${n}) (str.++ "-" (str.from_int (- ${n}))))` };
      }
      case "bool": return v.c !== undefined ? str(String(v.c)) : { k: "str", t: ite(v.t, '"true"', '"false"') };
      case "undef": return str("undefined");
      default: this.refuse(at, "Converting this value to a string is not modelled.", "Concatenate strings, numbers and booleans only.");
    }
  }

  private concat(a: Sym, b: Sym): Sym {
    if (a.k !== "str" || b.k !== "str") throw new Error("concat of non-strings");
    if (a.c !== undefined && b.c !== undefined) return str(a.c + b.c);
    if (a.c === "") return b;
    if (b.c === "") return a;
    return { k: "str", t: `(str.++ ${a.t} ${b.t})` };
  }

  private evalBinary(e: TS.BinaryExpression, st: State): Sym {
    const ts = this.ts;
    const op = e.operatorToken.kind;
    if (op === ts.SyntaxKind.AmpersandAmpersandToken || op === ts.SyntaxKind.BarBarToken) {
      const left = this.evalExpr(e.left, st);
      const c = this.cond(left, e.left);
      const and_ = op === ts.SyntaxKind.AmpersandAmpersandToken;
      // a && b: b runs only when a is truthy; the value is a when a is falsy.
      if (c === (and_ ? "false" : "true")) return left;
      if (c === (and_ ? "true" : "false")) return this.evalExpr(e.right, st);
      return and_
        ? this.branchValues(st, c, (s) => this.evalExpr(e.right, s), () => left, e)
        : this.branchValues(st, c, () => left, (s) => this.evalExpr(e.right, s), e);
    }
    if (op === ts.SyntaxKind.QuestionQuestionToken) {
      const left = this.evalExpr(e.left, st);
      this.notOpaque(left, e.left);
      if (left.k === "maybe") return this.branchValues(st, left.def, () => left.v, (s) => this.evalExpr(e.right, s), e);
      return left.k === "undef" ? this.evalExpr(e.right, st) : left;
    }
    if (op >= ts.SyntaxKind.FirstAssignment && op <= ts.SyntaxKind.LastAssignment) {
      this.refuse(e, "Assignments inside expressions are not modelled.", "Assign in a statement of its own.");
    }
    if (op === ts.SyntaxKind.CommaToken) this.refuse(e, "The comma operator is not modelled.", "Write separate statements.");
    const equality = op === ts.SyntaxKind.EqualsEqualsEqualsToken || op === ts.SyntaxKind.ExclamationEqualsEqualsToken || op === ts.SyntaxKind.EqualsEqualsToken || op === ts.SyntaxKind.ExclamationEqualsToken;
    let left = this.evalExpr(e.left, st);
    if (!equality) left = this.definite(left, e.left, st);
    let right = this.evalExpr(e.right, st);
    if (!equality) right = this.definite(right, e.right, st);
    return this.binaryValue(op, left, right, e);
  }

  private binaryValue(op: TS.SyntaxKind, a: Sym, b: Sym, at: TS.Node): Sym {
    return this.sized(this.binaryTerm(op, a, b, at), at);
  }

  private binaryTerm(op: TS.SyntaxKind, a: Sym, b: Sym, at: TS.Node): Sym {
    const ts = this.ts;
    const K = ts.SyntaxKind;
    switch (op) {
      case K.EqualsEqualsEqualsToken: case K.ExclamationEqualsEqualsToken: case K.EqualsEqualsToken: case K.ExclamationEqualsToken: {
        const loose = op === K.EqualsEqualsToken || op === K.ExclamationEqualsToken;
        // `==` converts between types (`"1" == 1`): it agrees with `===` only when both sides are of
        // one type where defined (undefined equals only undefined; null is not modelled).
        const inner = (x: Sym): Sym["k"] => (x.k === "maybe" ? x.v.k : x.k);
        if (loose && inner(a) !== inner(b) && a.k !== "undef" && b.k !== "undef") this.refuse(at, "Loose equality between different types is not modelled.", "Use `===` on values of one type.");
        const eq = strictEquals(a, b);
        if (eq === undefined) this.refuse(at, "These values cannot be compared.", "Compare strings, numbers or booleans.");
        return boolT(op === K.EqualsEqualsEqualsToken || op === K.EqualsEqualsToken ? eq : not(eq));
      }
      case K.LessThanToken: case K.LessThanEqualsToken: case K.GreaterThanToken: case K.GreaterThanEqualsToken: {
        const rel = op === K.LessThanToken ? "<" : op === K.LessThanEqualsToken ? "<=" : op === K.GreaterThanToken ? ">" : ">=";
        if (a.k === "num" && b.k === "num") {
          if (a.c !== undefined && b.c !== undefined) return bool(rel === "<" ? a.c < b.c : rel === "<=" ? a.c <= b.c : rel === ">" ? a.c > b.c : a.c >= b.c);
          if (a.int && b.int) return boolT(`(${rel} ${a.int} ${b.int})`);
          const fp = { "<": "fp.lt", "<=": "fp.leq", ">": "fp.gt", ">=": "fp.geq" }[rel];
          return boolT(`(${fp} ${a.t} ${b.t})`);
        }
        if (a.k === "str" && b.k === "str") {
          if (a.c !== undefined && b.c !== undefined) return bool(rel === "<" ? a.c < b.c : rel === "<=" ? a.c <= b.c : rel === ">" ? a.c > b.c : a.c >= b.c);
          const [x, y] = rel === "<" || rel === "<=" ? [a.t, b.t] : [b.t, a.t];
          return boolT(`(${rel === "<" || rel === ">" ? "str.<" : "str.<="} ${x} ${y})`);
        }
        this.refuse(at, "Relational comparison of different types is not modelled.", "Compare two numbers or two strings.");
      }
      case K.PlusToken: {
        if (a.k === "num" && b.k === "num") {
          if (a.c !== undefined && b.c !== undefined) return num(a.c + b.c);
          return { k: "num", t: `(fp.add ${RM} ${a.t} ${b.t})` };
        }
        if (a.k === "str" || b.k === "str") return this.concat(this.toStr(a, at), this.toStr(b, at));
        this.refuse(at, "`+` on these values is not modelled.", "Add two numbers or concatenate strings.");
      }
      case K.MinusToken: case K.AsteriskToken: case K.SlashToken: case K.PercentToken: case K.AsteriskAsteriskToken: {
        if (a.k !== "num" || b.k !== "num") this.refuse(at, "Arithmetic applies to numbers only.", "Use numbers on both sides.");
        if (a.c !== undefined && b.c !== undefined) {
          const x = a.c, y = b.c;
          return num(op === K.MinusToken ? x - y : op === K.AsteriskToken ? x * y : op === K.SlashToken ? x / y : op === K.PercentToken ? x % y : x ** y);
        }
        if (op === K.PercentToken || op === K.AsteriskAsteriskToken) this.refuse(at, `\`${op === K.PercentToken ? "%" : "**"}\` on a symbolic number is not modelled.`, "Use +, -, * or / on symbolic numbers.");
        const fn = op === K.MinusToken ? "fp.sub" : op === K.AsteriskToken ? "fp.mul" : "fp.div";
        return { k: "num", t: `(${fn} ${RM} ${a.t} ${b.t})` };
      }
      default:
        this.refuse(at, `The operator \`${ts.tokenToString(op) ?? ts.SyntaxKind[op]}\` is not modelled.`, "Use comparisons, +, -, *, /, &&, || and !.");
    }
  }

  private evalProperty(e: TS.PropertyAccessExpression, st: State): Sym {
    const ts = this.ts;
    if (e.questionDotToken) this.refuse(e, "Optional chaining is not modelled.", "Access the property directly.");
    const decl = resolveDeclaration(ts, this.checker, this.checker.getSymbolAtLocation(e.name));
    if (decl && this.layer.toolByDeclaration.has(decl)) {
      this.refuse(e, `The trusted tool \`${e.name.text}\` is used as a value (aliasing, callbacks and indirect calls hide calls from the prover).`, `Call it directly: \`${e.getText()}(...)\`.`);
    }
    if (decl && this.layer.contractByDeclaration.has(decl)) return { k: "contract", contract: this.layer.contractByDeclaration.get(decl)! };
    if (decl && this.layer.eventByDeclaration.has(decl)) return { k: "eventClass", event: this.layer.eventByDeclaration.get(decl)! };
    const target = this.definite(this.evalExpr(e.expression, st), e.expression, st);
    const name = e.name.text;
    if (name === "length") {
      if (target.k === "str") return target.c !== undefined ? num(target.c.length) : numFromInt(`(str.len ${target.t})`);
      if (target.k === "arr") return num(target.items.length);
      if (target.k === "sarr") return numFromInt(target.len);
    }
    if (target.k === "rec") {
      const v = target.fields.get(name);
      if (v) return v;
    }
    if (target.k === "opaque") this.refuse(e, `This value cannot be read: ${target.why}.`, "Use tool results of modelled types (string, number, boolean, arrays, interfaces of those).");
    this.refuse(e.name, `The property \`${name}\` is not modelled here.`, "Read `length`, fields of events and tool results, or call the modelled string and array methods.");
  }

  private evalElement(e: TS.ElementAccessExpression, st: State): Sym {
    const ts = this.ts;
    const decl = resolveDeclaration(ts, this.checker, this.checker.getSymbolAtLocation(e.expression));
    if (decl && (ts.isSourceFile(decl) || ts.isModuleDeclaration(decl) || ts.isNamespaceImport(decl))) {
      this.refuse(e, "Computed access to a module hides which function is called.", "Import the tool by name and call it directly.");
    }
    const target = this.evalExpr(e.expression, st);
    const index = this.evalExpr(e.argumentExpression, st);
    if (target.k === "arr" && index.k === "num" && index.c !== undefined) {
      return Number.isInteger(index.c) && index.c >= 0 && index.c < target.items.length ? target.items[index.c]! : UNDEF;
    }
    this.refuse(e, "Indexing is modelled only for literal arrays with a literal index.", "Loop with `for (const x of xs)` instead of indexing.");
  }

  // ───────────────────────────── calls ─────────────────────────────

  private evalCall(e: TS.CallExpression, st: State): Sym {
    const ts = this.ts;
    if (e.questionDotToken) this.refuse(e, "Optional calls are not modelled.", "Call the function directly.");
    for (const a of e.arguments) if (ts.isSpreadElement(a)) this.refuse(a, "Spread arguments are not modelled.", "Pass each argument explicitly.");
    const callee = this.skip(e.expression);
    if (callee !== e.expression && !ts.isParenthesizedExpression(e.expression)) {
      // `(x as any)(...)`: still resolve below.
    }
    if (ts.isIdentifier(callee) || ts.isPropertyAccessExpression(callee)) {
      if (ts.isPropertyAccessExpression(callee) && callee.questionDotToken) this.refuse(callee, "Optional chaining is not modelled.", "Call the function directly.");
      const nameNode = ts.isPropertyAccessExpression(callee) ? callee.name : callee;
      const symbol = this.checker.getSymbolAtLocation(nameNode);
      const runtime = runtimeExportOf(ts, this.checker, symbol);
      const decl = resolveDeclaration(ts, this.checker, symbol);
      const tool = decl ? this.layer.toolByDeclaration.get(decl) : undefined;
      if (tool) {
        if (callee !== e.expression) this.refuse(e.expression, "Calling a tool through a type assertion or parentheses is not modelled.", `Call it directly: \`${tool.name}(...)\`.`);
        return this.callTool(tool, e, st);
      }
      if (runtime) return this.callRuntime(runtime, e, st);
      const contract = decl ? this.layer.contractByDeclaration.get(decl) : undefined;
      if (contract) {
        if (this.contractStack.length === 0) this.refuse(e, "Contracts are applied in `guarantees`, not called from the program.", "List the contract in `export const guarantees = [...]`.");
        const args = e.arguments.map((a) => this.evalExpr(a, st));
        return { k: "spec", spec: this.buildSpec(contract, args, e) };
      }
      if (ts.isIdentifier(callee)) {
        let v: Sym;
        try {
          v = this.lookup(callee, st);
        } catch (error) {
          if (error instanceof Refusal) this.refuseToolValues(e.arguments);
          throw error;
        }
        if (v.k === "fn") {
          if (this.pureOnly) this.refuse(e, "Calls are not allowed here (top-level values and contract predicates are pure).", "Compute the value inside `main`.");
          return this.callHelper(v.node, e, st);
        }
        this.refuse(callee, `\`${callee.text}\` is not a function the prover can follow.`, "Call trusted tools and local helpers by name.");
      }
      if (ts.isPropertyAccessExpression(callee)) {
        if (ts.isIdentifier(callee.expression) && callee.expression.text === "Math" && this.isDefaultLibSymbol(this.checker.getSymbolAtLocation(callee.expression) ?? ({} as TS.Symbol))) {
          return this.callMath(callee.name.text, e, st);
        }
        const target = this.definite(this.evalExpr(callee.expression, st), callee.expression, st);
        return this.callMethod(target, callee.name.text, e, st);
      }
    }
    this.refuseToolValues(e.arguments);
    this.refuse(e.expression, "This call cannot be resolved to a trusted tool, a local helper or a modelled built-in.", "Call tools and helpers directly by name.");
  }

  private callMath(name: string, e: TS.CallExpression, st: State): Sym {
    if (name !== "min" && name !== "max") this.refuse(e, `\`Math.${name}\` is not modelled.`, "Use Math.min, Math.max, comparisons and arithmetic.");
    const args = e.arguments.map((a) => this.evalExpr(a, st));
    if (args.length === 0) return num(name === "min" ? Infinity : -Infinity);
    if (args.some((a) => a.k !== "num")) this.refuse(e, `\`Math.${name}\` takes numbers.`, "Pass numbers.");
    const nums = args as Extract<Sym, { k: "num" }>[];
    if (nums.every((n) => n.c !== undefined)) return num(name === "min" ? Math.min(...nums.map((n) => n.c!)) : Math.max(...nums.map((n) => n.c!)));
    // JavaScript semantics: NaN if any argument is NaN; -0 < +0 for min, +0 > -0 for max.
    return nums.slice(1).reduce<Sym>((acc, b) => {
      const a = acc as Extract<Sym, { k: "num" }>;
      const better = name === "min"
        ? `(or (fp.lt ${a.t} ${b.t}) (and (fp.isZero ${a.t}) (fp.isZero ${b.t}) (fp.isNegative ${a.t})))`
        : `(or (fp.gt ${a.t} ${b.t}) (and (fp.isZero ${a.t}) (fp.isZero ${b.t}) (fp.isPositive ${a.t})))`;
      return { k: "num", t: `(ite (or (fp.isNaN ${a.t}) (fp.isNaN ${b.t})) ${numLit(NaN)} (ite ${better} ${a.t} ${b.t}))` };
    }, nums[0]!);
  }

  private callMethod(target: Sym, name: string, e: TS.CallExpression, st: State): Sym {
    const args = () => e.arguments.map((a) => this.definite(this.evalExpr(a, st), a, st));
    if (target.k === "str" && (name === "startsWith" || name === "endsWith" || name === "includes")) {
      const as = args();
      if (as.length !== 1) this.refuse(e, `\`${name}\` with a position argument is not modelled.`, `Call \`${name}(text)\` with one argument.`);
      const x = as[0]!;
      if (x.k !== "str") this.refuse(e.arguments[0]!, `\`${name}\` takes a string here.`, "Pass a string.");
      if (target.c !== undefined && x.c !== undefined) return bool(name === "startsWith" ? target.c.startsWith(x.c) : name === "endsWith" ? target.c.endsWith(x.c) : target.c.includes(x.c));
      return boolT(name === "startsWith" ? `(str.prefixof ${x.t} ${target.t})` : name === "endsWith" ? `(str.suffixof ${x.t} ${target.t})` : `(str.contains ${target.t} ${x.t})`);
    }
    if ((target.k === "arr" || target.k === "sarr") && name === "includes") {
      const as = args();
      if (as.length !== 1) this.refuse(e, "`includes` with a position argument is not modelled.", "Call `includes(value)` with one argument.");
      const x = as[0]!;
      if (target.k === "arr") {
        return boolT(or(...target.items.map((item) => {
          const eq = sameValueZero(item, x);
          if (eq === undefined) this.refuse(e, "`includes` compares strings, numbers or booleans only.", "Compare scalar values.");
          return eq;
        })));
      }
      const q = this.world.fresh("k");
      const before = this.world.assumptions.length;
      const item = target.at(q);
      // Facts about the element at the bound index belong inside the quantifier.
      const local = this.world.assumptions.splice(before).map((a) => a.term);
      const eq = sameValueZero(item, x);
      if (eq === undefined) this.refuse(e, "`includes` compares strings, numbers or booleans only.", "Compare scalar values.");
      return boolT(`(exists ((${q} Int)) (and (<= 0 ${q}) (< ${q} ${target.len}) ${[...local, eq].join(" ")}))`);
    }
    if (target.k === "eventClass") return this.relationMethod({ source: { kind: "event", event: target.event }, filters: [], node: e }, name, e, st);
    if (target.k === "rel") return this.relationMethod(target.rel, name, e, st);
    if (target.k === "agg") {
      if (!COMPARISONS.includes(name as Comparison)) this.refuse(e, `\`${name}\` is not a comparison of count() or sum().`, `Use one of ${COMPARISONS.join(", ")}.`);
      const bounds = args().map((b, i) => {
        if (b.k !== "num" || b.c === undefined) this.refuse(e.arguments[i]!, "Bounds must be literal numbers (or contract parameters bound to literals).", "Pass a number.");
        return b.c;
      });
      if (bounds.length !== (name === "between" ? 2 : 1)) this.refuse(e, `\`${name}\` takes ${name === "between" ? 2 : 1} bound(s).`, "Pass the bounds.");
      return { k: "spec", spec: { k: "compare", rel: target.rel, agg: target.agg, op: name as Comparison, bounds, node: e } };
    }
    if (target.k === "opaque") this.refuse(e, `This value cannot be used: ${target.why}.`, "Use tool results of modelled types.");
    this.refuseToolValues(e.arguments);
    this.refuse(e.expression, `The method \`${name}\` is not modelled.`, "Use startsWith, endsWith, includes and length on strings, includes and length on arrays.");
  }

  /** A tool passed along (a callback, an alias) is the sharper refusal: report it on its own node. */
  private refuseToolValues(nodes: readonly TS.Node[]): void {
    const ts = this.ts;
    const visit = (n: TS.Node): void => {
      if (ts.isIdentifier(n) || ts.isPropertyAccessExpression(n)) {
        const name = ts.isPropertyAccessExpression(n) ? n.name : n;
        const decl = resolveDeclaration(ts, this.checker, this.checker.getSymbolAtLocation(name));
        const direct = ts.isCallExpression(n.parent) && n.parent.expression === n;
        if (decl && this.layer.toolByDeclaration.has(decl) && !direct) {
          this.refuse(n, `The trusted tool \`${name.getText()}\` is used as a value (aliasing, callbacks and indirect calls hide calls from the prover).`, `Call it directly: \`${n.getText()}(...)\`.`);
        }
        if (ts.isPropertyAccessExpression(n)) visit(n.expression);
        return;
      }
      ts.forEachChild(n, visit);
    };
    nodes.forEach(visit);
  }

  private lambdaArg(e: TS.CallExpression, st: State): Lambda {
    const ts = this.ts;
    const a = e.arguments[0];
    const fn = a && this.skip(a);
    if (!fn || !(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) || e.arguments.length !== 1) {
      this.refuse(a ?? e, "Relations take one inline arrow function.", "Write `(e) => condition`.");
    }
    return { fn, env: new Map(st.env) };
  }

  private relationMethod(rel: RelationIR, name: string, e: TS.CallExpression, st: State): Sym {
    if (this.contractStack.length === 0) this.refuse(e, "Relations belong in contracts.", "Use relations inside `contract(...)` bodies of a trusted library.");
    switch (name) {
      case "where": return { k: "rel", rel: { ...rel, filters: [...rel.filters, this.lambdaArg(e, st)], node: e } };
      case "all": return { k: "spec", spec: { k: "all", rel, pred: this.lambdaArg(e, st), node: e } };
      case "empty": return { k: "spec", spec: { k: "empty", rel, node: e } };
      case "count": return { k: "agg", rel, agg: { k: "count" } };
      case "sum": return { k: "agg", rel, agg: { k: "sum", sel: this.lambdaArg(e, st) } };
      case "distinct": case "sharesValue": return { k: "spec", spec: { k: name, rel, key: this.lambdaArg(e, st), node: e } };
      default: this.refuse(e, `\`${name}\` is not a relation query.`, "Use all, where, empty, count, sum, distinct or sharesValue.");
    }
  }

  private callRuntime(which: string, e: TS.CallExpression, st: State): Sym {
    const ts = this.ts;
    switch (which) {
      case "FilePath": case "DirectoryPath": {
        const v = this.evalExpr(e.arguments[0]!, st);
        if (v.k !== "str") this.refuse(e, `${which}(...) takes a string.`, "Pass a string.");
        return v;
      }
      case "allOf": {
        const specs = e.arguments.map((a) => {
          const v = this.evalExpr(a, st);
          if (v.k !== "spec") this.refuse(a, "`allOf` takes specifications.", "Pass relation queries or contract calls.");
          return v.spec;
        });
        return { k: "spec", spec: { k: "allOf", specs } };
      }
      case "noGuarantees":
        return { k: "spec", spec: { k: "none" } };
      case "effect": {
        const a = e.arguments[0] && this.skip(e.arguments[0]);
        const node = a && (ts.isPropertyAccessExpression(a) ? a.name : a);
        const decl = node && resolveDeclaration(ts, this.checker, this.checker.getSymbolAtLocation(node));
        const tool = decl && this.layer.toolByDeclaration.get(decl);
        if (!tool || this.contractStack.length === 0) this.refuse(e, "`effect(tool)` takes a trusted tool, inside a contract.", "Write `effect(toolName)` in a contract body.");
        return { k: "rel", rel: { source: { kind: "effect", tool }, filters: [], node: e } };
      }
      default:
        this.refuse(e, `\`${which}\` is a trusted-layer declaration and cannot run in an agent program.`, "Move declarations into a trusted library; agent programs call tools and list guarantees.");
    }
  }

  /** A trusted call: preconditions become obligations, events become facts under the path, `ensures` become assumptions. */
  private callTool(tool: ToolModel, e: TS.CallExpression, st: State): Sym {
    if (this.pureOnly || this.contractStack.length > 0) this.refuse(e, "Tools cannot be called here (module top level, contract bodies and predicates are pure).", "Call tools inside `main` or its helpers.");
    if (e.arguments.length !== tool.parameters.length) this.refuse(e, `\`${tool.name}\` takes ${tool.parameters.length} argument(s).`, "Pass every parameter explicitly.");
    const args = new Map<string, Sym>();
    tool.parameters.forEach((p, i) => {
      const v = this.definite(this.evalExpr(e.arguments[i]!, st), e.arguments[i]!, st);
      this.noFunctionValue(v, e.arguments[i]!);
      this.checkKind(v, p.type, e.arguments[i]!, `${tool.name}(${p.name})`);
      args.set(p.name, v);
    });
    const loops = [...this.loops];
    const bindNamed = (fn: TS.ArrowFunction | TS.FunctionExpression, skip: number): Map<TS.Symbol, Sym> => {
      const env = new Map<TS.Symbol, Sym>();
      fn.parameters.slice(skip).forEach((p) => env.set(this.symbolOfDecl(p), args.get(p.name.getText()) ?? UNDEF));
      return env;
    };
    let pc = st.pc;
    for (const r of tool.requires) {
      const env = bindNamed(r.fn, 0);
      const holds = this.cond(this.withPure(() => this.evalFunctionBodyValue(r.fn, { pc: "true", env })), r.fn);
      this.world.obligations.push({ tool, message: r.message ?? r.fn.getText(), holds, guard: pc, site: e, args, loops, order: this.world.nextOrder() });
      pc = and(pc, holds);
    }
    const order = this.world.nextOrder();
    this.world.facts.push({ kind: "call", event: undefined, tool, fields: args, guard: pc, site: e, loops, order });
    for (const ev of tool.performs?.events ?? []) {
      const event = this.layer.events.get(ev.eventId);
      if (!event) continue;
      const fields = new Map<string, Sym>();
      for (const f of event.fields) fields.set(f.name, args.get(ev.fields[f.name]!) ?? UNDEF);
      this.world.facts.push({ kind: "event", event, tool, fields, guard: pc, site: e, loops, order: this.world.nextOrder() });
    }
    // The result: a fresh value of the declared type, constrained by the tool's `ensures`.
    const pos = e.getSourceFile().getLineAndCharacterOfPosition(e.getStart());
    const label = `${tool.name}@${pos.line + 1}:${pos.character + 1}`;
    const fresh = this.freshValue(label, tool.returnType, e);
    const result = fresh.k === "sarr" ? this.bounded(fresh, this.lengthBound(tool)) : fresh;
    // The result exists after the call's events: a counterexample at this call does not show it.
    if (result.k !== "undef" && result.k !== "opaque") this.world.toolResults.push({ label, sym: result, loops, order: this.world.nextOrder(), guard: pc });
    for (const en of tool.ensures) {
      const env = bindNamed(en.fn, 1);
      const first = en.fn.parameters[0];
      if (first) env.set(this.symbolOfDecl(first), result);
      const holds = this.cond(this.withPure(() => this.evalFunctionBodyValue(en.fn, { pc: "true", env })), en.fn);
      // A promise about the result holds in every run that makes the call: an assumption about
      // the world, not a condition on the path after the call. (On the path, a run in which the
      // promise fails would look like one that stops at the call, and "at least n events" would
      // fail for it.)
      if (holds !== "true") this.world.assumptions.push({ term: implies(pc, holds), loops });
    }
    st.pc = pc;
    return result;
  }

  private withPure<T>(work: () => T): T {
    const saved = this.pureOnly;
    this.pureOnly = true;
    this.frames.push({ fn: undefined, loopBody: undefined });
    try {
      return work();
    } finally {
      this.frames.pop();
      this.pureOnly = saved;
    }
  }

  /** `ensures((r) => r.length <= K)` (possibly inside `&&`) with a literal K: the result array is unrolled exactly. */
  private lengthBound(tool: ToolModel): number | undefined {
    const ts = this.ts;
    for (const en of tool.ensures) {
      const fn = en.fn;
      const result = fn.parameters[0];
      if (!result || !ts.isIdentifier(result.name)) continue;
      const name = result.name.text;
      const body = ts.isBlock(fn.body) ? undefined : fn.body;
      const conj: TS.Expression[] = [];
      const collect = (x: TS.Expression): void => {
        const y = this.skip(x);
        if (ts.isBinaryExpression(y) && y.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken) { collect(y.left); collect(y.right); } else conj.push(y);
      };
      if (body) collect(body);
      for (const c of conj) {
        if (!ts.isBinaryExpression(c)) continue;
        const l = this.skip(c.left), r = this.skip(c.right);
        const isLen = ts.isPropertyAccessExpression(l) && l.name.text === "length" && ts.isIdentifier(l.expression) && l.expression.text === name;
        if (!isLen || !ts.isNumericLiteral(r)) continue;
        const k = Number(r.text);
        const bound = c.operatorToken.kind === ts.SyntaxKind.LessThanEqualsToken ? Math.floor(k) : c.operatorToken.kind === ts.SyntaxKind.LessThanToken ? Math.ceil(k) - 1 : undefined;
        if (bound !== undefined && bound >= 0 && bound <= BOUNDED_UNROLL_CAP) return bound;
      }
    }
    return undefined;
  }

  private checkKind(v: Sym, type: ValueType, at: TS.Node, what: string): void {
    const ok =
      type.kind === "string" || type.kind === "FilePath" || type.kind === "DirectoryPath" ? v.k === "str"
      : type.kind === "number" ? v.k === "num"
      : type.kind === "boolean" ? v.k === "bool"
      : type.kind === "array" ? v.k === "arr" || v.k === "sarr"
      : type.kind === "record" ? v.k === "rec"
      : false;
    if (!ok) this.refuse(at, `The argument for ${what} is not a modelled ${showValueType(type)} value.`, `Pass a ${showValueType(type)}.`);
  }
}
