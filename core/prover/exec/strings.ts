/**
 * Strings and conversions (issue 10): `String(x)`, `Number(x)`, `toFixed`, `toLowerCase`/
 * `toUpperCase`, `trim`/`trimStart`/`trimEnd`, `split`, `replace`/`replaceAll`, the searches
 * (`startsWith`, `endsWith`, `includes`, `indexOf`), and `Date.now()`.
 * Each is exact in Z3's string theory (16-bit characters), computed by JavaScript itself on
 * known values, or checked against JavaScript at every model (case mapping and the digits of
 * fractions: core/prover/conversions.ts); what none covers is refused on its node.
 */
import type * as TS from "typescript";
import { caughtText } from "./caught";
import { caseKind, NUMBER_OF_TEXT_KIND, parseKind, toFixedKind } from "../conversions";
import { and, ite, not, numLit, or, strLit } from "../smt";
import { bool, boolT, num, numFromInt, str, type Sym } from "../values";
import { refuse, sized, type Exec } from "./context";
import { convert } from "./conversions";
import { indexArg, maxI, minI, sliceBound, type IntIndex } from "./arrays";
import { evalExpr } from "./expressions";
import { declare, freshValue } from "./fresh";
import { definite, noFunctionValue, notOpaque } from "./guards";
import { STRING_LENGTH_MAG } from "./integers";
import { toStrOrUndefined } from "./operators";
import { splitUnknown } from "./split";
import { trimmed } from "./trim";

export { TRIM_RANGES } from "./trim";
import { nameTerm, type State } from "./state";
import { isList, isStringLiteral, parseSExprs, printSExpr, readLiteral, type SExpr } from "../sexpr";

export const STRING_METHODS: ReadonlySet<string> = new Set(["toLowerCase", "toUpperCase", "trim", "trimStart", "trimEnd", "split", "replace", "replaceAll", "slice", "substring", "charAt", "padStart", "padEnd"]);

/** The longest text `padStart`/`padEnd` are modelled to (a literal of that length enters the query). */
const PAD_CAP = 1000;

/** `String(x)`: ToString, exactly as `+ ""` applies it (integers and known numbers only). */
export function callStringGlobal(ex: Exec, e: TS.CallExpression, st: State): Sym {
  if (e.arguments.length === 0) return str("");
  if (e.arguments.length > 1) refuse(e, "`String` with more than one argument is not modelled.", "Pass one value: `String(x)`.");
  const v = evalExpr(ex, e.arguments[0]!, st);
  const caught = caughtText(ex, v, e.arguments[0]!);
  if (caught) return caught;
  notOpaque(v, e.arguments[0]!);
  noFunctionValue(v, e.arguments[0]!);
  return sized(toStrOrUndefined(ex, v, e.arguments[0]!), e);
}

/**
 * `Number(x)`: numbers as they are, booleans as 0 and 1, `undefined` as NaN, a known string by
 * JavaScript itself. A string the prover does not know is refused: JavaScript's grammar (spaces
 * around, signs, fractions, exponents, `0x`/`0o`/`0b`, `Infinity`) has no exact model here.
 */
export function callNumberGlobal(ex: Exec, e: TS.CallExpression, st: State): Sym {
  if (e.arguments.length === 0) return num(0);
  if (e.arguments.length > 1) refuse(e, "`Number` with more than one argument is not modelled.", "Pass one value: `Number(x)`.");
  const a = e.arguments[0]!;
  const v = evalExpr(ex, a, st);
  notOpaque(v, a);
  noFunctionValue(v, a);
  // A value that may be undefined converts to NaN where it is (nothing throws).
  if (v.k === "maybe") {
    const inner = numberOf(ex, v.v, e, a);
    return inner.k === "num" ? { k: "num", t: ite(v.def, inner.t, numLit(NaN)) } : inner;
  }
  return numberOf(ex, v, e, a);
}

