/**
 * A query read for the guesser (guess/search.ts): its assertions evaluated under an assignment of
 * its declared constants and functions, giving each assertion's value and, for the search, its
 * distance from being true (0 when it is; the further, the larger).
 *
 * The evaluation follows SMT-LIB and Z3 as far as the guesser needs it: Booleans, integers (exact,
 * as bigint), Float64 with round-to-nearest-even (JavaScript's arithmetic), strings of UTF-16 code
 * units (Z3's `:encoding bmp`) and regular expressions (guess/regex.ts). A value's JavaScript type
 * is its sort. Anything else (a quantifier, another rounding mode, division by zero, a
 * parameterised definition) throws `Unsupported` and the query is left to Z3. The guesser's answer
 * is only ever a candidate: z3-guess.ts builds the model in Z3 and believes it only when Z3 evaluates
 * every assertion to true in it.
 *
 * The terms are evaluated as parsed, without a compilation step: most queries are tried once and
 * are either answered by the plain assignment or given up soon. Definitions (`define-fun`, how
 * the encoder shares terms) keep their value until a cell they read changes, so trying one change
 * costs about what the terms that read the changed cell cost, not the whole query.
 */
import { decodeFloat, isList, isStringLiteral, readLiteral, type SExpr } from "../sexpr";
import { Regexes, type Re } from "./regex";
import { defaultOf, euclid, keyOf, norm, OverBudget, roundToIntegral, same, sortOf, Unsupported, type Sort, type Value } from "./values";

/** A definition's value and distances under the current assignment, and the definitions that read it. */
interface Definition {
  readonly name: string;
  readonly body: SExpr;
  value: [Value] | undefined;
  dist: [number | undefined, number | undefined];
  /** Definitions whose cached value used this one (found while evaluating them). */
  readonly readers: Set<Definition>;
  /** The constants and functions the body reads, through other definitions too (computed for blame). */
  reads?: Reads;
}

/** A declared constant: one cell of the assignment. */
export interface Constant {
  readonly name: string;
  readonly sort: Sort;
  value: Value;
  readonly readers: Set<Definition>;
}

/** A declared function: values at the arguments it was applied to, and one for every other argument. */
export interface FunctionTable {
  readonly name: string;
  readonly domain: readonly Sort[];
  readonly sort: Sort;
  readonly entries: Map<string, { readonly args: readonly Value[]; value: Value }>;
  elseValue: Value;
  /** The arguments it was applied to in any evaluation so far (key → arguments). */
  readonly applied: Map<string, readonly Value[]>;
  /** The definitions that read its value at each argument (a record list's field at one index is read by that element's terms alone). */
  readonly readers: Map<string, Set<Definition>>;
}

export interface Reads {
  readonly constants: Set<number>;
  readonly functions: Set<number>;
}

/** Each sort's JavaScript type, by `typeof`. */
interface Typed {
  bigint: bigint;
  number: number;
  string: string;
  object: Re;
  boolean: boolean;
}

type Named = { kind: "constant"; index: number } | { kind: "function"; index: number } | { kind: "defined"; def: Definition };

