/**
 * `JSON.stringify(value)` of values the prover models (issue 10): known strings escaped by
 * JavaScript itself, numbers with their exact digits (integers by their Int term, -0 as "0",
 * NaN and ±Infinity as "null"), booleans, literal arrays and arrays of bounded length (`undefined`
 * as "null"), objects the program built from literals in their own-key order (`undefined`
 * properties left out). A string the prover does not know and a number that may not be an
 * integer are checked against JavaScript (core/prover/conversions.ts). Refused on the node:
 * objects from tools (hidden properties, `toJSON`), a replacer or an
 * indentation argument, Sets and Maps.
 */
import type * as TS from "typescript";
import { JSON_STRING_KIND } from "../conversions";
import { decodeString, parseSExprs, printSExpr, type SExpr } from "../sexpr";
import { ite, or, strLit } from "../smt";
import { str, UNDEF, type Sym } from "../values";
import { refuse, sized, type Exec } from "./context";
import { evalExpr } from "./expressions";
import { ownKeys } from "./objects";
import { numberText, toStr } from "./operators";
import { convert } from "./conversions";
import type { State } from "./state";

type Str = Extract<Sym, { k: "str" }>;

export function callJson(ex: Exec, name: string, e: TS.CallExpression, st: State): Sym {
  if (name !== "stringify") refuse(e, `\`JSON.${name}\` is not modelled.`, "Build values directly; `JSON.stringify(value)` of modelled values is modelled.");
  if (e.arguments.length !== 1) refuse(e, "`JSON.stringify` with a replacer or an indentation is not modelled.", "Call `JSON.stringify(value)` with one argument.");
  const at = e.arguments[0]!;
  const v = evalExpr(ex, at, st);
  // The top-level value: `undefined` gives `undefined` (not a string).
  if (v.k === "undef") return UNDEF;
  if (v.k === "maybe") {
    const inner = text(ex, v.v, at);
    return v.def === "true" ? inner : { k: "maybe", def: v.def, v: inner };
  }
  return sized(text(ex, v, at), e);
}

const lit = (s: string): Str => str(s) as Str;

function cat(...parts: Str[]): Str {
  const kept = parts.filter((p) => p.c !== "");
  if (kept.every((p) => p.c !== undefined)) return lit(kept.map((p) => p.c).join(""));
  if (kept.length === 1) return kept[0]!;
  return { k: "str", t: `(str.++ ${kept.map((p) => p.t).join(" ")})` };
}

/** `c ? a : b` over two texts. */
function choose(c: string, a: Str, b: Str): Str {
  if (c === "true") return a;
  if (c === "false") return b;
  if (a.c !== undefined && a.c === b.c) return a;
  return { k: "str", t: ite(c, a.t, b.t) };
}