function numberOf(ex: Exec, v: Sym, e: TS.CallExpression, a: TS.Expression): Sym {
  notOpaque(v, a);
  switch (v.k) {
    case "num": return v;
    case "undef": return num(NaN);
    case "bool": return v.c !== undefined ? num(v.c ? 1 : 0) : { k: "num", t: ite(v.t, numLit(1), numLit(0)), int: ite(v.t, "1", "0"), mag: 1 };
    case "str":
      if (v.c !== undefined) return num(Number(v.c));
      // JavaScript's StringToNumber, a function of the text the solver does not know (conversions.ts).
      return convert(ex, NUMBER_OF_TEXT_KIND, v.t, e, { reason: "`Number` of a string the prover does not know is not read here", instead: "Convert the text inside `main`." });
    default: refuse(a, "`Number` of this value is not modelled.", "Convert strings, numbers and booleans only.");
  }
}

/**
 * `parseInt(s, radix?)` and `parseFloat(s)` (or `Number.parseInt`/`Number.parseFloat`) of a
 * string: a known one by JavaScript, `undefined` as the text "undefined" (NaN but in radix 31 and
 * up), an unknown one as a conversion checked against JavaScript at every model (conversions.ts
 * `parseKind`). The radix must be a literal: 0 (as if absent), or 2 to 36.
 */
export function callParse(ex: Exec, name: "parseInt" | "parseFloat", e: TS.CallExpression, st: State): Sym {
  const most = name === "parseInt" ? 2 : 1;
  if (e.arguments.length === 0 || e.arguments.length > most) refuse(e, `\`${name}\` takes ${name === "parseInt" ? "a string and a literal radix" : "one string"} here.`, name === "parseInt" ? "Call `parseInt(text, 10)`." : "Call `parseFloat(text)`.");
  let radix: number | undefined;
  if (e.arguments[1]) {
    const r = evalExpr(ex, e.arguments[1], st);
    if (r.k !== "num" || r.c === undefined || !Number.isInteger(r.c) || (r.c !== 0 && (r.c < 2 || r.c > 36))) refuse(e.arguments[1], "The radix of `parseInt` is modelled as a literal: 0, or 2 to 36.", "Write `parseInt(text, 10)`.");
    radix = r.c === 0 ? undefined : r.c;
  }
  const parse = (text: string): number => (name === "parseInt" ? parseInt(text, radix) : parseFloat(text));
  const a = e.arguments[0]!;
  const v = evalExpr(ex, a, st);
  notOpaque(v, a);
  noFunctionValue(v, a);
  const of = (x: Sym): Sym => {
    if (x.k === "undef") return num(parse("undefined"));
    if (x.k !== "str") refuse(a, `\`${name}\` of a value that is not a string is not modelled (JavaScript converts it to text first).`, name === "parseInt" ? "Pass a string; for a number write `Math.trunc(x)`." : "Pass a string.");
    if (x.c !== undefined) return num(parse(x.c));
    return convert(ex, parseKind(name, radix), x.t, e, { reason: `\`${name}\` of a string the prover does not know is not read here`, instead: "Parse the text inside `main`." });
  };
  if (v.k !== "maybe") return of(v);
  const inner = of(v.v);
  if (inner.k !== "num") return inner;
  return { k: "num", t: ite(v.def, inner.t, numLit(parse("undefined"))) };
}

/** `Date.now()`: the clock, a fresh integer time value in every run (never a constant). */
export function callDate(ex: Exec, name: string, e: TS.CallExpression): Sym {
  if (ex.pureOnly) refuse(e, "The clock is not read here (top-level values and contract predicates are pure).", "Call `Date.now()` inside `main`.");
  if (name !== "now" || e.arguments.length !== 0) refuse(e, `\`Date.${name}\` is not modelled.`, "Use `Date.now()` (a number of milliseconds the prover treats as unknown).");
  // A time value is an integer of magnitude at most 8.64e15 (ECMA-262 TimeClip).
  return freshValue(ex, "Date.now", { kind: "number" }, e, [], new Map([["", { lo: -8.64e15, hi: 8.64e15 }]]));
}