/** Float64 operations that take a rounding mode first; only round-to-nearest-even is evaluated. */
const ROUNDED = new Set(["fp.add", "fp.sub", "fp.mul", "fp.div", "fp.sqrt", "fp.roundToIntegral"]);
const NUMERAL = /^\d+$/;
/** The longest text and the largest integer the guesser computes with (query literals are at most 4 096 code units). */
const MAX_TEXT = 10_000;
const MAX_INT = 2n ** 256n;
/** The number of arguments of the operators with a fixed count (at least, at most). */
const ARITY: Record<string, readonly [number, number]> = {
  not: [1, 1], and: [1, Infinity], or: [1, Infinity], "=>": [2, Infinity], xor: [1, Infinity], ite: [3, 3], "=": [2, Infinity], distinct: [2, Infinity],
  "<": [2, Infinity], "<=": [2, Infinity], ">": [2, Infinity], ">=": [2, Infinity], "+": [1, Infinity], "*": [1, Infinity], "-": [1, Infinity], div: [2, 2], mod: [2, 2], abs: [1, 1], to_real: [1, 1],
  "fp.lt": [2, Infinity], "fp.leq": [2, Infinity], "fp.gt": [2, Infinity], "fp.geq": [2, Infinity], "fp.eq": [2, Infinity],
  "fp.isNaN": [1, 1], "fp.isZero": [1, 1], "fp.isInfinite": [1, 1], "fp.isNegative": [1, 1], "fp.isPositive": [1, 1], "fp.isNormal": [1, 1], "fp.isSubnormal": [1, 1], "fp.neg": [1, 1], "fp.abs": [1, 1],
  "fp.add": [3, 3], "fp.sub": [3, 3], "fp.mul": [3, 3], "fp.div": [3, 3], "fp.sqrt": [2, 2], "fp.roundToIntegral": [2, 2],
  "str.++": [1, Infinity], "str.len": [1, 1], "str.contains": [2, 2], "str.prefixof": [2, 2], "str.suffixof": [2, 2], "str.<": [2, 2], "str.<=": [2, 2], "str.at": [2, 2], "str.substr": [3, 3],
  "str.indexof": [3, 3], "str.replace": [3, 3], "str.replace_all": [3, 3], "str.to_int": [1, 1], "str.from_int": [1, 1], "str.is_digit": [1, 1], "str.to_code": [1, 1], "str.from_code": [1, 1],
  "str.in_re": [2, 2], "str.to_re": [1, 1], "re.range": [2, 2], "re.++": [1, Infinity], "re.union": [1, Infinity], "re.inter": [1, Infinity], "re.*": [1, 1], "re.+": [1, 1], "re.opt": [1, 1], "re.comp": [1, 1], "re.diff": [2, 2],
};
const ORDER: Record<string, string> = { "<": "<", "<=": "<=", ">": ">", ">=": ">=", "fp.lt": "<", "fp.leq": "<=", "fp.gt": ">", "fp.geq": ">=" };
const NEGATED: Record<string, string> = { "<": ">=", "<=": ">", ">": "<=", ">=": "<" };

/** The query read for evaluation: its cells and its assertions. */
export class QueryState {
  readonly constants: Constant[] = [];
  readonly functions: FunctionTable[] = [];
  readonly assertions: SExpr[] = [];
  /**
   * Each assertion as an unnamed definition: its distance is kept until a cell it reads changes,
   * so a trial re-evaluates only the assertions that read the changed cell.
   */
  private readonly asserted: Definition[] = [];
  /** Terms evaluated (and regular-expression steps): the search's budget counts them. */
  visits = 0;
  /** Past this many visits an evaluation stops (`OverBudget`), however far into a term it is. */
  limit = Infinity;
  private readonly names = new Map<string, Named>();
  private readonly strings = new Map<string, string>();
  /** Literal atoms' values, read once. */
  private readonly atoms = new Map<string, Value>();
  private readonly floats = new WeakMap<SExpr[], number>();
  /** Terms that read no cell (`fixed`), found once. */
  private readonly fixedTerms = new WeakMap<SExpr[], boolean>();
  private readonly fixedNames = new Map<string, boolean>();
  private readonly regexes = new Regexes(() => this.tick());
  /** The definition being evaluated: what it reads gets it as a reader. */
  private current: Definition | undefined;