/** The JSON text of a defined value (never undefined: callers handle that where it may be). */
function text(ex: Exec, v: Sym, at: TS.Node): Str {
  switch (v.k) {
    case "str":
      if (v.c !== undefined) return lit(JSON.stringify(v.c));
      {
        // A choice among known strings (`c ? "a" : "b"`, an element of an array built by pushes): each escaped.
        const chosen = choiceOfLiterals(parseSExprs(v.t)[0]);
        if (chosen !== undefined) return { k: "str", t: chosen };
      }
      // `"` + s + `"` when nothing in s is escaped; otherwise JavaScript's escaping (conversions.ts).
      return convert(ex, JSON_STRING_KIND, v.t, at, { reason: "`JSON.stringify` of a string the prover does not know is not modelled here: JSON escapes quotes, backslashes, control characters and lone surrogates", instead: "Send the fields themselves, or build the text with a template literal (`${to}: ${n}`)." }) as Str;
    case "num": {
      if (v.c !== undefined) return lit(JSON.stringify(v.c));
      if (v.int === undefined) {
        // A finite number is written as `String` writes it; NaN and ±Infinity as null.
        const digits = numberText(ex, v.t, at) as Str;
        return { k: "str", t: ite(`(or (fp.isNaN ${v.t}) (fp.isInfinite ${v.t}))`, strLit("null"), digits.t) };
      }
      return toStr(ex, v, at) as Str;
    }
    case "bool": return v.c !== undefined ? lit(String(v.c)) : { k: "str", t: ite(v.t, strLit("true"), strLit("false")) };
    case "arr": {
      const parts: Str[] = [lit("[")];
      v.items.forEach((item, i) => {
        if (i > 0) parts.push(lit(","));
        parts.push(element(ex, item, at));
      });
      parts.push(lit("]"));
      return cat(...parts);
    }
    case "sarr": {
      if (v.bound === undefined) refuse(at, "`JSON.stringify` of an array of unknown length is not modelled.", "Stringify a literal array, an array the program built, or one whose length a tool's `ensures` bounds.");
      const parts: Str[] = [lit("[")];
      for (let j = 0; j < v.bound; j++) {
        const el = element(ex, v.at(String(j)), at);
        parts.push(choose(`(< ${j} ${v.len})`, j === 0 ? el : cat(lit(","), el), lit("")));
      }
      parts.push(lit("]"));
      return cat(...parts);
    }
    case "rec": {
      if (!v.literal) refuse(at, "`JSON.stringify` of an object the program did not build from a literal is not modelled (a tool's object may have other properties, another key order, getters or `toJSON`).", "Build the object with a literal: `JSON.stringify({ to: r.to, amount: r.amount })`.");
      const parts: Str[] = [lit("{")];
      const before: string[] = [];
      for (const key of ownKeys(v.fields)) {
        if (key === "toJSON") refuse(at, "An object with a `toJSON` property is not modelled (`JSON.stringify` would call it).", "Leave `toJSON` out of the object.");
        const f = v.fields.get(key)!;
        if (f.k === "undef") continue;
        const present = f.k === "maybe" ? f.def : "true";
        const body = text(ex, f.k === "maybe" ? f.v : f, at);
        const comma = or(...before);
        const entry = cat(choose(comma, lit(","), lit("")), lit(`${JSON.stringify(key)}:`), body);
        parts.push(choose(present, entry, lit("")));
        before.push(present);
      }
      parts.push(lit("}"));
      return cat(...parts);
    }
    case "undef": case "maybe": throw new Error("undefined is handled by the caller");
    case "fn": refuse(at, "Functions are not modelled in `JSON.stringify` (JSON leaves them out of objects, writes null in arrays, and a `toJSON` method would be called).", "Stringify plain data.");
    case "coll": refuse(at, "`JSON.stringify` of a Set or Map is not modelled (it writes `{}`, which is rarely meant).", "Stringify `[...s]` or an object built from the entries.");
    default: refuse(at, "`JSON.stringify` of this value is not modelled.", "Stringify strings, numbers, booleans, arrays and objects the program built from literals.");
  }
}

/**
 * The JSON text of a string term that is an `ite` tree whose leaves are string literals (each leaf
 * escaped by JavaScript itself), or undefined for any other term.
 */
function choiceOfLiterals(e: SExpr | undefined): string | undefined {
  if (typeof e === "string") {
    if (!e.startsWith('"')) return undefined;
    const s = decodeString(e);
    // Only a literal that reads back exactly (our own encoding) is trusted.
    return strLit(s) === e ? strLit(JSON.stringify(s)) : undefined;
  }
  if (!e || e.length !== 4 || e[0] !== "ite") return undefined;
  const a = choiceOfLiterals(e[2]), b = choiceOfLiterals(e[3]);
  return a === undefined || b === undefined ? undefined : `(ite ${printSExpr(e[1]!)} ${a} ${b})`;
}

/** An array element: `undefined` is written as null. */
function element(ex: Exec, v: Sym, at: TS.Node): Str {
  if (v.k === "undef") return lit("null");
  if (v.k === "maybe") return choose(v.def, text(ex, v.v, at), lit("null"));
  return text(ex, v, at);
}