/** `n.toFixed(d)`: a known number by JavaScript, an integer by its digits; other numbers are refused. */
export function callToFixed(ex: Exec, target: Extract<Sym, { k: "num" }>, e: TS.CallExpression, st: State): Sym {
  const args = e.arguments.map((a) => known(evalExpr(ex, a, st), a));
  const d = args.length === 0 ? num(0) : args[0]!;
  if (args.length > 1 || d.k !== "num" || d.c === undefined || !Number.isInteger(d.c) || d.c < 0 || d.c > 100) refuse(e, "`toFixed` is modelled with a literal number of digits from 0 to 100.", "Write `x.toFixed(2)`.");
  const digits = d.c;
  if (target.c !== undefined) return str(target.c.toFixed(digits));
  if (target.int === undefined) {
    // JavaScript's digits, a function of the number the solver does not know (conversions.ts).
    return convert(ex, toFixedKind(digits), target.t, e, { reason: "`toFixed` of a number that may not be an integer is not modelled here: its rounding of binary fractions has no exact model", instead: "Format integers only (counts, lengths, integral amounts), or compare the number instead of formatting it." });
  }
  // An integer (|n| ≤ 2^53 < 1e21) prints its digits, then "." and `digits` zeros; -0 prints as 0.
  const n = nameTerm(ex, target.int, "Int", "n");
  const tail = digits === 0 ? "" : `.${"0".repeat(digits)}`;
  const body = (t: string): string => (tail === "" ? t : `(str.++ ${t} ${strLit(tail)})`);
  return { k: "str", t: `(ite (>= ${n} 0) ${body(`(str.from_int ${n})`)} (str.++ "-" ${body(`(str.from_int (- ${n}))`)}))` };
}

/** An argument of a string method or `toFixed`: JavaScript converts `undefined` (to "undefined", to 0), which is not modelled here. */
function known(v: Sym, at: TS.Node): Sym {
  notOpaque(v, at);
  noFunctionValue(v, at);
  if (v.k === "maybe" || v.k === "undef") refuse(at, "An argument that may be `undefined` is not modelled here (JavaScript would convert it).", "Pass a defined value.");
  return v;
}

export function callStringMethod(ex: Exec, target: Extract<Sym, { k: "str" }>, name: string, e: TS.CallExpression, st: State): Sym {
  if (name === "slice" || name === "substring") return sliced(ex, target, name, e, st);
  if (name === "charAt") return charAt(ex, target, e, st);
  const args = e.arguments.map((a) => known(evalExpr(ex, a, st), a));
  switch (name) {
    case "toLowerCase": case "toUpperCase": {
      if (args.length !== 0) refuse(e, `\`${name}\` takes no arguments.`, `Call \`${name}()\`.`);
      if (target.c !== undefined) return str(name === "toLowerCase" ? target.c.toLowerCase() : target.c.toUpperCase());
      // Unicode's case mapping, a function of the text the solver does not know (conversions.ts).
      return convert(ex, caseKind(name), target.t, e, { reason: `\`${name}\` of a string the prover does not know is not modelled here: JavaScript maps Unicode case exactly (some characters become two, and Σ depends on its neighbours)`, instead: "Compare with each spelling you accept, or have the trusted tool return normalised text." });
    }
    case "trim": case "trimStart": case "trimEnd":
      if (args.length !== 0) refuse(e, `\`${name}\` takes no arguments.`, `Call \`${name}()\`.`);
      if (target.c !== undefined) return str(name === "trim" ? target.c.trim() : name === "trimStart" ? target.c.trimStart() : target.c.trimEnd());
      if (ex.pureOnly) refuse(e, `\`${name}\` of an unknown string is not modelled here (contract predicates and top-level values).`, "Trim inside `main`, or compare the text as it is.");
      return trimmed(ex, target, name, e);
    case "split": return split(ex, target, args, e);
    case "replace": case "replaceAll": return replaced(ex, target, name, args, e);
    case "padStart": case "padEnd": return padded(target, name, args, e);
  }
  refuse(e, `The method \`${name}\` is not modelled.`, "Use the modelled string methods.");
}