  constructor(commands: readonly SExpr[]) {
    for (const c of commands) {
      if (!isList(c)) throw new Unsupported("a command that is not a list");
      const [head, name] = c;
      if (head === "set-option" || head === "set-info" || head === "check-sat") continue;
      if (head === "assert" && c.length === 2) {
        this.assertions.push(c[1]!);
        this.asserted.push({ name: `assertion ${this.asserted.length}`, body: c[1]!, value: undefined, dist: [undefined, undefined], readers: new Set() });
        continue;
      }
      if (typeof name !== "string" || this.names.has(name)) throw new Unsupported("a declaration without a name, or a name declared twice");
      if (head === "declare-const" && c.length === 3) this.declare(name, [], sortOf(c[2]!));
      else if (head === "declare-fun" && c.length === 4 && isList(c[2])) this.declare(name, c[2].map(sortOf), sortOf(c[3]!));
      else if (head === "define-fun" && c.length === 5 && isList(c[2]) && c[2].length === 0) {
        this.names.set(name, { kind: "defined", def: { name, body: c[4]!, value: undefined, dist: [undefined, undefined], readers: new Set() } });
      } else throw new Unsupported(`the command ${String(head)} ${name}`);
    }
  }

  private declare(name: string, domain: Sort[], sort: Sort): void {
    if (domain.length === 0) {
      this.names.set(name, { kind: "constant", index: this.constants.length });
      this.constants.push({ name, sort, value: defaultOf(sort), readers: new Set() });
    } else {
      this.names.set(name, { kind: "function", index: this.functions.length });
      this.functions.push({ name, domain, sort, entries: new Map(), elseValue: defaultOf(sort), applied: new Map(), readers: new Map() });
    }
  }

  /** A constant changed: the definitions that read it, and those that read them, are evaluated again. */
  changed(c: Constant): void {
    this.invalidate([...c.readers]);
  }

  /** A function's value changed at the arguments `key`, or (no key) at every argument it has no entry for. */
  changedAt(f: FunctionTable, key: string | undefined): void {
    const work: Definition[] = [];
    for (const [at, readers] of f.readers) if (key === undefined ? !f.entries.has(at) : at === key) work.push(...readers);
    this.invalidate(work);
  }

  private invalidate(work: Definition[]): void {
    while (work.length > 0) {
      const def = work.pop()!;
      if (def.value === undefined && def.dist[0] === undefined && def.dist[1] === undefined) continue;
      def.value = undefined;
      def.dist[0] = def.dist[1] = undefined;
      for (const r of def.readers) work.push(r);
    }
  }

  /** The sum of the assertions' distances from true under the current assignment (0: all hold). */
  score(): number {
    let total = 0;
    for (const a of this.asserted) total += this.definedDist(a, true);
    return total;
  }

  /** Whether every assertion holds under the current assignment. */
  holds(): boolean {
    return this.asserted.every((a) => this.defined(a) === true);
  }

  // ─────────────────────────────── values ───────────────────────────────

  /** One unit of work; an evaluation that would go past the limit stops here. */
  private tick(): void {
    if (++this.visits > this.limit) throw new OverBudget("the guess's budget is spent");
  }

  value(e: SExpr): Value {
    this.tick();
    if (typeof e === "string") return this.atom(e);
    const head = e[0];
    let v: Value;
    if (head === undefined) throw new Unsupported("an empty application");
    if (typeof head !== "string") v = this.indexedApplication(head, e);
    else {
      const named = this.names.get(head);
      if (named && named.kind !== "function") throw new Unsupported(`${head} applied`);
      v = named ? this.apply(named.index, e) : this.operation(head, e);
    }
    // Texts and integers stay small: a chain of definitions that doubles a text at each step would
    // otherwise outgrow what the search can afford (or JavaScript can hold) long before the budget.
    if (typeof v === "string" ? v.length > MAX_TEXT : typeof v === "bigint" && (v > MAX_INT || v < -MAX_INT)) throw new Unsupported("a value too large to guess with");
    return v;
  }

  private atom(a: string): Value {
    const named = this.names.get(a);
    if (named) {
      if (named.kind === "constant") {
        const c = this.constants[named.index]!;
        if (this.current) c.readers.add(this.current);
        return c.value;
      }
      if (named.kind === "defined") return this.defined(named.def);
      throw new Unsupported(`${a} without arguments`);
    }
    let v = this.atoms.get(a);
    if (v === undefined) {
      if (a === "true" || a === "false") v = a === "true";
      else if (a === "re.none") v = this.regexes.none;
      else if (a === "re.all") v = this.regexes.all;
      else if (a === "re.allchar") v = this.regexes.range(0, 0xffff);
      else if (NUMERAL.test(a)) v = BigInt(a);
      else if (isStringLiteral(a)) v = this.literal(a);
      else throw new Unsupported(`the symbol ${a}`);
      this.atoms.set(a, v);
    }
    return v;
  }

