import type { BoolExpr, ClauseEnd, ContractArg, Effect, Expr, Helper, HelperArgs, NumExpr, NumsExpr, OStrExpr, ProgramIR, RowExpr, Scalar, Stmt, StrExpr, StrsExpr, Ty } from "./ir";
import { LAYER_IMPORT } from "./project";

/** The header every generated program starts with (line numbers in reports count it). */
export const HEADER = `import { sendEmail, pay, log, measure, lookup, score, ratio, isOpen, names, few, amounts, rows, entry, maybeName, maybeCount, sendEmailAsync, payAsync, lookupAsync, namesAsync, prefixed, positives, credits, notify, charge, findRow, maybeNull, wholes, tally } from "${LAYER_IMPORT}";
import type { Row } from "${LAYER_IMPORT}";
import * as m from "${LAYER_IMPORT}";
`;

export const TYPE_TEXT: Readonly<Record<Ty, string>> = { str: "string", num: "number", bool: "boolean", ostr: "string | undefined", strs: "string[]", nums: "number[]", row: "Row" };

export interface Var {
  readonly name: string;
  readonly t: Ty;
  readonly mutable: boolean;
  /** The function (0: main or module level) and the quantified-loop depth it was declared at: assignments may not escape either. */
  readonly fn: number;
  readonly quant: number;
}

export interface HelperDecl {
  readonly name: string;
  readonly params: readonly Scalar[];
  /** Whether each parameter has a default (a call may pass undefined, or leave it out). */
  readonly defaulted: readonly boolean[];
  readonly ret: Scalar | "void";
  readonly where: Helper["where"];
}

/** What encloses the statement being printed, within the current function. */
export type Breakable = "switch" | "unrolled" | "quantified";

export function numberText(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (Object.is(v, -0)) return "(-0)";
  if (v === Infinity) return "Infinity";
  if (v === -Infinity) return "(-Infinity)";
  return v < 0 ? `(${String(v)})` : String(v);
}

/**
 * The printer's state (scopes, helpers, literals) and its expressions: variable and helper
 * references resolve against what is in scope, literals in conditions become typed module
 * constants. Statements are printed by `Printer` (print.ts).
 */
export class ExprPrinter {
  protected readonly out: string[] = [];
  protected depth = 0;
  protected counter = 0;
  protected scopes: Var[][] = [[]];
  protected helpers: HelperDecl[] = [];
  /** Inside a module-level helper, only module-level helpers are visible. */
  protected moduleOnly = false;
  protected fn = 0;
  protected fnCount = 0;
  protected quant = 0;
  protected breakables: Breakable[] = [];
  /** Inside a helper: its return type (a `return` must return one). */
  protected returns: Scalar | "void" | undefined;
  readonly strings: string[] = [];
  readonly numbers: number[] = [];
  /** Module-level `const`s standing for literals in conditions (see `cond`). */
  readonly consts: string[] = [];
  protected hoisting = 0;
  /** An async program: `main` and the helpers are async, helper calls and async tools are awaited. */
  protected asyncProgram = false;
  /** Printing where `await` is not allowed (a parameter's default): sync tools, no helper calls. */
  protected syncOnly = 0;

  /** `await` may be written here. */
  protected awaits(): boolean {
    return this.asyncProgram && this.syncOnly === 0;
  }

  fresh(prefix: string): string {
    return `${prefix}${this.counter++}`;
  }

  line(text: string): void {
    this.out.push(`${"  ".repeat(this.depth)}${text}`);
  }

  text(): string {
    return this.out.join("\n");
  }

  // ───────────── scope ─────────────

  protected declare(name: string, t: Ty, mutable: boolean): void {
    this.scopes[this.scopes.length - 1]!.push({ name, t, mutable, fn: this.fn, quant: this.quant });
  }

  protected vars(t: Ty): Var[] {
    return this.scopes.flat().filter((v) => v.t === t);
  }

  protected targets(t: Ty): Var[] {
    return this.vars(t).filter((v) => v.mutable && v.fn === this.fn && v.quant === this.quant);
  }

  protected block<T>(work: () => T): T {
    this.scopes.push([]);
    try {
      return work();
    } finally {
      this.scopes.pop();
    }
  }

  // ───────────── literals ─────────────

  str(v: string): string {
    this.strings.push(v);
    return this.literal(JSON.stringify(v), "string");
  }

  num(v: number): string {
    this.numbers.push(v);
    return this.literal(numberText(v), "number");
  }