/** `s.split(sep)` by a literal separator: a known string's parts (UTF-16 code units for `""`), an unknown one's in split.ts. */
function split(ex: Exec, s: Extract<Sym, { k: "str" }>, args: readonly Sym[], e: TS.CallExpression): Sym {
  if (args.length > 1) refuse(e, "`split` with a limit is not modelled.", "Call `split(separator)` and use `slice` on the result.");
  if (args.length === 1 && (args[0]!.k !== "str" || args[0]!.c === undefined)) refuse(e.arguments[0]!, "`split` is modelled with a literal string separator.", "Split by a string literal, e.g. `s.split(\",\")`.");
  const sep = args.length === 0 ? undefined : (args[0] as { c: string }).c;
  if (s.c === undefined) return sep === undefined ? { k: "arr", items: [s] } : splitUnknown(ex, s, sep, e);
  const parts = sep === undefined ? [s.c] : s.c.split(sep);
  return { k: "arr", items: parts.map(str) };
}

/**
 * `s.charAt(pos)`: the code unit at ToIntegerOrInfinity(pos) (no argument, `undefined` and NaN are
 * 0), or "" outside the string, which is SMT-LIB's `str.at` exactly.
 */
function charAt(ex: Exec, target: Extract<Sym, { k: "str" }>, e: TS.CallExpression, st: State): Sym {
  if (e.arguments.length > 1) refuse(e, "`charAt` takes one position.", "Call `s.charAt(i)`.");
  const p = e.arguments[0] ? indexArg(ex, e.arguments[0], st, "position") : { i: "0", posInf: "false", negInf: "false", c: 0 };
  if (target.c !== undefined && p.c !== undefined) return str(target.c.charAt(p.c));
  if (p.posInf === "true" || p.negInf === "true") return str("");
  return { k: "str", t: ite(or(p.posInf, p.negInf), strLit(""), `(str.at ${target.t} ${p.i})`) };
}

/**
 * `s.padStart(n, fill)` / `s.padEnd(n, fill)` with a literal length and fill (" " when absent):
 * `s` when it is at least ToLength(n) long or the fill is empty, else the fill repeated and cut to
 * the missing length, before (after) `s`.
 */
function padded(s: Extract<Sym, { k: "str" }>, name: "padStart" | "padEnd", args: readonly Sym[], e: TS.CallExpression): Sym {
  const [n, fill] = args;
  if (n === undefined || args.length > 2 || n.k !== "num" || n.c === undefined) refuse(e, `\`${name}\` is modelled with a literal length.`, `Write \`s.${name}(8, "0")\`.`);
  if (fill !== undefined && (fill.k !== "str" || fill.c === undefined)) refuse(e.arguments[1]!, `\`${name}\` is modelled with a literal fill.`, `Write \`s.${name}(8, "0")\`.`);
  const f = fill === undefined ? " " : (fill as { c: string }).c;
  // ToLength: ToIntegerOrInfinity (NaN is 0), clamped to [0, 2^53 − 1].
  const k = Number.isNaN(n.c) ? 0 : Math.max(0, Math.trunc(n.c));
  if (s.c !== undefined) {
    if (k > PAD_CAP && k > s.c.length && f !== "") refuse(e, `\`${name}\` to more than ${PAD_CAP} code units is not modelled.`, `Pad to at most ${PAD_CAP}.`);
    return str(name === "padStart" ? s.c.padStart(k, f) : s.c.padEnd(k, f));
  }
  if (f === "" || k === 0) return s;
  if (k > PAD_CAP) refuse(e, `\`${name}\` to more than ${PAD_CAP} code units is not modelled.`, `Pad to at most ${PAD_CAP}.`);
  const len = `(str.len ${s.t})`;
  const pad = `(str.substr ${strLit(f.repeat(Math.ceil(k / f.length)).slice(0, k))} 0 (- ${k} ${len}))`;
  return { k: "str", t: ite(`(>= ${len} ${k})`, s.t, name === "padStart" ? `(str.++ ${pad} ${s.t})` : `(str.++ ${s.t} ${pad})`) };
}