  /** A Float64 literal's value (read once: decoding its bits is dearer than the rest of an evaluation). */
  private floatLiteral(e: SExpr[]): number {
    let v = this.floats.get(e);
    if (v === undefined) {
      v = decodeFloat(e);
      this.floats.set(e, v);
    }
    return v;
  }

  private literal(a: string): string {
    let text = this.strings.get(a);
    if (text === undefined) {
      text = readLiteral(a);
      if (text === undefined) throw new Unsupported("a literal whose reading is uncertain");
      this.strings.set(a, text);
    }
    return text;
  }

  /** The literals of the assertions and of the definitions they reach: the values the search tries first. */
  literals(): { strings: Set<string>; ints: Set<bigint>; floats: Set<number> } {
    const out = { strings: new Set<string>(), ints: new Set<bigint>(), floats: new Set<number>() };
    const seen = new Set<string>();
    const walk = (e: SExpr): void => {
      if (isList(e)) {
        if (e[0] === "fp" || (e[0] === "_" && e[2] === "11")) {
          try { out.floats.add(decodeFloat(e)); } catch { /* not a literal */ }
          return;
        }
        for (const x of e) walk(x);
        return;
      }
      if (NUMERAL.test(e)) out.ints.add(BigInt(e));
      else if (isStringLiteral(e)) out.strings.add(this.literal(e));
      else {
        const named = this.names.get(e);
        if (named?.kind === "defined" && !seen.has(e)) {
          seen.add(e);
          walk(named.def.body);
        }
      }
    };
    for (const a of this.assertions) walk(a);
    return out;
  }

  private enter<T>(def: Definition, compute: () => T): T {
    if (this.current) def.readers.add(this.current);
    const outer = this.current;
    this.current = def;
    try {
      return compute();
    } finally {
      this.current = outer;
    }
  }

  private defined(def: Definition): Value {
    if (def.value) {
      if (this.current) def.readers.add(this.current);
      return def.value[0];
    }
    const v = this.enter(def, () => this.value(def.body));
    def.value = [v];
    return v;
  }

  private apply(index: number, e: SExpr[]): Value {
    const f = this.functions[index]!;
    if (e.length - 1 !== f.domain.length) throw new Unsupported(`${f.name} applied to ${e.length - 1} arguments`);
    const args: Value[] = [];
    for (let i = 1; i < e.length; i++) args.push(this.value(e[i]!));
    const key = keyOf(args);
    if (!f.applied.has(key)) f.applied.set(key, args);
    if (this.current) {
      let readers = f.readers.get(key);
      if (!readers) f.readers.set(key, (readers = new Set()));
      readers.add(this.current);
    }
    const entry = f.entries.get(key);
    return entry ? entry.value : f.elseValue;
  }

  /** `(fp …)`, `(_ +zero 11 53)`…, `((_ to_fp 11 53) RNE x)`, `((_ re.loop i j) r)`, `((_ re.^ n) r)`. */
  private indexedApplication(op: SExpr[], e: SExpr[]): Value {
    if (op[0] === "_" && op[1] === "to_fp" && op[2] === "11" && op[3] === "53" && e.length === 3 && e[1] === "RNE") {
      // A bigint converts to the nearest double, ties to even: IEEE's RNE; a double stays itself.
      const x = this.value(e[2]!);
      if (typeof x !== "bigint" && typeof x !== "number") throw new Unsupported("to_fp of a non-number");
      return Number(x);
    }
    if (op[0] === "_" && (op[1] === "re.loop" || op[1] === "re.^") && e.length === 2) {
      const lo = Number(op[2]);
      const hi = op[1] === "re.^" ? lo : op[3] === undefined ? undefined : Number(op[3]);
      if (!Number.isInteger(lo) || lo > 64 || (hi !== undefined && (!Number.isInteger(hi) || hi > 64))) throw new Unsupported("a loop too large");
      return this.regexes.loop(this.re(e[1]!), lo, hi);
    }
    throw new Unsupported(`the operator ${JSON.stringify(op)}`);
  }

