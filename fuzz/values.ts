import fc from "fast-check";
import ts from "typescript";
import type { ShownValue } from "../core/prover/api";
import type { Shape } from "./shapes";

/**
 * Values the oracle draws inputs and tool results from: the program's own literals and their
 * neighbours first (a uniformly random string never starts with "/secrets"), then the corner
 * cases of JavaScript's numbers and UTF-16 strings.
 */
export interface Pools {
  readonly strings: readonly string[];
  readonly numbers: readonly number[];
}

/** Strings every run may see: empty, a surrogate pair and its halves, names that look like the prover's own. */
const CORNER_STRINGS = ["", "a", "😀", "\ud83d", "\ude00", "a\ud800", "i!0", "j!1", "undefined", "NaN", "0", "-0", "5", " "];
/** Numbers every run may see: signed zeros, NaN, infinities, rounding and the edge of exact integers. */
const CORNER_NUMBERS = [0, -0, 1, -1, 0.5, 0.1, 0.2, 0.1 + 0.2, 0.3, 1e16, 1e16 + 2, 2 ** 53, 2 ** 53 + 2, Number.MIN_VALUE, NaN, Infinity, -Infinity];

/** The literals of a program (string, template and number literals; import paths excluded). */
export function literalsOf(file: ts.SourceFile): { strings: string[]; numbers: number[] } {
  const strings = new Set<string>();
  const numbers = new Set<number>();
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) return;
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) strings.add(n.text);
    else if (ts.isNumericLiteral(n)) {
      const v = Number(n.text);
      numbers.add(ts.isPrefixUnaryExpression(n.parent) && n.parent.operator === ts.SyntaxKind.MinusToken ? -v : v);
    } else if (ts.isIdentifier(n) && (n.text === "NaN" || n.text === "Infinity")) numbers.add(n.text === "NaN" ? NaN : Infinity);
    ts.forEachChild(n, visit);
  };
  visit(file);
  return { strings: [...strings], numbers: [...numbers] };
}

/** The program's literals, their neighbours (prefixes, suffixes, ±1, halves, concatenations), and the corner cases. */
export function poolsOf(file: ts.SourceFile): Pools {
  const lits = literalsOf(file);
  const strings = new Set<string>(lits.strings);
  for (const s of lits.strings) {
    for (const x of [s.slice(0, 1), s.slice(0, -1), s.slice(1), s.slice(-1), `${s}x`, `x${s}`, s + s, `${s}\ud83d`, `\ude00${s}`, s.toUpperCase()]) strings.add(x);
  }
  for (const a of lits.strings.slice(0, 12)) for (const b of lits.strings.slice(0, 12)) strings.add(a + b);
  const numbers = new Set<number>();
  const addNum = (n: number) => (Object.is(n, -0) ? numbers.add(-0) : numbers.add(n));
  for (const n of lits.numbers) for (const x of [n, n + 1, n - 1, -n, n / 2, n * 2, n + 0.5, n - 0.5]) addNum(x);
  for (const s of lits.strings) {
    addNum(s.length);
    if (s.trim() !== "" && !Number.isNaN(Number(s))) addNum(Number(s));
  }
  for (const n of lits.numbers) if (Number.isFinite(n)) strings.add(String(n));
  for (const n of CORNER_NUMBERS) addNum(n);
  return { strings: [...strings, ...CORNER_STRINGS.filter((s) => !strings.has(s))], numbers: [...numbers] };
}

/** Values of a shape, drawn from the pools (program literals weighted above the neighbours and corners). */
export function valueArb(shape: Shape, pools: Pools, longArrays = false): fc.Arbitrary<unknown> {
  switch (shape.k) {
    case "string": return fc.constantFrom(...pools.strings);
    case "number": return fc.constantFrom(...pools.numbers);
    case "boolean": return fc.boolean();
    case "undefined": return fc.constant(undefined);
    case "null": return fc.constant(null);
    case "array": {
      const item = valueArb(shape.of, pools, longArrays);
      return fc.oneof(
        { weight: 4, arbitrary: fc.array(item, { maxLength: 4 }) },
        // With `longArrays`, arrays of 5 to 12 elements too (the bounds of the corpus's tools are 8 to 12).
        ...(longArrays ? [{ weight: 2, arbitrary: fc.array(item, { minLength: 5, maxLength: 12 }) }] : []),
        // The same element repeated: duplicates break `distinct`, agreement keeps `allSameValue`.
        { weight: 1, arbitrary: fc.tuple(item, fc.integer({ min: 2, max: 3 })).map(([x, n]) => Array.from({ length: n }, () => x)) },
      );
    }
    case "record": return fc.record(Object.fromEntries(shape.fields.map(([k, s]) => [k, valueArb(s, pools, longArrays)])));
    case "union": {
      // `T | undefined`: undefined a third of the time.
      return fc.oneof(...shape.of.map((s) => ({ weight: s.k === "undefined" || s.k === "null" ? 2 : 4, arbitrary: valueArb(s, pools, longArrays) })));
    }
  }
}