/**
 * `s.replace(p, r)` / `s.replaceAll(p, r)` with a literal pattern and a literal replacement, whose
 * `$` patterns are expanded first (`$$` is `$`, `$&` the pattern; `` $` `` and `$'` are refused).
 * Z3's `str.replace` replaces the first occurrence (an empty pattern inserts in front, as
 * JavaScript does); `str.replace_all` replaces left to right without overlaps, as JavaScript does
 * for a non-empty pattern.
 */
function replaced(ex: Exec, s: Extract<Sym, { k: "str" }>, name: string, args: readonly Sym[], e: TS.CallExpression): Sym {
  if (args.length !== 2) refuse(e, `\`${name}\` takes a pattern and a replacement.`, `Call \`${name}(pattern, replacement)\`.`);
  const [p, r] = args as [Sym, Sym];
  if (p.k !== "str" || p.c === undefined) refuse(e.arguments[0]!, `\`${name}\` is modelled with a literal string pattern (a regular expression or unknown pattern is not).`, "Use a string literal as the pattern.");
  if (r.k !== "str") refuse(e.arguments[1]!, `\`${name}\` is modelled with a string replacement (a replacer function is not).`, "Pass a string as the replacement.");
  if (s.c !== undefined && r.c !== undefined) return str(name === "replace" ? s.c.replace(p.c, r.c) : s.c.replaceAll(p.c, r.c));
  if (name === "replaceAll" && p.c === "") refuse(e.arguments[0]!, "`replaceAll` with an empty pattern (which inserts between every code unit) is not modelled on an unknown string.", "Use a non-empty pattern.");
  if (r.c === undefined) return replacedByUnknown(ex, s, name, p.c, r, e);
  const expanded = expandDollars(r.c, p.c, e.arguments[1]!);
  const t = `(${name === "replace" ? "str.replace" : "str.replace_all"} ${s.t} ${strLit(p.c)} ${strLit(expanded)})`;
  if (name === "replaceAll" && redacts(p.c, expanded) && !ex.pureOnly) {
    // Z3 answers `unknown` (incomplete seq theory) as soon as it must unfold `str.replace_all` of
    // an unknown string, even where the pattern plainly cannot survive. State that fact, which
    // holds of every string, so the query has the same models: a redaction leaves no occurrence.
    ex.world.assumptions.push({ term: `(not (str.contains ${t} ${strLit(p.c)}))`, loops: [...ex.loops] });
  }
  return { k: "str", t };
}

/**
 * `s.replace(p, r)` / `s.replaceAll(p, r)` with a literal pattern and a replacement the prover does
 * not know (`template.replace("{name}", c.name)`). Where `r` has no `$`, JavaScript inserts it as it
 * is: Z3's `str.replace`/`str.replace_all`, exact. Where it has one and `p` occurs, JavaScript
 * expands `$$`, `$&`, `` $` `` and `$'` (the text around the match), which is not modelled: the
 * result is any text there. The world then over-approximates (facts.ts `dollarReplacements`), so a
 * model is a counterexample only once the search among short runs shows it again; that search
 * assumes, world-wide, that no replacement it reads has a `$` (an under-approximation: each run it
 * keeps is one JavaScript has, its text exact).
 */