  /** The value of `e`, which must have the JavaScript type of its sort (else the query is left to Z3). */
  private typed<K extends keyof Typed>(e: SExpr, type: K): Typed[K] {
    const v = this.value(e);
    if (typeof v !== type) throw new Unsupported(`a ${type} value expected`);
    return v as Typed[K];
  }
  private int = (e: SExpr): bigint => this.typed(e, "bigint");
  private float = (e: SExpr): number => this.typed(e, "number");
  private str = (e: SExpr): string => this.typed(e, "string");
  private re = (e: SExpr): Re => this.typed(e, "object");
  private bool = (e: SExpr): boolean => this.typed(e, "boolean");

  private operation(op: string, e: SExpr[]): Value {
    const n = e.length - 1;
    const arity = ARITY[op];
    if (arity && (n < arity[0] || n > arity[1])) throw new Unsupported(`${op} of ${n} arguments`);
    switch (op) {
      case "_":
        if (e.length === 4 && e[2] === "11" && e[3] === "53" && ["+zero", "-zero", "+oo", "-oo", "NaN"].includes(e[1] as string)) return this.floatLiteral(e);
        throw new Unsupported(`the constant ${JSON.stringify(e)}`);
      case "fp": return this.floatLiteral(e);
      case "not": return !this.bool(e[1]!);
      case "and": { for (let i = 1; i < e.length; i++) if (!this.bool(e[i]!)) return false; return true; }
      case "or": { for (let i = 1; i < e.length; i++) if (this.bool(e[i]!)) return true; return false; }
      // Right-associative: (=> a b c) is (=> a (=> b c)).
      case "=>": { let x = this.bool(e[n]!); for (let i = n - 1; i >= 1; i--) x = !this.bool(e[i]!) || x; return x; }
      case "xor": { let x = false; for (let i = 1; i < e.length; i++) x = x !== this.bool(e[i]!); return x; }
      case "ite": return this.bool(e[1]!) ? this.value(e[2]!) : this.value(e[3]!);
      case "=": { const x = this.value(e[1]!); for (let i = 2; i < e.length; i++) if (!same(x, this.value(e[i]!))) return false; return true; }
      case "distinct": {
        const xs = e.slice(1).map((a) => this.value(a));
        return xs.every((x, i) => xs.every((y, j) => j <= i || !same(x, y)));
      }
      // Chained, as SMT-LIB has them: (< a b c) is a < b and b < c.
      case "<": case "<=": case ">": case ">=": { for (let i = 1; i < n; i++) if (!this.compare(ORDER[op]!, this.int(e[i]!), this.int(e[i + 1]!))) return false; return true; }
      case "fp.lt": case "fp.leq": case "fp.gt": case "fp.geq": { for (let i = 1; i < n; i++) if (!this.compare(ORDER[op]!, this.float(e[i]!), this.float(e[i + 1]!))) return false; return true; }
      case "+": { let s = 0n; for (let i = 1; i < e.length; i++) s += this.int(e[i]!); return s; }
      case "*": { let s = 1n; for (let i = 1; i < e.length; i++) s *= this.int(e[i]!); return s; }
      case "-": { if (n === 1) return -this.int(e[1]!); let s = this.int(e[1]!); for (let i = 2; i < e.length; i++) s -= this.int(e[i]!); return s; }
      case "div": return euclid(this.int(e[1]!), this.int(e[2]!))[0];
      case "mod": return euclid(this.int(e[1]!), this.int(e[2]!))[1];
      case "abs": { const x = this.int(e[1]!); return x < 0n ? -x : x; }
      // Only integers are ever converted (to_fp of their value): a Real stays an exact integer.
      case "to_real": return this.int(e[1]!);
      case "fp.eq": { for (let i = 1; i < n; i++) if (this.float(e[i]!) !== this.float(e[i + 1]!)) return false; return true; }
      case "fp.isNaN": return Number.isNaN(this.float(e[1]!));
      case "fp.isZero": return this.float(e[1]!) === 0;
      case "fp.isInfinite": return Math.abs(this.float(e[1]!)) === Infinity;
      case "fp.isNegative": { const x = this.float(e[1]!); return x < 0 || Object.is(x, -0); }
      case "fp.isPositive": { const x = this.float(e[1]!); return x > 0 || Object.is(x, 0); }
      case "fp.isNormal": { const x = Math.abs(this.float(e[1]!)); return x >= 2.2250738585072014e-308 && x !== Infinity; }
      case "fp.isSubnormal": { const x = Math.abs(this.float(e[1]!)); return x > 0 && x < 2.2250738585072014e-308; }
      case "fp.neg": return -this.float(e[1]!);
      case "fp.abs": return Math.abs(this.float(e[1]!));
      case "str.++": { let s = ""; for (let i = 1; i < e.length; i++) s += this.str(e[i]!); return s; }
      case "str.len": return BigInt(this.str(e[1]!).length);
      case "str.contains": return this.str(e[1]!).includes(this.str(e[2]!));
      case "str.prefixof": { const p = this.str(e[1]!); return this.str(e[2]!).startsWith(p); }
      case "str.suffixof": { const p = this.str(e[1]!); return this.str(e[2]!).endsWith(p); }
      case "str.<": return this.str(e[1]!) < this.str(e[2]!);
      case "str.<=": return this.str(e[1]!) <= this.str(e[2]!);
      case "str.at": {
        const s = this.str(e[1]!);
        const i = this.int(e[2]!);
        return i >= 0n && i < BigInt(s.length) ? s[Number(i)]! : "";
      }
      case "str.substr": {
        const s = this.str(e[1]!);
        const i = this.int(e[2]!);
        const k = this.int(e[3]!);
        const len = BigInt(s.length);
        if (i < 0n || k <= 0n || i >= len) return "";
        return s.slice(Number(i), Number(i + k > len ? len : i + k));
      }
      case "str.indexof": {
        const s = this.str(e[1]!);
        const t = this.str(e[2]!);
        const i = this.int(e[3]!);
        if (i < 0n || i > BigInt(s.length)) return -1n;
        return BigInt(s.indexOf(t, Number(i)));
      }
      case "str.replace": {
        const s = this.str(e[1]!);
        const t = this.str(e[2]!);
        const u = this.str(e[3]!);
        if (t === "") return u + s;
        const at = s.indexOf(t);
        return at < 0 ? s : s.slice(0, at) + u + s.slice(at + t.length);
      }
      case "str.replace_all": {
        const s = this.str(e[1]!);
        const t = this.str(e[2]!);
        const u = this.str(e[3]!);
        return t === "" ? s : s.split(t).join(u);
      }
      case "str.to_int": { const s = this.str(e[1]!); return /^[0-9]+$/.test(s) ? BigInt(s) : -1n; }
      case "str.from_int": { const i = this.int(e[1]!); return i < 0n ? "" : i.toString(); }
      case "str.is_digit": return /^[0-9]$/.test(this.str(e[1]!));
      case "str.to_code": { const s = this.str(e[1]!); return s.length === 1 ? BigInt(s.charCodeAt(0)) : -1n; }
      case "str.from_code": { const c = this.int(e[1]!); return c >= 0n && c <= 0xffffn ? String.fromCharCode(Number(c)) : ""; }
      case "str.in_re": { const s = this.str(e[1]!); return this.regexes.matches(this.re(e[2]!), s); }
      case "str.to_re": return this.regexes.word(this.str(e[1]!));
      case "re.range": {
        const lo = this.str(e[1]!);
        const hi = this.str(e[2]!);
        return lo.length === 1 && hi.length === 1 ? this.regexes.range(lo.charCodeAt(0), hi.charCodeAt(0)) : this.regexes.none;
      }
      case "re.none": return this.regexes.none;
      case "re.all": return this.regexes.all;
      case "re.allchar": return this.regexes.range(0, 0xffff);
      case "re.++": { let r = this.regexes.eps; for (let i = e.length - 1; i >= 1; i--) r = this.regexes.cat(this.re(e[i]!), r); return r; }
      case "re.union": return this.regexes.union(...e.slice(1).map((a) => this.re(a)));
      case "re.inter": { let r = this.re(e[1]!); for (let i = 2; i < e.length; i++) r = this.regexes.inter(r, this.re(e[i]!)); return r; }
      case "re.*": return this.regexes.star(this.re(e[1]!));
      case "re.+": { const r = this.re(e[1]!); return this.regexes.cat(r, this.regexes.star(r)); }
      case "re.opt": return this.regexes.union(this.regexes.eps, this.re(e[1]!));
      case "re.comp": return this.regexes.comp(this.re(e[1]!));
      case "re.diff": { const r = this.re(e[1]!); return this.regexes.inter(r, this.regexes.comp(this.re(e[2]!))); }
    }
    if (op === "fp.roundToIntegral" && typeof e[1] === "string") {
      const r = roundToIntegral(e[1], this.float(e[2]!));
      if (r === undefined) throw new Unsupported(`${op} with the rounding mode ${e[1]}`);
      return r;
    }
    if (ROUNDED.has(op)) {
      if (e[1] !== "RNE" && e[1] !== "roundNearestTiesToEven") throw new Unsupported(`${op} with another rounding mode`);
      const x = this.float(e[2]!);
      switch (op) {
        case "fp.add": return x + this.float(e[3]!);
        case "fp.sub": return x - this.float(e[3]!);
        case "fp.mul": return x * this.float(e[3]!);
        case "fp.div": return x / this.float(e[3]!);
        case "fp.sqrt": return Math.sqrt(x);
      }
    }
    throw new Unsupported(`the operator ${op}`);
  }

