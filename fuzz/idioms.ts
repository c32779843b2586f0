/**
 * Idiomatic TypeScript the prover decides (profile `idioms`, issue 10): `for (const [i, x] of
 * xs.entries())` over literal arrays, bounded tool arrays and arrays of unknown length, the index
 * guarding the effect or written into its text; `for (let i = 0; i < f.length; i++)` (or `i < Math.min(k, f.length)`) over a slice
 * of at most N elements (or the array itself, or a filter of either), `<` or `<=`, reading `f[i]` (undefined past the end);
 * sorted copies (`slice().sort`, `[...xs].sort`, `Array.from(xs).sort`, `xs.filter(…).sort`) of `wholes()` by amount,
 * either way, spent under a budget with `break` (the order decides what is paid), of strings, and
 * of numbers that may be NaN (any order where one is; refused over an array of unknown length); `encodeURIComponent` of computed strings (inputs may hold a
 * lone surrogate: a URIError), alone, after a prefix, compared with a text, inside `try`, in a loop;
 * `reduce` without an initial value over `wholes()` or a filter of it (the least, the largest, the
 * second), guarded by the length or not (an empty array throws); round robin `xs[i % xs.length]`
 * over an array of unknown length or a slice, its zero ruled out by an early exit, a guard around
 * the loop, an `&&` or (refused) not at all, the index a literal-bound counter or an element's.
 */
import type { Effect, IdiomsStmt, StrExpr } from "./ir";

export const IDIOMS_OPS = ["entries", "forLength", "sortCopy", "encode", "reduceFirst", "roundRobin"] as const;

/** Texts `encodeURIComponent` maps to themselves, escapes, or throws on (a lone surrogate). */
const URI_TEXTS = ["a", "a b", "a%20b", "%C3%A9", "%c3%a9", "é", "\ud83d", "\ud83d\ude00", "a/b?c=d&e", "-_.!~*'()", ""];

/** What the printer lends the idioms statement. */
export interface IdiomsPrinter {
  fresh(prefix: string): string;
  line(text: string): void;
  str(v: string): string;
  expr(e: StrExpr | IdiomsStmt["src"]): string;
  effect(e: Effect): string;
  /** The effect with a string in its key place. */
  use(e: Effect, v: string): string;
  /** Import a tool imported only on demand (`invoices`). */
  need(tool: string): void;
}

const INDEX_TESTS = ["<", "===", ">=", "!=="] as const;