function replacedByUnknown(ex: Exec, s: Extract<Sym, { k: "str" }>, name: string, p: string, r: Extract<Sym, { k: "str" }>, e: TS.CallExpression): Sym {
  if (ex.pureOnly) refuse(e.arguments[1]!, `\`${name}\` with a replacement that is not a literal is not modelled in contract predicates and top-level values (JavaScript expands \`$\` patterns inside it).`, "Use a string literal as the replacement.");
  const plain = `(${name === "replace" ? "str.replace" : "str.replace_all"} ${s.t} ${strLit(p)} ${r.t})`;
  const expands = `(and (str.contains ${r.t} "$") (str.contains ${s.t} ${strLit(p)}))`;
  if (ex.arrayBound !== undefined) {
    ex.world.assumptions.push({ term: not(expands), loops: [...ex.loops] });
    return { k: "str", t: plain };
  }
  ex.world.dollarReplacements++;
  const other = freshValue(ex, "replaced", { kind: "string" }, e);
  if (other.k !== "str") throw new Error("a fresh string is a string");
  return { k: "str", t: ite(expands, other.t, plain) };
}

/**
 * Whether `replaceAll(p, r)` leaves no occurrence of `p` in any string: `r` is not empty and
 * shares no code unit with `p`. The result is `x0 r x1 r … r xk`, where each `xi` (i < k) ends
 * where the first occurrence after the previous match starts and `xk` has none. An occurrence of
 * `p` in the result lies within one `xi` — then it was an earlier occurrence in the input, which
 * the left-to-right scan would have matched — or covers a code unit of an `r` (spanning two
 * pieces covers a whole non-empty `r`), which `p` does not contain. (With `r = ""`, pieces join:
 * `"papasswordssword"` becomes `"password"`.)
 */
export function redacts(p: string, r: string): boolean {
  for (let i = 0; i < r.length; i++) if (p.includes(r[i]!)) return false; // code units, not code points
  return p !== "" && r !== "";
}