  protected literal(text: string, type: string): string {
    // NaN and Infinity are identifiers, not literals: TypeScript does not object to them in a condition.
    if (this.hoisting === 0 || /^\(?-?(NaN|Infinity)\)?$/.test(text)) return text;
    text = text.replace(/^\((.*)\)$/, "$1");
    const name = this.fresh("c");
    this.consts.push(`const ${name}: ${type} = ${text};`);
    return name;
  }

  // ───────────── expressions ─────────────

  expr(e: Expr): string {
    switch (e.t) {
      case "str": return this.strExpr(e);
      case "num": return this.numExpr(e);
      case "bool": return this.boolExpr(e);
      case "ostr": return this.ostrExpr(e);
      case "strs": return this.strsExpr(e);
      case "nums": return this.numsExpr(e);
      case "row": return this.rowExpr(e);
    }
  }

  protected pick(t: Ty, i: number): string | undefined {
    const vs = this.vars(t);
    return vs.length === 0 ? undefined : vs[i % vs.length]!.name;
  }

  protected helperCall(ret: Scalar | "void" | undefined, i: number, args: readonly HelperArgs[]): string | undefined {
    // Only helpers printed before: no recursion, and a `const` helper is initialised before it is called.
    const hs = this.helpers.filter((h) => (ret === undefined || h.ret === ret) && (!this.moduleOnly || h.where === "module"));
    // An async helper is awaited, and `await` is not allowed in a parameter's default.
    if (hs.length === 0 || (this.asyncProgram && !this.awaits())) return undefined;
    const h = hs[i % hs.length]!;
    const fallback: HelperArgs = { str: { t: "str", k: "lit", v: "a" }, num: { t: "num", k: "lit", v: 1 }, bool: { t: "bool", k: "lit", v: true } };
    const texts = h.params.map((p, j) => {
      const a = args[j] ?? fallback;
      if (!h.defaulted[j] || a.pass === undefined || a.pass === "value") return this.expr(a[p]);
      if (a.pass === "undefined") return undefined;
      return p === "str" ? `maybeName(${this.expr(a.str)})` : p === "num" ? "maybeCount()" : `(${this.cond(a.bool)} ? true : undefined)`;
    });
    // Trailing `undefined` arguments are left out; others are written.
    while (texts.length > 0 && texts[texts.length - 1] === undefined) texts.pop();
    const call = `${h.name}(${texts.map((t) => t ?? "undefined").join(", ")})`;
    return this.asyncProgram ? `(await ${call})` : call;
  }

  /** A comparison operand or `switch` discriminant, widened: its TypeScript type may be a literal type (or narrowed), and TypeScript rejects comparing two literal types that differ. */
  protected operand(e: StrExpr | NumExpr): string {
    return `(${this.expr(e)} as ${TYPE_TEXT[e.t]})`;
  }

  /**
   * An expression in a condition. TypeScript rejects a literal there ("this kind of expression is
   * always truthy", also through `as`), so its literals become module-level `const`s with a declared
   * type: the same values for the prover, which reads module constants.
   */
  cond(e: Expr): string {
    this.hoisting++;
    try {
      return this.expr(e);
    } finally {
      this.hoisting--;
    }
  }