  /** `x rel y` for integers or doubles (a comparison with NaN is false, as IEEE has it). */
  private compare(rel: string, x: bigint | number, y: bigint | number): boolean {
    switch (rel) {
      case "<": return x < y;
      case "<=": return x <= y;
      case ">": return x > y;
      default: return x >= y;
    }
  }

  // ─────────────────────────────── distances ───────────────────────────────

  /** How far the Boolean term `e` is from `want`: 0 when it is `want`, else in (0, 1] per atom, summed over what must change. */
  dist(e: SExpr, want: boolean): number {
    if (typeof e === "string") {
      const named = this.names.get(e);
      if (named?.kind === "defined") return this.definedDist(named.def, want);
      return this.value(e) === want ? 0 : 1;
    }
    const head = e[0];
    switch (head) {
      case "not": return this.dist(e[1]!, !want);
      case "and": case "or": {
        this.tick();
        // and→true, or→false: every child must; otherwise one child suffices.
        if (want === (head === "and")) { let s = 0; for (let i = 1; i < e.length; i++) s += this.dist(e[i]!, want); return s; }
        // A child no cell can change (a check the encoder found constant, `(and true (not true))`)
        // is no way to make it: it would hide how near the others come.
        let best = Infinity;
        for (let i = 1; i < e.length && best > 0; i++) {
          const d = this.dist(e[i]!, want);
          if (d === 0 || !this.fixed(e[i]!)) best = Math.min(best, d);
        }
        return best === Infinity ? 1 : best;
      }
      case "=>":
        if (e.length !== 3) break;
        return want ? Math.min(this.dist(e[1]!, false), this.dist(e[2]!, true)) : this.dist(e[1]!, true) + this.dist(e[2]!, false);
      case "ite": {
        if (e.length !== 4 || typeof this.value(e[2]!) !== "boolean") break;
        return Math.min(this.dist(e[1]!, true) + this.dist(e[2]!, want), this.dist(e[1]!, false) + this.dist(e[3]!, want));
      }
      case "<": case "<=": case ">": case ">=": case "fp.lt": case "fp.leq": case "fp.gt": case "fp.geq": {
        if (e.length !== 3) break;
        const x = this.value(e[1]!);
        const y = this.value(e[2]!);
        if ((typeof x !== "bigint" || typeof y !== "bigint") && (typeof x !== "number" || typeof y !== "number")) throw new Unsupported("a comparison of mixed sorts");
        const rel = ORDER[head]!;
        if (this.compare(rel, x, y) === want) return 0;
        // The relation that must hold instead, and the least gap that separates two values.
        const r = want ? rel : NEGATED[rel]!;
        const step = typeof x === "bigint" ? 1 : Number.MIN_VALUE;
        const d = Number(x) - Number(y);
        const gap = r === "<" ? d + step : r === "<=" ? d : r === ">" ? -d + step : -d;
        return Number.isNaN(gap) ? 1 : norm(gap) || 1e-9;
      }
      case "=": case "fp.eq": {
        if (e.length !== 3) break;
        const x = this.value(e[1]!);
        if (typeof x === "boolean" && head === "=") {
          return want
            ? Math.min(this.dist(e[1]!, true) + this.dist(e[2]!, true), this.dist(e[1]!, false) + this.dist(e[2]!, false))
            : Math.min(this.dist(e[1]!, true) + this.dist(e[2]!, false), this.dist(e[1]!, false) + this.dist(e[2]!, true));
        }
        const y = this.value(e[2]!);
        const equal = head === "=" ? same(x, y) : x === y;
        if (equal === want) return 0;
        if (!want || (typeof x !== "bigint" && typeof x !== "number")) return 1;
        const d = Math.abs(Number(x) - Number(y));
        return Number.isNaN(d) ? 1 : norm(d) || 1e-9;
      }
    }
    return this.value(e) === want ? 0 : 1;
  }