export function printIdioms(p: IdiomsPrinter, s: IdiomsStmt): void {
  const y = p.fresh("y");
  const k = Math.max(0, s.cmp);
  switch (s.op) {
    case "entries": {
      const i = p.fresh("i");
      const base = s.pick % 3 === 0 ? `[${[...s.lits.map((l) => p.str(l)), p.expr(s.x)].join(", ")}]` : p.expr(s.src);
      // (Session 45, pick % 7 >= 5) A filter's kept elements, numbered from 0: a literal's test, or a
      // dedupe through the callback's array parameter.
      const src = s.pick % 7 === 5 ? `${base}.filter((v) => v !== ${p.str(s.lits[0] ?? "z")})` : s.pick % 7 === 6 ? `${base}.filter((v, j, all) => all.indexOf(v) === j)` : base;
      const test = `${i} ${INDEX_TESTS[s.pick % INDEX_TESTS.length]} ${k}`;
      // The element, or the element with its index in the text (the digits of an integer).
      const v = s.pick % 2 === 0 ? y : `\`\${${y}}-\${${i}}\``;
      if (s.pick % 5 === 4) {
        const pair = p.fresh("p");
        p.line(`for (const ${pair} of ${src}.entries()) if (${pair}[0] ${INDEX_TESTS[s.pick % INDEX_TESTS.length]} ${k}) ${p.use(s.e, `${pair}[1]`)};`);
        return;
      }
      p.line(`for (const [${i}, ${y}] of ${src}.entries()) if (${test}) ${p.use(s.e, v)};`);
      return;
    }
    case "forLength": {
      const f = p.fresh("f");
      const i = p.fresh("i");
      const src = s.pick % 4 === 0 ? `[${[...s.lits.map((l) => p.str(l)), p.expr(s.x)].join(", ")}]` : p.expr(s.src);
      const slice = [`.slice(0, ${k})`, `.slice(-${k})`, `.slice(1, ${k + 1})`, ""][s.pick % 4]!;
      // (Session 42) Sometimes a filter of it: bounded by its base, or kept elements over a ghost count.
      const kept = s.pick % 11 >= 8 ? `.filter((v) => v !== ${p.str(s.lits[0] ?? "z")})` : "";
      p.line(`const ${f} = ${src}${slice}${kept};`);
      const le = s.pick % 7 === 6 ? "<=" : "<";
      // Sometimes the bound is `Math.min` of a literal and the length (either order).
      let bound = s.pick % 6 === 1 ? `Math.min(${k}, ${f}.length)` : s.pick % 6 === 4 ? `Math.min(${f}.length, ${k + 1})` : `${f}.length`;
      // Sometimes (session 36) that bound is a `const` declared before the loop.
      if (s.pick % 6 !== 0 && s.pick % 6 !== 2 && s.pick % 6 !== 3 && s.pick % 6 !== 5 && s.pick % 9 >= 5) {
        const n = p.fresh("n");
        p.line(`const ${n} = ${bound};`);
        bound = n;
      }
      // (Session 42) Sometimes an integer of known magnitude: a remainder of the length.
      if (s.pick % 13 === 12) {
        const n = p.fresh("n");
        p.line(`const ${n} = ${f}.length % ${k + 2};`);
        bound = n;
      }
      // (pick % 6 == 2: a second counter test in a later conjunct, `i < f.length && i < k`.)
      let second = s.pick % 6 === 2 ? ` && ${i} ${s.pick % 4 === 2 ? "<=" : "<"} ${k}` : "";
      // (Session 43) Or a count the body keeps, `i < f.length && sent < k` (loops.ts lowers it to a `break`).
      const sent = p.fresh("sent");
      const counted = s.pick % 6 === 5 && s.pick % 5 !== 3;
      if (counted) {
        p.line(`let ${sent} = 0;`);
        second = ` && ${sent} ${s.pick % 4 === 1 ? "<=" : "<"} ${k}`;
      }
      p.line(`for (let ${i} = 0; ${i} ${le} ${bound}${second}; ${i}${s.pick % 5 === 3 ? " += 2" : "++"}) {`);
      p.line(`  const ${y} = ${f}[${i}];`);
      p.line(`  ${s.pick % 2 === 0 ? `${p.use(s.e, `(${y} ?? ${p.str(s.lits[0] ?? "z")})`)};` : `if (${y} !== undefined) ${p.use(s.e, `\`\${${y}}\${${i}}\``)};`}`);
      if (counted) p.line(`  ${s.pick % 3 === 0 ? `if (${y} !== ${p.str(s.lits[0] ?? "z")}) ` : ""}${sent}++;`);
      p.line("}");
      return;
    }
    case "sortCopy": {
      // A copy no name holds, or (session 35) the new array `filter` returns, keeping all but one value.
      // (Session 45, cmp 4) Or a tool's result itself, sorted where it is returned (the runtime copies each result).
      const copy = (xs: string, drop = "v !== v"): string => (s.cmp === 4 && xs.endsWith("()") ? xs : [`${xs}.slice()`, `[...${xs}]`, `Array.from(${xs})`, `${xs}.filter((v) => !(${drop}))`][s.pick % 4]!);
      const sorted = p.fresh("s");
      if (s.pick % 4 === 3) {
        // Strings: the default order, or the comparison either way; the first one used.
        const src = s.pick % 8 === 3 ? `[${[...s.lits.map((l) => p.str(l)), p.expr(s.x)].join(", ")}]` : p.expr(s.src);
        // (Session 45) Or a comparator that never returns 0 (an order where the strings differ, V8's own where they tie).
        const cmp = ["", "(a, b) => (a < b ? -1 : a > b ? 1 : 0)", "(a, b) => (a < b ? 1 : a > b ? -1 : 0)", "(a, b) => (a < b ? -1 : 1)", "(a, b) => (a > b ? -1 : 1)", "(a, b) => (b <= a ? 1 : -1)"][(s.pick + s.cmp + 1) % 6]!;
        p.line(`const ${sorted} = ${copy(src, `v === ${p.str(s.lits[0] ?? "")}`)}.sort(${cmp});`);
        p.line(`const ${y} = ${sorted}[${k % 3}];`);
        p.line(`if (${y} !== undefined) ${p.use(s.e, y)};`);
        return;
      }
      if (s.pick % 10 === 7) {
        // (Session 37) Arrays of unknown length: the same elements in some order, each run's short
        // arrays sorted exactly; a copy, or (cmp odd) sorted in place as the new array `filter` made.
        const sortedBy = s.pick % 20 === 7 ? "" : ["(a, b) => (a < b ? -1 : a > b ? 1 : 0)", "(a, b) => (a < b ? 1 : a > b ? -1 : 0)"][s.cmp % 2]!;
        if (s.pick % 3 === 0) {
          p.line(`const ${sorted} = ${copy("names()", `v === ${p.str(s.lits[0] ?? "")}`)}.sort(${sortedBy});`);
          p.line(`const ${y} = ${sorted}[${k % 3}];`);
          p.line(`if (${y} !== undefined) ${p.use(s.e, y)};`);
          p.line(`if (${sorted}.length > ${k % 4} && ${sorted}[0] === ${p.str(s.lits[0] ?? "")}) ${p.effect(s.e)};`);
          return;
        }
        const cmp = s.cmp % 2 === 0 ? "(a, b) => a.amount - b.amount" : "(a, b) => b.amount - a.amount";
        const limit = [1, 500, 999, 1000][s.pick % 4]!;
        p.need("invoices");
        if (s.cmp % 4 === 1 || s.cmp % 4 === 3) {
          const c = p.fresh("c");
          p.line(`const ${c} = invoices().filter((v) => v.amount !== ${[1, 500, 1000][s.pick % 3]});`);
          if (s.cmp % 4 === 1) {
            p.line(`const ${y} = ${c}.sort(${cmp})[${k % 2}];`);
          } else {
            p.line(`${c}.sort(${cmp});`);
            p.line(`const ${y} = ${c}[${k % 2}];`);
          }
          p.line(`if (${y} !== undefined && ${y}.amount >= ${limit}) ${s.e.tool === "pay" ? `pay(${y}.to, ${y}.amount)` : p.effect(s.e)};`);
          p.line(`for (const w of ${c}.slice(0, ${(k % 3) + 1})) measure(w.amount);`);
          return;
        }
        p.line(`const ${sorted} = ${copy("invoices()", `v.amount === ${[1, 500, 1000][s.pick % 3]}`)}.sort(${cmp});`);
        p.line(`const ${y} = ${sorted}[0];`);
        p.line(`if (${y} !== undefined && ${y}.amount ${s.pick % 2 === 0 ? ">" : "<"} ${limit}) ${p.effect(s.e)};`);
        p.line(`if (${sorted}.length > 1 && ${sorted}[1]!.amount ${s.cmp % 2 === 0 ? "<" : ">"} ${y}!.amount) ${p.effect(s.e)};`);
        return;
      }
      if (s.pick % 10 === 9) {
        // Numbers that may be NaN: some permutation where one is; over an array of unknown length, refused.
        p.line(`const ${sorted} = ${copy(s.cmp % 2 === 0 ? "amounts()" : `amounts().slice(0, ${(k % 4) + 1})`)}.sort((a, b) => a - b);`);
        p.line(`for (const ${y} of ${sorted}) if (${y} > ${k}) ${p.effect(s.e)};`);
        // The first one: the order decides it (where a number is NaN, V8's own order).
        p.line(`const ${y}0 = ${sorted}[0];`);
        p.line(`if (${y}0 !== undefined && (${y}0 < ${k} || Number.isNaN(${y}0))) ${p.effect(s.e)};`);
        return;
      }
      const ws = p.fresh("ws");
      const t = p.fresh("t");
      const limit = [0, 1, 500, 999, 1000, 1500][s.pick % 6]!;
      // (pick % 5 == 4: ties broken with `||`; the fuzz rows have one integer field, so the second level only ever sees ties.)
      // (Session 45, pick % 7 == 6) Or a comparator that never returns 0, which ties make inconsistent.
      const cmp = s.pick % 7 === 6 ? (s.pick % 2 === 0 ? "(a, b) => (a.amount < b.amount ? -1 : 1)" : "(a, b) => (a.amount >= b.amount ? -1 : 1)") : (s.pick % 2 === 0 ? "(a, b) => a.amount - b.amount" : "(a, b) => b.amount - a.amount") + (s.pick % 5 === 4 ? ` || ${s.pick % 3 === 0 ? "a.amount - b.amount" : "b.amount - a.amount"}` : "");
      p.line(`const ${ws} = wholes();`);
      p.line(`const ${sorted} = ${copy(ws, `v.amount === ${[1, 500, 1000][s.pick % 3]}`)}.sort(${cmp});`);
      p.line(`let ${t} = 0;`);
      p.line(`for (const ${y} of ${sorted}) {`);
      p.line(`  if (${t} + ${y}.amount > ${limit}) break;`);
      p.line(`  ${s.e.tool === "pay" ? `pay(${y}.to, ${y}.amount);` : `measure(${y}.amount);`} ${t} += ${y}.amount;`);
      p.line("}");
      p.line(`if (${t} === 0 && ${ws}.some((w) => w.amount <= ${limit})) ${p.effect(s.e)};`);
      return;
    }
    case "reduceFirst": {
      // `reduce` without an initial value over `wholes()` (at most 4): the first element present is
      // the accumulator; an empty array throws (unguarded when pick % 3 == 2).
      const ws = p.fresh("ws");
      const best = p.fresh("best");
      const src = s.pick % 2 === 0 ? "wholes()" : `wholes().filter((w) => w.amount > ${[1, 500, 999][s.pick % 3]})`;
      const pickOne = ["(a, w) => (w.amount < a.amount ? w : a)", "(a, w) => (w.amount > a.amount ? w : a)", "(a, w, i) => (i === 1 ? w : a)"][((s.cmp % 3) + 3) % 3]!;
      const guarded = s.pick % 3 !== 2;
      p.line(`const ${ws} = ${src};`);
      if (guarded) p.line(`if (${ws}.length > 0) {`);
      p.line(`const ${best} = ${ws}.reduce(${pickOne});`);
      p.line(`${s.e.tool === "pay" ? `pay(${best}.to, ${best}.amount);` : `measure(${best}.amount);`}`);
      p.line(`if (${ws}.some((w) => w.amount < ${best}.amount)) ${p.effect(s.e)};`);
      if (guarded) p.line("}");
      return;
    }
    case "roundRobin": {
      // `xs[i % xs.length]`: the divisor's zero ruled out by a `return`-like exit, an `if` around
      // the loop, a test in the same condition, or not at all (refused: `x % 0` is NaN).
      const xs = p.fresh("rr");
      const i = p.fresh("i");
      p.line(`const ${xs} = ${p.expr(s.src)}${s.pick % 5 === 4 ? `.slice(0, ${(k % 3) + 1})` : ""};`);
      const guard = s.pick % 4;
      const read = `${xs}[${i} % ${xs}.length]`;
      const body = s.cmp % 2 === 0
        ? `const ${y} = ${read}; if (${y} !== undefined && ${y} ${s.pick % 3 === 0 ? "!==" : "==="} ${p.str(s.lits[0] ?? "a")}) ${p.use(s.e, `\`\${${y}}\${${i}}\``)};`
        : `if (${i} % ${xs}.length === ${k % 3}) ${p.use(s.e, `(${read} ?? "z")`)};`;
      const loop = s.pick % 3 === 1 ? `for (const [${i}] of ${p.expr(s.x)}.split(",").entries())` : `for (let ${i} = 0; ${i} < ${(k % 4) + 1}; ${i}++)`;
      if (guard === 0) {
        p.line(`if (${xs}.length > 0) {`);
        p.line(`  ${loop} { ${body} }`);
        p.line("}");
      } else if (guard === 1) {
        p.line(`${loop} { if (${xs}.length === 0) break; ${body} }`);
      } else if (guard === 2) {
        p.line(`${loop} { if (${xs}.length !== 0 && ${i} % ${xs}.length === 0) ${p.effect(s.e)}; }`);
      } else {
        p.line(`${loop} { ${body} }`);
      }
      return;
    }
    case "encode": {
      const lit = p.str(URI_TEXTS[s.pick % URI_TEXTS.length]!);
      const enc = (v: string): string => `encodeURIComponent(${v})`;
      const x = s.pick % 5 === 4 ? lit : p.expr(s.x);
      const use = [
        () => p.use(s.e, enc(x)),
        () => p.use(s.e, `("u/" + ${enc(x)})`),
        () => `if (${enc(x)} === ${p.str(URI_TEXTS[(s.pick + k) % URI_TEXTS.length]!)}) ${p.effect(s.e)}`,
      ][s.pick % 3]!;
      if (s.pick % 7 === 5) {
        p.line(`for (const ${y} of ${p.expr(s.src)}) ${p.use(s.e, enc(y))};`);
        return;
      }
      if (s.pick % 2 === 0) {
        // The text is read before the \`try\`, whose block calls no tool (the oracle's tools never fail).
        const u = p.fresh("u");
        p.line(`const ${u}: string = ${x};`);
        p.line(`try { if (${enc(u)} === ${p.str(URI_TEXTS[(s.pick + k) % URI_TEXTS.length]!)}) throw new Error("hit"); } catch { ${p.effect(s.e)}; }`);
        return;
      }
      p.line(`${use()};`);
      return;
    }
  }
}