  protected strExpr(e: StrExpr): string {
    switch (e.k) {
      case "lit": return this.str(e.v);
      case "var": return this.pick("str", e.i) ?? this.str("a");
      case "concat": return `(${this.expr(e.a)} + ${this.expr(e.b)})`;
      case "tmpl": {
        const esc = (s: string) => JSON.stringify(s).slice(1, -1).replace(/`/g, "\\`").replace(/\$\{/g, "\\${");
        this.strings.push(e.head, ...e.parts.map(([, s]) => s));
        return `\`${esc(e.head)}${e.parts.map(([x, s]) => `\${${this.expr(x)}}${esc(s)}`).join("")}\``;
      }
      case "tern": return `(${this.cond(e.c)} ? ${this.expr(e.a)} : ${this.expr(e.b)})`;
      case "logic": return `(${this.cond(e.a)} ${e.op} ${this.expr(e.b)})`;
      case "nullish": return `(${this.expr(e.a)} ?? ${this.expr(e.b)})`;
      case "lookup": return e.async && this.awaits() ? `(await lookupAsync(${this.expr(e.arg)}))` : `lookup(${this.expr(e.arg)})`;
      case "field": return `${this.rowExpr(e.row)}.to`;
      case "call": return this.helperCall("str", e.i, e.args) ?? this.str("h");
      case "index": return e.items.length === 0 ? this.str("") : `[${e.items.map((s) => this.str(s)).join(", ")}][${e.at % e.items.length}]`;
    }
  }

  protected numExpr(e: NumExpr): string {
    switch (e.k) {
      case "lit": return this.num(e.v);
      case "var": return this.pick("num", e.i) ?? this.num(1);
      case "arith": return `(${this.expr(e.a)} ${e.op} ${this.expr(e.b)})`;
      case "neg": return `(-${this.expr(e.a)})`;
      case "len": return `${this.expr(e.s)}.length`;
      case "alen": return `${this.expr(e.arr)}.length`;
      case "minmax": return `Math.${e.op}(${this.expr(e.a)}, ${this.expr(e.b)})`;
      case "tern": return `(${this.cond(e.c)} ? ${this.expr(e.a)} : ${this.expr(e.b)})`;
      case "score": return `score(${this.expr(e.arg)})`;
      case "ratio": return "ratio()";
      case "field": return `${this.rowExpr(e.row)}.amount`;
      case "maybeCount": return `(maybeCount() ?? ${this.expr(e.b)})`;
      case "call": return this.helperCall("num", e.i, e.args) ?? this.num(2);
    }
  }

  protected boolExpr(e: BoolExpr): string {
    switch (e.k) {
      case "lit": return String(e.v);
      case "var": {
        const v = this.pick("bool", e.i);
        // A boolean variable is narrowed to its last assigned literal: widen it for comparisons.
        return v === undefined ? "true" : `(${v} as boolean)`;
      }
      case "cmp": {
        const b = e.b.t === e.a.t ? e.b : e.a.t === "str" ? ({ t: "str", k: "lit", v: "b" } as const) : ({ t: "num", k: "lit", v: 0 } as const);
        return `(${this.operand(e.a)} ${e.op} ${this.operand(b)})`;
      }
      case "eqBool": return `((${this.boolExpr(e.a)} as boolean) ${e.op} (${this.boolExpr(e.b)} as boolean))`;
      case "eqOpt": return `((${this.expr(e.a)} as string | undefined) ${e.op} ${e.b === null ? "undefined" : this.operand(e.b)})`;
      case "method": return `${this.expr(e.s)}.${e.m}(${this.expr(e.x)})`;
      case "has": return `${this.expr(e.arr)}.includes(${this.expr(e.x)})`;
      case "not": return `(!${this.cond(e.a)})`;
      case "logic": return `(${this.cond(e.a)} ${e.op} ${this.expr(e.b)})`;
      case "truthy": return `(!!${this.cond(e.a)})`;
      case "isOpen": return `isOpen(${this.expr(e.arg)})`;
      case "call": return this.helperCall("bool", e.i, e.args) ?? "false";
    }
  }

  protected ostrExpr(e: OStrExpr): string {
    switch (e.k) {
      case "var": return this.pick("ostr", e.i) ?? `maybeName(${this.str("k")})`;
      case "maybeName": return `maybeName(${this.expr(e.arg)})`;
      case "maybeNull": return `(maybeNull(${this.expr(e.arg)}) ?? undefined)`;
      case "tern": return `(${this.cond(e.c)} ? ${this.expr(e.a)} : undefined)`;
    }
  }

  protected strsExpr(e: StrsExpr): string {
    switch (e.k) {
      case "var": return this.pick("strs", e.i) ?? "names()";
      case "names": return e.async && this.awaits() ? "(await namesAsync())" : "names()";
      case "few": return "few()";
      case "lit": return e.items.length === 0 ? "([] as string[])" : `[${e.items.map((s) => this.str(s)).join(", ")}]`;
      case "prefixed": return `prefixed(${this.expr(e.arg)})`;
    }
  }

  protected numsExpr(e: NumsExpr): string {
    switch (e.k) {
      case "var": return this.pick("nums", e.i) ?? "amounts()";
      case "amounts": return "amounts()";
      case "lit": return e.items.length === 0 ? "([] as number[])" : `[${e.items.map((n) => this.num(n)).join(", ")}]`;
      case "positives": return "positives()";
    }
  }

  protected rowExpr(e: RowExpr): string {
    switch (e.k) {
      case "var": return this.pick("row", e.i) ?? `entry(${this.str("k")})`;
      case "entry": return `entry(${this.expr(e.arg)})`;
    }
  }
}