  private definedDist(def: Definition, want: boolean): number {
    const i = want ? 1 : 0;
    const cached = def.dist[i];
    if (cached !== undefined) {
      if (this.current) def.readers.add(this.current);
      return cached;
    }
    const d = this.enter(def, () => this.dist(def.body, want));
    def.dist[i] = d;
    return d;
  }

  // ─────────────────────────────── reads ───────────────────────────────

  /** The body of the definition without parameters named `name`, if there is one (guess/blame.ts follows it). */
  definitionBody(name: string): SExpr | undefined {
    const named = this.names.get(name);
    return named?.kind === "defined" ? named.def.body : undefined;
  }

  /** Whether `e` reads no constant and no function: no assignment changes its value. */
  fixed(e: SExpr): boolean {
    let known = typeof e === "string" ? this.fixedNames.get(e) : this.fixedTerms.get(e);
    if (known === undefined) {
      const reads: Reads = { constants: new Set(), functions: new Set() };
      this.readsInto(e, reads);
      known = reads.constants.size === 0 && reads.functions.size === 0;
      if (typeof e === "string") this.fixedNames.set(e, known);
      else this.fixedTerms.set(e, known);
    }
    return known;
  }

  /** Every constant and function `e` reads, through definitions too. */
  readsInto(e: SExpr, into: Reads): void {
    if (isList(e)) {
      for (const x of e) this.readsInto(x, into);
      return;
    }
    const named = this.names.get(e);
    if (!named) return;
    if (named.kind === "constant") into.constants.add(named.index);
    else if (named.kind === "function") into.functions.add(named.index);
    else {
      const def = named.def;
      if (!def.reads) {
        def.reads = { constants: new Set(), functions: new Set() };
        this.readsInto(def.body, def.reads);
      }
      for (const c of def.reads.constants) into.constants.add(c);
      for (const f of def.reads.functions) into.functions.add(f);
    }
  }
}
