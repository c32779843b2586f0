import type { ClauseEnd, ContractArg, Effect, Expr, Helper, ProgramIR, Scalar, Stmt, Ty } from "./ir";
import { printStrings } from "./strings";
import { printCollections } from "./collections";
import { printIdioms } from "./idioms";
import { HEADER, numberText, TYPE_TEXT, type Breakable, type Var } from "./print-expr";
import { printCounted } from "./counted";
import { printLoopState } from "./loopstate";
import { LAYER_IMPORT } from "./project";
import { IdiomPrinter } from "./print-idioms";

export { HEADER, numberText } from "./print-expr";

/**
 * Prints a program tree as TypeScript that type-checks (except the deliberate `++` on strings),
 * resolving variable and helper references against what is in scope and keeping to what the
 * modelled subset allows where a construct would only be refused (`break` in a loop over an
 * unbounded array becomes `continue`, an assignment that would leave a loop body declares a
 * variable instead).
 */
class Printer extends IdiomPrinter {
  /** `main`'s parameters as printed, and the first `Row[]` among them (a loop source). */
  private paramList: { name: string; text: string; rows: boolean }[] = [];
  private inputRows: string | undefined;
  // ───────────── statements ─────────────

  stmts(ss: readonly Stmt[]): void {
    for (const s of ss) this.stmt(s);
  }

  /** The label of each breakable in `breakables` (unrolled loops have one), for `break L` and `continue L`. */
  private labels: (string | undefined)[] = [];

  private body(ss: readonly Stmt[], kind?: Breakable, label?: string): void {
    if (kind) {
      this.breakables.push(kind);
      this.labels.push(label);
    }
    if (kind === "quantified") this.quant++;
    this.depth++;
    try {
      this.block(() => this.stmts(ss));
    } finally {
      this.depth--;
      if (kind === "quantified") this.quant--;
      if (kind) {
        this.breakables.pop();
        this.labels.pop();
      }
    }
  }

  /**
   * The label of the outermost unrolled loop a labeled jump from here may name: not past a loop
   * over an array of unknown length (the prover refuses a labeled jump out of one).
   */
  private outerLabel(): string | undefined {
    let found: string | undefined;
    for (let i = this.breakables.length - 1; i >= 0 && this.breakables[i] !== "quantified"; i--) found = this.labels[i] ?? found;
    return found;
  }

  private inLoop(): boolean {
    return this.breakables.some((b) => b !== "switch");
  }

  private inQuantified(): boolean {
    return this.breakables.includes("quantified");
  }

  protected override returnText(): string | undefined {
    if (this.inQuantified()) return undefined;
    if (this.returns === undefined || this.returns === "void") return "return;";
    const fallback: Readonly<Record<Scalar, Expr>> = { str: { t: "str", k: "lit", v: "r" }, num: { t: "num", k: "lit", v: 0 }, bool: { t: "bool", k: "lit", v: false } };
    return `return ${this.expr(fallback[this.returns])};`;
  }

