import { decodeFloat, decodeInt, decodeString, type SExpr } from "./sexpr";
import type { ShownValue } from "./api";
import type { Sym } from "./values";
import type { GetValues, ValueSort } from "./z3";

/** How many elements of an array a counterexample shows. */
export const SHOWN_ELEMENTS = 8;

function showNumber(n: number): ShownValue {
  return Number.isNaN(n) ? "NaN" : Object.is(n, -0) ? "-0" : n === Infinity ? "Infinity" : n === -Infinity ? "-Infinity" : n;
}

export function showText(v: ShownValue): string {
  return typeof v === "string" ? JSON.stringify(v) : Array.isArray(v) ? `[${v.map(showText).join(", ")}]` : typeof v === "object" && v !== null ? `{ ${Object.entries(v).map(([k, x]) => `${k}: ${showText(x)}`).join(", ")} }` : String(v);
}

/** Reads values out of a satisfying model, in as few round trips as possible. */
export class ModelReader {
  private readonly terms = new Map<string, ValueSort>();
  private readonly values = new Map<string, SExpr>();
  /** `later`: declarations made since the query was built (see GetValues), sent with each read. */
  constructor(private readonly get: GetValues, private readonly later: () => readonly string[] = () => []) {}

  want(sym: Sym): void {
    for (const [t, sort] of this.scalarTerms(sym)) if (!this.values.has(t)) this.terms.set(t, sort);
  }
  wantTerm(term: string, sort: ValueSort = "Bool"): void {
    if (!this.values.has(term)) this.terms.set(term, sort);
  }
  async fetch(): Promise<void> {
    const terms = [...this.terms].filter(([t]) => !this.values.has(t)).map(([term, sort]) => ({ term, sort }));
    this.terms.clear();
    if (terms.length === 0) return;
    const vs = await this.get(terms, this.later());
    terms.forEach((t, i) => this.values.set(t.term, vs[i]!));
  }
  private scalarTerms(sym: Sym): [string, ValueSort][] {
    switch (sym.k) {
      case "str": return sym.c === undefined ? [[sym.t, "String"]] : [];
      case "bool": return sym.c === undefined ? [[sym.t, "Bool"]] : [];
      case "num": return sym.c === undefined ? [[sym.t, "Float64"]] : [];
      case "arr": return sym.items.flatMap((i) => this.scalarTerms(i));
      case "rec": return [...sym.fields.values()].flatMap((i) => this.scalarTerms(i));
      case "sarr": return [[sym.len, "Int"]];
      case "maybe": return [[sym.def, "Bool"] as [string, ValueSort], ...this.scalarTerms(sym.v)];
      default: return [];
    }
  }
  bool(term: string): boolean {
    return this.values.get(term) === "true";
  }
  /** A Bool term's value, or undefined where the model leaves it unevaluated (a quantifier) or it was not fetched. */
  truth(term: string): boolean | undefined {
    const v = this.values.get(term);
    return v === "true" ? true : v === "false" ? false : undefined;
  }
  /** An Int term's value, when it was fetched. */
  int(term: string): number | undefined {
    const v = this.values.get(term);
    return v === undefined ? undefined : decodeInt(v);
  }
  /** A Float64 term's value, when it was fetched. */
  float(term: string): number | undefined {
    const v = this.values.get(term);
    return v === undefined ? undefined : decodeFloat(v);
  }
  /** Ask for the elements of symbolic arrays whose length is known. */
  wantElements(sym: Sym): void {
    if (sym.k === "sarr") {
      const len = this.values.get(sym.len);
      const n = len === undefined ? 0 : Math.min(decodeInt(len), SHOWN_ELEMENTS);
      for (let i = 0; i < n; i++) this.want(sym.at(String(i)));
    } else if (sym.k === "rec") for (const v of sym.fields.values()) this.wantElements(v);
    else if (sym.k === "maybe") this.wantElements(sym.v);
  }
  show(sym: Sym): ShownValue {
    switch (sym.k) {
      case "str": return sym.c ?? (this.values.has(sym.t) ? decodeString(String(this.values.get(sym.t))) : "?");
      case "bool": return sym.c ?? (this.values.has(sym.t) ? this.values.get(sym.t) === "true" : "?");
      case "num": {
        if (sym.c !== undefined) return showNumber(sym.c);
        const v = this.values.get(sym.t);
        return v === undefined ? "?" : showNumber(decodeFloat(v));
      }
      case "undef": return null;
      // A possibly-undefined value: `null` (shown for undefined) where its flag is false.
      case "maybe": {
        const def = sym.def === "true" ? "true" : sym.def === "false" ? "false" : this.values.get(sym.def);
        return def === undefined ? "?" : def === "true" ? this.show(sym.v) : null;
      }
      case "arr": return sym.items.map((i) => this.show(i));
      case "rec": return Object.fromEntries([...sym.fields].map(([k, v]) => [k, this.show(v)]));
      case "sarr": {
        const len = this.values.get(sym.len);
        if (len === undefined) return "?";
        const n = decodeInt(len);
        const shown = Array.from({ length: Math.min(n, SHOWN_ELEMENTS) }, (_, i) => this.show(sym.at(String(i))));
        if (n > SHOWN_ELEMENTS) shown.push(`… ${n - SHOWN_ELEMENTS} more`);
        return shown;
      }
      default: return "?";
    }
  }
}