/**
 * A drawn tool result with every element that breaks an element promise (`elementOk` false)
 * replaced by the first neighbour that keeps it, or dropped when none does: a string argument of
 * the call put in front (so "" gives the prefix itself, a surrogate half gives the prefix and the
 * half), a number's opposite, the smallest positive number, 1; a record's fields one at a time.
 * Results that are not arrays, and elements that keep every promise, are returned as they are.
 */
export function keepElementPromises(v: unknown, elementOk: (x: unknown) => boolean, args: readonly unknown[]): unknown {
  if (!Array.isArray(v) || v.every(elementOk)) return v;
  const strings = args.filter((a): a is string => typeof a === "string");
  const candidates = (x: unknown): unknown[] => {
    if (typeof x === "string") return strings.map((a) => a + x);
    if (typeof x === "number") return [-x, Number.MIN_VALUE, 1];
    if (typeof x === "object" && x !== null && !Array.isArray(x)) {
      return Object.entries(x).flatMap(([k, f]) => candidates(f).map((c) => ({ ...x, [k]: c })));
    }
    return [];
  };
  const out: unknown[] = [];
  for (const x of v) {
    const kept = elementOk(x) ? x : candidates(x).find(elementOk);
    if (kept !== undefined || elementOk(x)) out.push(kept);
  }
  return out;
}

/** The most elements a replay adds to an array the counterexample shows only in part. */
const MAX_FILLED = 1000;

/** The value a counterexample shows, in JavaScript (`"NaN"`, `"-0"` are numbers where a number is expected); `UNSPECIFIED` where the prover did not read it. */
export const UNSPECIFIED = Symbol("unspecified");

export function fromShown(shape: Shape, v: ShownValue | undefined, fill: (shape: Shape) => unknown): unknown {
  if (v === undefined) return UNSPECIFIED;
  switch (shape.k) {
    case "number":
      if (typeof v === "number") return v;
      if (v === "NaN") return NaN;
      if (v === "-0") return -0;
      if (v === "Infinity") return Infinity;
      if (v === "-Infinity") return -Infinity;
      return UNSPECIFIED;
    case "string": return typeof v === "string" ? v : UNSPECIFIED;
    case "boolean": return typeof v === "boolean" ? v : UNSPECIFIED;
    case "undefined": return v === null ? undefined : UNSPECIFIED;
    case "null": return v === null ? null : UNSPECIFIED;
    case "array": {
      if (!Array.isArray(v)) return UNSPECIFIED;
      const out: unknown[] = [];
      for (const item of v) {
        const more = typeof item === "string" ? /^… (\d+) more$/.exec(item) : null;
        if (more) {
          // The solver may choose an array of millions: such a run is not replayed here.
          if (Number(more[1]) > MAX_FILLED) return UNSPECIFIED;
          for (let i = 0; i < Number(more[1]); i++) out.push(fill(shape.of));
          continue;
        }
        const x = fromShown(shape.of, item, fill);
        out.push(x === UNSPECIFIED ? fill(shape.of) : x);
      }
      return out;
    }
    case "record": {
      if (typeof v !== "object" || v === null || Array.isArray(v)) return UNSPECIFIED;
      const out: Record<string, unknown> = {};
      for (const [k, s] of shape.fields) {
        const x = fromShown(s, v[k], fill);
        if (x === UNSPECIFIED) return UNSPECIFIED;
        out[k] = x;
      }
      return out;
    }
    case "union": {
      for (const s of shape.of) {
        const x = fromShown(s, v, fill);
        if (x !== UNSPECIFIED) return x;
      }
      return UNSPECIFIED;
    }
  }
}

/** A value as the counterexample would show it (for reports). */
export function show(v: unknown): string {
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (typeof v === "string") return JSON.stringify(v);
  if (v === undefined) return "undefined";
  if (Array.isArray(v)) return `[${v.slice(0, 10).map(show).join(", ")}${v.length > 10 ? `, … ${v.length - 10} more` : ""}]`;
  if (typeof v === "object" && v !== null) return `{ ${Object.entries(v).map(([k, x]) => `${k}: ${show(x)}`).join(", ")} }`;
  return String(v);
}