  stmt(s: Stmt): void {
    switch (s.k) {
      case "decl": {
        const name = this.fresh("v");
        this.line(`${s.kind} ${name}: ${TYPE_TEXT[s.init.t]} = ${this.expr(s.init)};`);
        this.declare(name, s.init.t, s.kind === "let");
        return;
      }
      case "assign": {
        const t = s.v.t;
        const ts = this.targets(t);
        const value = this.expr(s.v);
        if (ts.length === 0) {
          const name = this.fresh("v");
          this.line(`let ${name}: ${TYPE_TEXT[t]} = ${value};`);
          this.declare(name, t, true);
          return;
        }
        const op = t === "num" ? s.op : t === "str" && s.op === "+=" ? "+=" : "=";
        this.line(`${ts[s.i % ts.length]!.name} ${op} ${value};`);
        return;
      }
      case "incr": {
        const t = s.onString ? "str" : "num";
        let ts = this.targets(t);
        if (ts.length === 0) {
          const name = this.fresh("v");
          this.line(`let ${name}: ${TYPE_TEXT[t]} = ${s.onString ? this.str("5") : this.num(0)};`);
          this.declare(name, t, true);
          ts = this.targets(t);
        }
        const name = ts[s.i % ts.length]!.name;
        this.line(s.prefix ? `${s.op}${name};` : `${name}${s.op};`);
        return;
      }
      case "effect":
        this.line(`${this.effect(s.e)};`);
        return;
      case "console":
        this.line(`console.${s.method}(${s.args.map((a) => (a.k === "effect" ? this.effect(a.e) : this.expr(a.e))).join(", ")});`);
        return;
      case "if": {
        this.line(`if (${this.cond(s.c)}) {`);
        this.body(s.then);
        if (s.else) {
          this.line("} else {");
          this.body(s.else);
        }
        this.line("}");
        return;
      }
      case "switch": return this.switchStmt(s);
      case "forLit": {
        const name = this.fresh("k");
        const items = s.items.map((x) => (typeof x === "string" ? this.str(x) : this.num(x)));
        const label = this.fresh("L");
        this.line(`${label}: for (const ${name} of [${items.join(", ")}]) {`);
        this.block(() => {
          this.declare(name, typeof s.items[0] === "number" ? "num" : "str", false);
          this.body(s.body, "unrolled", label);
        });
        this.line("}");
        return;
      }
      case "forN": {
        const name = this.fresh("i");
        const label = this.fresh("L");
        this.line(`${label}: for (let ${name} = 0; ${name} < ${s.n}; ${name}++) {`);
        this.block(() => {
          this.declare(name, "num", false);
          this.body(s.body, "unrolled", label);
        });
        this.line("}");
        return;
      }
      case "whileN": {
        // The counter is not declared in the printer's scope: nothing else may assign it.
        const name = this.fresh("w");
        this.line(`let ${name} = 0;`);
        const label = this.fresh("L");
        this.line(`${label}: ${s.isDo ? "do {" : `while (${name} < ${s.n}) {`}`);
        this.block(() => {
          this.line(`  ${name}++;`);
          this.body(s.body, "unrolled", label);
        });
        this.line(s.isDo ? `} while (${name} < ${s.n});` : "}");
        return;
      }
      case "forArr": {
        const name = this.fresh("x");
        const src = s.src.t === "rows" ? (s.src.tool === "credits" ? "credits()" : s.src.tool === "input" ? (this.inputRows ?? "rows()") : "rows()") : this.expr(s.src);
        const t: Ty = s.src.t === "rows" ? "row" : s.src.t === "strs" ? "str" : "num";
        // Bounded by an `ensures` or literal: unrolled; otherwise one quantified iteration.
        const bounded = s.src.t !== "rows" && (s.src.k === "few" || s.src.k === "amounts" || s.src.k === "lit");
        const label = bounded ? this.fresh("L") : undefined;
        this.line(`${label ? `${label}: ` : ""}for (const ${name} of ${src}) {`);
        this.block(() => {
          this.declare(name, t, false);
          this.body(s.body, bounded ? "unrolled" : "quantified", label);
        });
        this.line("}");
        return;
      }
      case "call": {
        const call = this.helperCall(undefined, s.i, s.args);
        if (call) this.line(`${call};`);
        return;
      }
      case "short":
        this.line(`${this.cond(s.c)} ${s.op} ${this.effect(s.e)};`);
        return;
      case "ternStmt":
        this.line(`${this.cond(s.c)} ? ${this.effect(s.a)} : ${this.effect(s.b)};`);
        return;
      case "throwIf":
        this.line(`if (${this.cond(s.c)}) throw new Error(${this.str(s.msg)});`);
        return;
      case "return": {
        const r = this.returnText();
        if (r) this.line(r);
        return;
      }
      case "jump": {
        const target = s.outer ? this.outerLabel() : undefined;
        if (target) {
          this.line(`${s.kind} ${target};`);
          return;
        }
        const inner = this.breakables[this.breakables.length - 1];
        if (s.kind === "continue" ? this.inLoop() : inner !== undefined) {
          this.line(s.kind === "break" && inner === "quantified" ? "continue;" : `${s.kind};`);
        }
        return;
      }
      case "filter": {
        const x = this.fresh("x");
        const src = this.expr(s.src);
        const lit = this.str(s.lit);
        const test = s.op === "===" || s.op === "!==" ? `${x} ${s.op} ${lit}` : `${x}.${s.op}(${lit})`;
        const e = s.e;
        const effect = !s.useElement ? this.effect(e) : this.fluentUse(e, x) ?? e.tool === "sendEmail" ? `sendEmail(${x}, ${this.expr(e.s2)})` : e.tool === "pay" ? `pay(${x}, ${this.expr(e.n)})` : e.tool === "log" ? `log(${x})` : `measure(${x}.length)`;
        this.line(`for (const ${x} of ${src}) {`);
        this.line(`  if (${test}) ${effect};`);
        this.line("}");
        return;
      }
      case "repeat": {
        const x = this.fresh("x");
        const t: Ty = s.src === "few" ? "str" : "num";
        // The effect, with the element (or the helper's result) in the argument of its type.
        const use = (v: string): string => {
          const e = s.e;
          if (t === "str") return e.tool === "sendEmail" ? `sendEmail(${v}, ${this.expr(e.s2)})` : e.tool === "pay" ? `pay(${v}, ${this.expr(e.n)})` : `log(${v})`;
          return e.tool === "pay" ? `pay(${this.expr(e.s)}, ${v})` : `measure(${v})`;
        };
        if (s.how === "loop") {
          const i = this.fresh("i");
          this.line(`for (let ${i} = 0; ${i} < 2; ${i}++) {`);
          this.line(`  for (const ${x} of ${s.src}()) {`);
          this.line(`    ${use(x)};`);
          this.line("    break;");
          this.line("  }");
          this.line("}");
        } else {
          const h = this.fresh("h");
          this.line(`const ${h} = (): ${TYPE_TEXT[t]} => {`);
          this.line(`  for (const ${x} of ${s.src}()) return ${x};`);
          this.line(`  return ${t === "str" ? this.str("") : this.num(0)};`);
          this.line("};");
          this.line(`if (${h}() !== ${h}()) ${use(`${h}()`)};`);
        }
        return;
      }
      case "float": {
        // Refused by the prover either way: the call's promise is not awaited where it is made.
        const call = this.asyncEffect(s.e);
        if (s.how === "stored" && this.awaits()) {
          const p = this.fresh("p");
          this.line(`const ${p}: Promise<void> = ${call};`);
          this.line(`log(${this.str("between")});`);
          this.line(`await ${p};`);
        } else this.line(`${call};`);
        return;
      }
      case "all": {
        if (!this.awaits()) {
          for (const e of s.es) this.line(`${this.effect(e)};`);
          return;
        }
        // Arguments first (a call in an argument would be refused), then every call at once.
        const bind = (e: Expr): string => {
          const name = this.fresh("q");
          this.line(`const ${name}: ${TYPE_TEXT[e.t]} = ${this.expr(e)};`);
          this.declare(name, e.t, false);
          return name;
        };
        const calls = s.es.map((e) => (e.tool === "pay" ? `payAsync(${bind(e.s)}, ${bind(e.n)})` : `sendEmailAsync(${bind(e.s)}, ${bind(e.s2)})`));
        this.line(`await Promise.all([${calls.join(", ")}]);`);
        return;
      }
      case "elements": return this.elements(s);
      case "callback": return this.callback(s);
      case "allMap": return this.allMap(s);
      case "arrays": return this.arrays(s);
      case "ints": return this.ints(s);
      case "strings": return printStrings({
        fresh: (x) => this.fresh(x), line: (t) => this.line(t), str: (v) => this.str(v), num: (v) => this.num(v), expr: (e) => this.expr(e), effect: (e) => this.effect(e),
        use: (e, v) => this.fluentUse(e, v) ?? (e.tool === "sendEmail" ? `sendEmail(${v}, ${this.expr(e.s2)})` : e.tool === "pay" ? `pay(${v}, ${this.expr(e.n)})` : e.tool === "log" ? `log(${v})` : `measure(${v}.length)`),
      }, s);
      case "locals": return this.locals(s);
      case "collections": return printCollections({
        fresh: (x) => this.fresh(x), line: (t) => this.line(t), str: (v) => this.str(v), num: (v) => this.num(v), expr: (e) => this.expr(e), effect: (e) => this.effect(e),
        use: (e, v) => this.fluentUse(e, v) ?? (e.tool === "sendEmail" ? `sendEmail(${v}, ${this.expr(e.s2)})` : e.tool === "pay" ? `pay(${v}, ${this.expr(e.n)})` : e.tool === "log" ? `log(${v})` : `measure(${v}.length)`),
        useNum: (e, v) => (e.tool === "pay" ? `pay(${this.expr(e.s)}, ${v})` : `measure(${v})`),
      }, s);
      case "counted": return printCounted({ fresh: (x) => this.fresh(x), line: (t) => this.line(t), str: (v) => this.str(v), effect: (e) => this.effect(e) }, s);
      case "idioms": return printIdioms({
        fresh: (x) => this.fresh(x), line: (t) => this.line(t), str: (v) => this.str(v), expr: (e) => this.expr(e), effect: (e) => this.effect(e), need: (tool) => void this.extraImports.add(tool),
        use: (e, v) => this.fluentUse(e, v) ?? (e.tool === "sendEmail" ? `sendEmail(${v}, ${this.expr(e.s2)})` : e.tool === "pay" ? `pay(${v}, ${this.expr(e.n)})` : e.tool === "log" ? `log(${v})` : `measure(${v}.length)`),
      }, s);
      case "loopstate": return printLoopState({
        fresh: (x) => this.fresh(x), line: (t) => this.line(t), str: (v) => this.str(v), effect: (e) => this.effect(e), use: (tool) => void this.extraImports.add(tool),
      }, s);
      case "tryThrow": {
        // Widened: a `const` (or the literal standing in for a missing variable) has a literal type.
        const v = `(${this.expr({ t: "str", k: "var", i: s.i })} as string)`;
        const lit = this.str(s.lit);
        const test = s.op === "startsWith" ? `${v}.startsWith(${lit})` : `${v} ${s.op} ${lit}`;
        if (s.read !== "none" && s.fin && s.lit.length % 2 === 1) {
          // (Session 37, adv37 C1) A `finally` that may throw replaces the error leaving through it;
          // the outer `catch` reads which one arrived, and the `finally`'s effect happens first.
          const e = this.fresh("e");
          this.line("try {");
          this.line("  try {");
          this.line(`    if (${test}) throw new Error(${this.str("try")});`);
          this.line("  } finally {");
          this.line(`    if (${v}.length > ${s.i % 3}) throw new Error(${this.str("fin")});`);
          this.line(`    ${this.effect(s.fin)};`);
          this.line("  }");
          this.line(`} catch (${e}) {`);
          this.line(`  if (String(${e}) === ${this.str(s.i % 2 === 0 ? "Error: fin" : "Error: try")}) ${s.caught ? this.effect(s.caught) : this.effect(s.fin)};`);
          this.line("}");
          return;
        }
        this.line("try {");
        this.line(`  if (${test}) throw new Error(${this.str("try")});`);
        this.tryEnd(s.caught, s.fin, s.read);
        return;
      }
      case "tryLoop": {
        const x = this.fresh("x");
        const lit = this.str(s.lit);
        const test = s.op === "startsWith" ? `${x}.startsWith(${lit})` : `${x} ${s.op} ${lit}`;
        // The array is read before the `try`: a tool called inside it may throw (the prover's view), which runs cannot make happen.
        const src = this.fresh("xs");
        this.line(`const ${src} = ${this.expr(s.src)};`);
        if (s.how === "for" && s.fin && s.lit.length % 2 === 1) {
          // (Session 42) The `try` inside the loop: `continue` or `break` out of it runs the `finally` first.
          this.line(`for (const ${x} of ${src}) {`);
          this.line("  try {");
          this.line(`    if (${test}) ${s.op === "!==" ? "break" : "continue"};`);
          this.line(`    ${s.caught ? this.effect(s.caught) : `log(${x})`};`);
          this.line("  } finally {");
          this.line(`    ${this.effect(s.fin)};`);
          this.line("  }");
          this.line("}");
          return;
        }
        this.line("try {");
        this.line(s.how === "for" ? `  for (const ${x} of ${src}) if (${test}) throw new Error(${this.str("loop")});` : `  ${src}.forEach((${x}) => { if (${test}) throw new Error(${this.str("loop")}); });`);
        this.tryEnd(s.caught, s.fin);
        return;
      }
      case "destructure": {
        const a = this.fresh("v");
        const b = this.fresh("v");
        if (s.how === "pattern") {
          this.line(`const { to: ${a}, amount: ${b} } = entry(${this.expr(s.src)});`);
        } else if (s.how === "defaults") {
          // Each default runs where its element is missing (past the end of the array).
          const c = this.fresh("v");
          this.line(`const [${c} = ${this.expr(s.fallback)}, ${a} = ${this.expr(s.src)}] = ${this.expr(s.srcs)};`);
          this.line(`const ${b}: number = ${c}.length + ${this.expr(s.n)};`);
        } else if (s.how === "optional") {
          const r = this.fresh("r");
          this.line(`const ${r} = findRow({ key: ${this.expr(s.src)} });`);
          this.line(`const ${a}: string = ${r}?.to ?? ${this.expr(s.fallback)};`);
          this.line(`const ${b}: number = ${r}?.amount ?? ${this.expr(s.n)};`);
        } else {
          // Built-in methods in the chain: not called (nor their arguments evaluated) where it short-circuits.
          const r = this.fresh("r");
          this.line(`const ${r} = findRow({ key: ${this.expr(s.src)} });`);
          this.line(`const ${a}: string = ${r}?.to.trim() ?? ${this.expr(s.fallback)};`);
          this.line(`const ${b}: number = ${r}?.to.indexOf(${this.expr(s.src)}) ?? ${this.expr(s.n)};`);
        }
        this.declare(a, "str", false);
        this.declare(b, "num", false);
        return;
      }
      case "pair": {
        // The key argument bound once, then two calls that differ elsewhere.
        const q = this.fresh("q");
        const e = s.e;
        const key = e.tool === "sendEmail" ? this.expr(e.s2) : e.tool === "log" ? this.expr(e.s) : this.expr(e.n);
        this.line(`const ${q}: ${e.tool === "sendEmail" || e.tool === "log" ? "string" : "number"} = ${key};`);
        this.declare(q, e.tool === "sendEmail" || e.tool === "log" ? "str" : "num", false);
        for (const to of [e.s, s.other]) {
          this.line(e.tool === "sendEmail" ? `sendEmail(${this.expr(to)}, ${q});` : e.tool === "pay" ? `pay(${this.expr(to)}, ${q});` : e.tool === "log" ? `log(${q});` : `measure(${q});`);
        }
        return;
      }
      case "tdz": {
        const k = this.fresh("k");
        const h = this.fresh("h");
        const v = this.fresh("v");
        const items = s.items.length > 0 ? s.items : ["a", "b"];
        this.line(`for (const ${k} of [${items.map((x) => this.str(x)).join(", ")}]) {`);
        this.depth++;
        this.block(() => {
          this.declare(k, "str", false);
          this.breakables.push("unrolled");
          this.labels.push(undefined);
          this.line(`const ${h} = (): void => { ${s.e === "log" ? `log(${v})` : `sendEmail(${v}, ${this.str("s")})`}; };`);
          this.line(`if (${k} === ${this.str(items[s.pick % items.length]!)}) ${h}();`);
          this.line(`const ${v}: string = ${this.expr(s.init)};`);
          this.declare(v, "str", false);
          this.breakables.pop();
          this.labels.pop();
        });
        this.depth--;
        this.line("}");
        return;
      }
    }
  }

  /** A `try` block's end: `catch` with its effect (a log when there is none and no `finally`), `finally` with its. */
  private tryEnd(caught: Effect | null, fin: Effect | null, read: "none" | "text" | "message" | "instanceof" = "none"): void {
    if (read !== "none") {
      const e = this.fresh("e");
      this.line(`} catch (${e}) {`);
      // `as Error` also in the narrowed branch: inside `if (false)` TypeScript does not narrow.
      const text = read === "text" ? `String(${e})` : read === "message" ? `(${e} as Error).message` : `(${e} instanceof Error ? (${e} as Error).message : ${this.str("?")})`;
      this.line(`  log(${text});`);
      if (caught) this.line(`  ${this.effect(caught)};`);
    } else if (caught || !fin) {
      this.line("} catch {");
      this.line(`  ${caught ? this.effect(caught) : `log(${this.str("caught")})`};`);
    }
    if (fin) {
      this.line("} finally {");
      this.line(`  ${this.effect(fin)};`);
    }
    this.line("}");
  }

  private switchStmt(s: Extract<Stmt, { k: "switch" }>): void {
    // With no variable of its type in scope, a tool result rather than a literal: a switch on a constant has one live clause.
    const noVar = s.d.k === "var" && this.vars(s.d.t).length === 0;
    const d = noVar ? `(${s.d.t === "str" ? `lookup(${this.str("k")})` : `score(${this.str("k")})`} as ${TYPE_TEXT[s.d.t]})` : this.operand(s.d);
    this.line(`switch (${d}) {`);
    this.depth++;
    this.breakables.push("switch");
    this.labels.push(undefined);
    this.block(() => {
      const seen = new Set<string>();
      for (const c of s.cases) {
        const v = s.d.t === "str" ? (typeof c.v === "string" ? c.v : String(c.v)) : typeof c.v === "number" ? c.v : c.v.length;
        const key = typeof v === "number" ? (Object.is(v, -0) ? "-0" : String(v)) : `s${v}`;
        if (seen.has(key)) continue;
        seen.add(key);
        this.line(`case ${typeof v === "string" ? this.str(v) : this.num(v)}:`);
        this.clause(c.body, c.end);
      }
      if (s.dflt) {
        this.line("default:");
        this.clause(s.dflt.body, s.dflt.end);
      }
    });
    this.breakables.pop();
    this.labels.pop();
    this.depth--;
    this.line("}");
  }

  private clause(body: readonly Stmt[], end: ClauseEnd): void {
    // A declaration in one clause is in scope in the next, but TypeScript rejects reading it there ("used before being assigned"): each clause gets its own scope here.
    this.scopes.push([]);
    this.depth++;
    const jump = (): void => {
      switch (end) {
        case "break": case "blockBreak": this.line("break;"); return;
        case "return": this.line(this.returnText() ?? "break;"); return;
        case "continue": this.line(this.inLoop() ? "continue;" : "break;"); return;
        case "throw": this.line(`throw new Error(${this.str("clause")});`); return;
        default: return;
      }
    };
    if (end === "block" || end === "blockBreak") {
      this.line("{");
      this.body(body);
      if (end === "blockBreak") {
        this.depth++;
        jump();
        this.depth--;
      }
      this.line("}");
    } else {
      this.stmts(body);
      jump();
    }
    this.depth--;
    this.scopes.pop();
  }

  // ───────────── functions ─────────────

  /** A helper: declared (module level or at the start of `main`) with its body printed in its own scope. */
  helper(h: Helper, index: number, mainParams: readonly Var[]): void {
    const name = `h${index}`;
    const params = h.params.map((t) => ({ name: this.fresh("a"), t }));
    // Only a run of trailing parameters may have defaults (then every call may leave them out).
    const defaulted = h.params.map((_, j) => h.params.slice(j).every((__, k) => h.defaults[j + k] != null));
    const savedScopes = this.scopes;
    const saved = { breakables: this.breakables, labels: this.labels, returns: this.returns, fn: this.fn, quant: this.quant, moduleOnly: this.moduleOnly };
    this.scopes = [h.where === "main" ? [...mainParams] : []];
    // A jump never crosses into the enclosing function's loops (nor names their labels).
    this.breakables = [];
    this.labels = [];
    this.returns = h.ret;
    this.fn = ++this.fnCount;
    this.quant = 0;
    this.moduleOnly = h.where === "module";
    // A default sees the parameters before it (declared one by one, as JavaScript binds them).
    const paramTexts: string[] = [];
    for (const [j, p] of params.entries()) {
      const d = defaulted[j] ? h.defaults[j]! : null;
      this.syncOnly++;
      paramTexts.push(`${p.name}: ${TYPE_TEXT[p.t]}${d ? ` = ${this.expr(d[p.t as Scalar])}` : ""}`);
      this.syncOnly--;
      this.declare(p.name, p.t, false);
    }
    const ret = h.ret === "void" ? "void" : TYPE_TEXT[h.ret];
    const sig = `(${paramTexts.join(", ")}): ${this.asyncProgram ? `Promise<${ret}>` : ret}`;
    const a = this.asyncProgram ? "async " : "";
    this.line(h.where === "module" ? `${a}function ${name}${sig} {` : `const ${name} = ${a}${sig} => {`);
    this.depth++;
    this.stmts(h.body);
    if (h.ret !== "void") this.line(`return ${this.expr(h.result[h.ret])};`);
    this.depth--;
    this.line(h.where === "module" ? "}" : "};");
    this.scopes = savedScopes;
    Object.assign(this, saved);
    this.helpers.push({ name, params: h.params, defaulted, ret: h.ret, where: h.where });
  }

  /** Resolve a contract argument against the literals the program printed. */
  contractArg(a: ContractArg): string {
    const strings = this.strings.length > 0 ? this.strings : ["a"];
    const numbers = this.numbers.length > 0 ? this.numbers : [0];
    switch (a.k) {
      case "str": return JSON.stringify(strings[a.i % strings.length]);
      case "num": {
        // A guarantee argument is a literal: NaN and the infinities are not, and `(-1)` is not either.
        const finite = numbers.filter(Number.isFinite);
        return numberText(finite.length > 0 ? finite[a.i % finite.length]! : 0).replace(/^\((.*)\)$/, "$1");
      }
      case "count": return String(a.v);
      case "strs": return `[${a.is.map((i) => JSON.stringify(strings[i % strings.length])).join(", ")}]`;
    }
  }

  setAsync(async: boolean): void {
    this.asyncProgram = async;
  }

  /** `main`'s parameters that expressions read (a `Row[]` input is read only as a loop source: `inputRows`). */
  mainParams(types: ProgramIR["params"]): Var[] {
    this.paramList = types.map((t) => {
      const name = this.fresh("p");
      return { name, text: t === "rows" ? "Row[]" : TYPE_TEXT[t], rows: t === "rows" };
    });
    return types.flatMap((t, i) => (t === "rows" ? [] : [{ name: this.paramList[i]!.name, t, mutable: true, fn: 0, quant: 0 }]));
  }

  enterMain(params: readonly Var[], async: boolean): void {
    this.asyncProgram = async;
    const list = this.paramList.map((p) => `${p.name}: ${p.text}`).join(", ");
    // From here on (main's body and its own helpers, not the module's) a loop may read the `Row[]` input.
    this.inputRows = this.paramList.find((p) => p.rows)?.name;
    this.line(async ? `export async function main(${list}): Promise<void> {` : `export function main(${list}): void {`);
    this.depth++;
    this.scopes = [[...params]];
  }

  leaveMain(): void {
    this.depth--;
    this.line("}");
  }
}

/** The program's TypeScript text (HEADER first). */
export function printProgram(p: ProgramIR): string {
  const pr = new Printer();
  const params = pr.mainParams(p.params);
  // Module-level helpers first (they see only their parameters), then `main` with its own helpers at its start.
  pr.setAsync(p.async === true);
  p.helpers.forEach((h, i) => h.where === "module" && pr.helper(h, i, []));
  pr.enterMain(params, p.async === true);
  p.helpers.forEach((h, i) => h.where === "main" && pr.helper(h, i, params));
  pr.stmts(p.body);
  pr.leaveMain();
  const guarantees = p.guarantees.map((g) => `m.${g.contract}(${g.args.map((a) => pr.contractArg(a)).join(", ")})`);
  const extra = pr.extraImports.size > 0 ? `import { ${[...pr.extraImports].sort().join(", ")} } from "${LAYER_IMPORT}";\n` : "";
  return `${HEADER}${extra}${pr.consts.map((c) => `${c}\n`).join("")}export const guarantees = [${guarantees.join(", ")}];\n${pr.text()}\n`;
}