/** The replacement JavaScript's GetSubstitution gives for a string pattern (no captures). */
function expandDollars(r: string, pattern: string, at: TS.Node): string {
  let out = "";
  for (let i = 0; i < r.length; i++) {
    const c = r[i]!;
    const next = r[i + 1];
    if (c !== "$" || next === undefined) out += c;
    else if (next === "$") { out += "$"; i++; }
    else if (next === "&") { out += pattern; i++; }
    else if (next === "`" || next === "'") refuse(at, `The replacement pattern \`$${next}\` (the text ${next === "`" ? "before" : "after"} the match) is not modelled on an unknown string.`, "Build the text with slices and a template literal instead.");
    else out += c; // `$1`, `$<name>` and a lone `$` stay as written: a string pattern has no captures.
  }
  return out;
}

/** The methods that look for a text in a string, each with an optional position. */
export const SEARCH_METHODS: ReadonlySet<string> = new Set(["startsWith", "endsWith", "includes", "indexOf"]);
export type SearchMethod = "startsWith" | "endsWith" | "includes" | "indexOf";

/**
 * `s.startsWith(t, pos?)`, `s.endsWith(t, end?)`, `s.includes(t, pos?)` and `s.indexOf(t, pos?)`
 * over code units, with JavaScript's position rules: ToIntegerOrInfinity, then clamped to
 * `[0, s.length]` (an absent or undefined position is 0, or the length for `endsWith`). SMT-LIB's
 * `str.prefixof`, `str.suffixof`, `str.contains` and `str.indexof` on the part of `s` the position
 * leaves; `str.indexof` from a start within `[0, |s|]` is JavaScript's `indexOf` (the start itself
 * for ""), so clamping first makes it exact.
 */
export function callSearch(ex: Exec, target: Extract<Sym, { k: "str" }>, name: SearchMethod, e: TS.CallExpression, st: State): Sym {
  if (e.arguments.length === 0 || e.arguments.length > 2) refuse(e, `\`${name}\` takes a text and an optional position here.`, `Call \`s.${name}(text)\` or \`s.${name}(text, position)\`.`);
  const x = definite(ex, evalExpr(ex, e.arguments[0]!, st), e.arguments[0]!, st);
  if (x.k !== "str") refuse(e.arguments[0]!, `\`${name}\` takes a string here.`, "Pass a string.");
  const pos = e.arguments[1] ? indexArg(ex, e.arguments[1], st, "position", true) : undefined;
  const known = pos === undefined ? undefined : pos.c ?? (pos.posInf === "true" ? Infinity : pos.negInf === "true" ? -Infinity : NaN);
  if (target.c !== undefined && x.c !== undefined && !Number.isNaN(known)) {
    const s = target.c, t = x.c;
    return name === "indexOf" ? num(s.indexOf(t, known)) : bool(name === "startsWith" ? s.startsWith(t, known) : name === "endsWith" ? s.endsWith(t, known) : s.includes(t, known));
  }
  const len = `(str.len ${target.t})`;
  const clamp = (p: IntIndex): string => (p.c !== undefined && p.c <= 0 ? "0" : ite(p.negInf, "0", ite(p.posInf, len, minI(maxI(p.i, "0"), len))));
  if (name === "endsWith") {
    const head = pos === undefined ? target.t : `(str.substr ${target.t} 0 ${clamp(pos)})`;
    return boolT(`(str.suffixof ${x.t} ${head})`);
  }
  const start = pos === undefined ? "0" : clamp(pos);
  if (name === "indexOf") return numFromInt(`(str.indexof ${target.t} ${x.t} ${start})`, STRING_LENGTH_MAG);
  const rest = start === "0" ? target.t : `(str.substr ${target.t} ${start} (- ${len} ${start}))`;
  return boolT(name === "startsWith" ? `(str.prefixof ${x.t} ${rest})` : `(str.contains ${rest} ${x.t})`);
}

/**
 * `s.lastIndexOf(t)` of a literal `t`: a fresh position `k`, -1 where `s` does not hold `t`, else
 * one where `t` stands (`s.substr(k, |t|) = t`) with none in what follows it
 * (`s.substr(k + 1)`). Stated with the terms `slice` makes of the position (`s.slice(k + 1)`,
 * `s.slice(0, k)`), so a guarantee about the parts reads the facts by congruence. A text the
 * prover does not know to search for, and a position, are refused.
 */
export function callLastIndexOf(ex: Exec, target: Extract<Sym, { k: "str" }>, e: TS.CallExpression, st: State): Sym {
  if (e.arguments.length !== 1) refuse(e, "`lastIndexOf` of a string is modelled with one argument (no position).", "Call `s.lastIndexOf(text)`.");
  const x = definite(ex, evalExpr(ex, e.arguments[0]!, st), e.arguments[0]!, st);
  if (x.k !== "str") refuse(e.arguments[0]!, "`lastIndexOf` takes a string here.", "Pass a string.");
  if (target.c !== undefined && x.c !== undefined) return num(target.c.lastIndexOf(x.c));
  if (x.c === undefined) refuse(e.arguments[0]!, "`lastIndexOf` of a text the prover does not know is not modelled.", "Search for a literal text: `s.lastIndexOf(\":\")`.");
  if (x.c === "") return numFromInt(`(str.len ${target.t})`, STRING_LENGTH_MAG);
  if (ex.pureOnly) refuse(e, "`lastIndexOf` of an unknown string is not modelled here (contract predicates and top-level values).", "Search inside `main`.");
  const loops = [...ex.loops];
  const name = ex.world.fresh("lastIndexOf");
  declare(ex, name, "Int", loops.length);
  const k = loops.length === 0 ? name : `(${name} ${loops.join(" ")})`;
  const s = target.t, lit = strLit(x.c), len = `(str.len ${s})`;
  const found = `(str.contains ${s} ${lit})`;
  const at = and(`(>= ${k} 0)`, `(<= (+ ${k} ${x.c.length}) ${len})`, `(= (str.substr ${s} ${k} ${x.c.length}) ${lit})`, not(`(str.contains (str.substr ${s} (+ ${k} 1) (- ${len} (+ ${k} 1))) ${lit})`));
  ex.world.assumptions.push({ term: ite(found, at, `(= ${k} (- 1))`), loops });
  return numFromInt(k, STRING_LENGTH_MAG);
}

/**
 * The literal a concatenation starts with, its length in code units (the model's characters) and
 * the rest: `(L ++ R).slice(0, k)` with |L| ≤ k is `L ++ R.slice(0, k − |L|)`, which keeps the
 * prefix in sight (h52 i09: a title prefixed, then cut to 80 characters; that it starts with the
 * prefix was undecided after 16 million units as a `str.substr` of the whole).
 */
function literalHead(t: string): { readonly lit: string; readonly length: number; readonly rest: string } | undefined {
  if (!t.startsWith("(str.++")) return undefined;
  const parts: SExpr[] = [];
  const flatten = (x: SExpr): void => void (isList(x) && x[0] === "str.++" ? x.slice(1).forEach(flatten) : parts.push(x));
  flatten(parseSExprs(t)[0]!);
  const first = parts[0];
  const value = typeof first === "string" && isStringLiteral(first) ? readLiteral(first) : undefined;
  if (value === undefined || parts.length < 2) return undefined;
  const rest = parts.slice(1).map(printSExpr);
  return { lit: first as string, length: value.length, rest: rest.length === 1 ? rest[0]! : `(str.++ ${rest.join(" ")})` };
}

/**
 * `s.slice(a?, b?)` and `s.substring(a?, b?)` with JavaScript's index rules (ToIntegerOrInfinity;
 * `slice` counts negative indices from the end, `substring` clamps them to 0 and swaps a start past
 * the end), over code units, the model's characters: `str.substr` from the start index, of the
 * length between the two (none when the end comes first).
 */
function sliced(ex: Exec, target: Extract<Sym, { k: "str" }>, name: "slice" | "substring", e: TS.CallExpression, st: State): Sym {
  if (e.arguments.length > 2) refuse(e, `\`${name}\` takes a start and an end.`, `Call \`s.${name}(start, end)\`.`);
  const a = e.arguments[0] ? indexArg(ex, e.arguments[0], st, "start") : undefined;
  // An end that is `undefined` means the string's end (a start that is `undefined` is 0).
  const b = e.arguments[1] ? indexArg(ex, e.arguments[1], st, "end", true) : undefined;
  const literal = (x: IntIndex | undefined): number | undefined => (x === undefined ? undefined : x.c ?? (x.posInf === "true" ? Infinity : x.negInf === "true" ? -Infinity : NaN));
  const la = literal(a), lb = literal(b);
  if (target.c !== undefined && !Number.isNaN(la) && !Number.isNaN(lb)) return str(name === "slice" ? target.c.slice(la, lb) : target.c.substring(la ?? 0, lb));
  // From 0 to a literal end past a literal head: the head stays where the solver sees it.
  if ((la === undefined || la === 0) && lb !== undefined && Number.isInteger(lb) && lb >= 0) {
    const head = literalHead(target.t);
    if (head && head.length <= lb) return sized({ k: "str", t: `(str.++ ${head.lit} (str.substr ${head.rest} 0 ${lb - head.length}))` }, e);
  }
  const len = `(str.len ${target.t})`;
  let from: string, to: string;
  if (name === "slice") {
    from = a ? sliceBound(a, len) : "0";
    to = b ? sliceBound(b, len) : len;
  } else {
    const clamp = (x: IntIndex): string => ite(x.negInf, "0", ite(x.posInf, len, minI(maxI(x.i, "0"), len)));
    const ca = a ? clamp(a) : "0", cb = b ? clamp(b) : len;
    from = minI(ca, cb);
    to = maxI(ca, cb);
  }
  return sized({ k: "str", t: `(str.substr ${target.t} ${from} ${maxI(`(- ${to} ${from})`, "0")})` }, e);
}
