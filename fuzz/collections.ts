import type { CollectionsStmt, Effect, NumExpr, StrExpr } from "./ir";

/**
 * Sets, Maps, `JSON.stringify` and in-place array changes in the differential tester (profile
 * `collections`, core/prover/exec/collections.ts, json.ts, inplace.ts): de-duplication over
 * literal arrays (and over arrays of unknown length: with `has`/`add`, the size read in the loop
 * (a Set's, an array's length); `new Set(xs)` iterated, spread or tested with `has`), sizes, SameValueZero corners (NaN,
 * -0), counting Maps, `get` that may be undefined, JSON of literals with escapes and number
 * corners, `sort` with the modelled comparators (and refused ones), `splice`, `reverse`, index
 * assignment (in range and past the end); grouping into a Map of arrays (map-arrays.ts) three
 * ways, with and without a reference to a stored array taken before a later push; a Map a loop
 * over an array of unknown length builds (collected-maps.ts: keys exact, values any of their type,
 * violations confirmed among short runs) used as a set, as counts read in the body, as totals by a
 * key read after the loop, with a size budget, and sorted by value.
 */
export const COLLECTIONS_OPS = ["dedupe", "size", "nums", "count", "get", "unknown", "json", "sortStr", "sortNum", "splice", "reverse", "index", "group", "mapUnknown"] as const;

/** Texts JSON escapes: quotes, backslashes, controls, a lone surrogate, a pair. */
export const JSON_TEXTS = ["a", "", "\"", "\\", "\n", "\u0001", "\ud800", "\ud83d\ude00", "é", "</"];
/** Numbers at JSON's corners. */
export const JSON_NUMBERS = [0, -0, NaN, Infinity, -Infinity, 0.1, 1e21, 1e-7, -5, 2 ** 53];

/** What the printer lends the collections statement. */
export interface CollectionsPrinter {
  fresh(prefix: string): string;
  line(text: string): void;
  str(v: string): string;
  num(v: number): string;
  expr(e: StrExpr | NumExpr | CollectionsStmt["src"]): string;
  effect(e: Effect): string;
  /** The effect with a string in its key place. */
  use(e: Effect, v: string): string;
  /** The effect with a number in its amount place. */
  useNum(e: Effect, v: string): string;
}

export function printCollections(p: CollectionsPrinter, s: CollectionsStmt): void {
  const y = p.fresh("y");
  const lits = s.lits.map((l) => p.str(l));
  const x = p.expr(s.x);
  const list = `[${[...lits, x].join(", ")}]`;
  const k = Math.max(0, s.cmp);
  switch (s.op) {
    case "dedupe": case "unknown": {
      if (s.op === "unknown" && s.cmp % 3 === 0) {
        // A Set built from the array (exec/unique.ts): iterated, or spread back into an array.
        const from = `new Set<string>(${p.expr(s.src)})`;
        if (s.pick % 2 === 1) {
          // Its `has` (exec/unique.ts `setHas`): a key some element is, tested against `x` and against every element of a second array.
          const set = p.fresh("set");
          p.line(`const ${set} = ${from};`);
          // With `delete` (exec/unique.ts `setDelete`): `x` taken out first, its result guarding the effect.
          if (s.pick % 8 === 3) p.line(`if (${set}.delete(${x})) ${p.effect(s.e)};`);
          p.line(`if (${set}.has(${x})) ${p.use(s.e, x)};`);
          p.line(`for (const ${y} of ${p.expr(s.src)}) if (${s.pick % 4 === 1 ? "!" : ""}${set}.has(${y})) ${p.use(s.e, y)};`);
          if (s.pick % 8 === 7) {
            p.line(`${set}.delete(${x});`);
            p.line(`for (const ${y} of ${set}) ${p.use(s.e, y)};`);
          }
          return;
        }
        p.line(`for (const ${y} of ${s.cmp === 0 ? from : `[...${from}]`}) ${p.use(s.e, y)};`);
        return;
      }
      const seen = p.fresh("seen");
      const over = s.op === "dedupe" ? `[${[...lits, x, ...lits].join(", ")}]` : p.expr(s.src);
      if (s.op === "unknown" && s.pick % 4 !== 0) {
        // The size read in the loop that collects (exec/collected.ts, a ghost counter): before the
        // `has`, after an `add` with no `has` (a key added again does not grow it), or an array's length.
        const cap = s.cmp % 3;
        const array = s.pick % 4 === 3;
        p.line(array ? `const ${seen}: string[] = [];` : `const ${seen} = new Set<string>();`);
        if (s.pick % 4 === 1) p.line(`for (const ${y} of ${over}) { if (${seen}.size >= ${cap}) break; if (${seen}.has(${y})) continue; ${p.use(s.e, y)}; ${seen}.add(${y}); }`);
        else if (s.pick % 4 === 2) p.line(`for (const ${y} of ${over}) { ${seen}.add(${y}); if (${seen}.size > ${cap}) break; ${p.use(s.e, y)}; }`);
        else p.line(`for (const ${y} of ${over}) { if (${seen}.length < ${cap} && !${seen}.includes(${y})) { ${seen}.push(${y}); ${p.use(s.e, y)}; } }`);
        p.line(`if (${array ? `${seen}.length` : `${seen}.size`} === ${s.cmp}) ${p.effect(s.e)};`);
        return;
      }
      p.line(`const ${seen} = new Set<string>();`);
      p.line(`for (const ${y} of ${over}) if (!${seen}.has(${y})) { ${seen}.add(${y}); ${p.use(s.e, y)}; }`);
      if (s.cmp > 1) p.line(`if (${seen}.size === ${s.cmp}) ${p.effect(s.e)};`);
      return;
    }
    case "size": {
      const set = p.fresh("set");
      p.line(`const ${set} = new Set<string>(${s.cmp % 2 === 0 ? "" : `[${lits.join(", ")}]`});`);
      for (const l of lits) p.line(`${set}.add(${l});`);
      p.line(`${set}.add(${x});`);
      if (s.cmp > 2) p.line(`if (${set}.delete(${lits[0]})) ${p.effect(s.e)};`);
      p.line(`if (${set}.size === ${k}) ${p.effect(s.e)};`);
      p.line(`for (const ${y} of ${set}) ${p.use(s.e, y)};`);
      return;
    }
    case "nums": {
      const set = p.fresh("set");
      if (s.pick % 2 === 1) {
        // A Set built from a number array the prover reads element by element only (exec/unique.ts):
        // what it holds is each value as a key, -0 as +0 (adv35).
        p.line(`const ${set} = new Set<number>(${s.pick % 4 === 1 ? "amounts()" : "amounts().filter((v) => v === 0)"});`);
        p.line(`for (const ${y} of ${set}) if (1 / ${y} < 0) ${p.effect(s.e)};`);
        p.line(`for (const ${y} of [...${set}]) if (${y} === 0) ${p.useNum(s.e, `1 / ${y} > 0 ? 1 : 2`)};`);
        // `has` with SameValueZero: NaN is found, -0 and +0 are one key.
        p.line(`if (${set}.has(NaN) || ${set}.has(-0)) ${p.effect(s.e)};`);
        return;
      }
      p.line(`const ${set} = new Set<number>([${s.nums.map((n) => p.num(n)).join(", ")}]);`);
      p.line(`${set}.add(${p.expr(s.xn)});`);
      p.line(`if (${set}.has(${p.num(s.nums[0]!)}) && ${set}.size === ${k}) ${p.effect(s.e)};`);
      p.line(`if (${set}.has(NaN) || ${set}.has(-0)) ${p.effect(s.e)};`);
      p.line(`for (const ${y} of ${set}) if (1 / ${y} < 0 || ${y} !== ${y}) ${p.effect(s.e)};`);
      return;
    }
    case "count": {
      const mm = p.fresh("mm");
      const old = p.fresh("old");
      const v = p.fresh("v");
      p.line(`const ${mm} = new Map<string, number>();`);
      p.line(`for (const ${y} of ${list}) { const ${old} = ${mm}.get(${y}); ${mm}.set(${y}, (${old} ?? 0) + 1); }`);
      // The Map itself, its entries() (session 35), or a spread copy of them.
      const source = [mm, `${mm}.entries()`, `[...${mm}.entries()]`][s.pick % 3]!;
      p.line(`for (const [${y}, ${v}] of ${source}) if (${v} >= ${k}) ${p.use(s.e, y)};`);
      if (s.pick % 4 === 3) p.line(`for (const ${y} of [...${mm}.keys()]) if (${mm}.get(${y}) === ${k}) ${p.use(s.e, y)};`);
      return;
    }
    case "group": {
      // Elements grouped by their first character: `has`/`set`/`get!.push`, `get?.push` after a
      // `set` of a new array, or `get ?? []` / push / `set`; then the groups' sizes and texts.
      const mm = p.fresh("mm");
      const g = p.fresh("g");
      const ids = p.fresh("ids");
      p.line(`const ${mm} = new Map<string, string[]>();`);
      const keyOf = p.fresh("key");
      const how = s.pick % 3;
      if (how === 0) p.line(`for (const ${y} of ${list}) { const ${keyOf} = ${y}.slice(0, 1); if (!${mm}.has(${keyOf})) ${mm}.set(${keyOf}, []); ${mm}.get(${keyOf})!.push(${y}); }`);
      else if (how === 1) p.line(`for (const ${y} of ${list}) { const ${keyOf} = ${y}.slice(0, 1); if (${y} === ${lits[0] ?? '""'}) ${mm}.set(${keyOf}, [${y}]); else ${mm}.get(${keyOf})?.push(${y}); }`);
      else {
        p.line(`for (const ${y} of ${list}) {`);
        p.line(`  const ${keyOf} = ${y}.slice(0, 1);`);
        p.line(`  const ${g} = ${mm}.get(${keyOf}) ?? [];`);
        p.line(`  ${g}.push(${y});`);
        p.line(`  ${mm}.set(${keyOf}, ${g});`);
        p.line("}");
      }
      if (s.pick % 5 === 4) {
        // A reference kept before a later push: refused (the model copies values).
        const snap = p.fresh("snap");
        const k1 = p.fresh("key");
        p.line(`const ${snap} = ${mm}.get(${lits[0] ?? '""'}) ?? [];`);
        p.line(`const ${k1} = ${x}.slice(0, 1);`);
        p.line(`${mm}.get(${k1})?.push(${x});`);
        p.line(`if (${snap}.length > ${k}) ${p.effect(s.e)};`);
      }
      p.line(`for (const [${y}, ${ids}] of ${mm}) if (${ids}.length > ${k % 3}) ${p.use(s.e, `(${y} + ${ids}.join("|"))`)};`);
      return;
    }
    case "mapUnknown": {
      // A Map over an array of unknown length (exec/collected-maps.ts).
      const mm = p.fresh("mm");
      const v = p.fresh("v");
      const src = p.expr(s.src);
      const cap = s.cmp % 3;
      const grouped = s.pick % 8 >= 6;
      p.line(`const ${mm} = new Map<string, ${grouped ? "string[]" : "number"}>();`);
      if (grouped) {
        // Grouping (values not tracked: only what is pushed is evaluated).
        const key = p.fresh("key");
        const g = p.fresh("g");
        if (s.pick % 8 === 6) p.line(`for (const ${y} of ${src}) { const ${key} = ${y}.slice(0, 1); const ${g} = ${mm}.get(${key}) ?? []; ${g}.push(${y}); ${mm}.set(${key}, ${g}); }`);
        else p.line(`for (const ${y} of ${src}) { const ${key} = ${y}.slice(0, 1); if (!${mm}.has(${key})) ${mm}.set(${key}, []); ${mm}.get(${key})!.push(${y}); }`);
        p.line(`for (const [${y}, ${v}] of ${mm}) if (${v}.length > ${cap}) ${p.use(s.e, `(${y} + ${v}.join("|"))`)};`);
        return;
      }
      switch (s.pick % 6) {
        case 0: p.line(`for (const ${y} of ${src}) { if (${mm}.has(${y})) continue; ${p.use(s.e, y)}; ${mm}.set(${y}, ${y}.length); }`); break;
        case 1: p.line(`for (const ${y} of ${src}) { const ${v} = ${mm}.get(${y}) ?? 0; if (${v} < ${cap}) ${p.use(s.e, y)}; ${mm}.set(${y}, ${v} + 1); }`); break;
        case 2: {
          const key = p.fresh("key");
          p.line(`for (const ${y} of ${src}) { const ${key} = ${y}.slice(0, 1); ${mm}.set(${key}, (${mm}.get(${key}) ?? 0) + ${y}.length); }`);
          p.line(`for (const [${y}, ${v}] of ${mm}) if (${v} >= ${k}) ${p.use(s.e, y)};`);
          break;
        }
        case 3: p.line(`for (const ${y} of ${src}) { if (${mm}.size >= ${cap}) break; ${s.pick % 12 === 3 ? `if (${mm}.has(${y})) continue; ` : ""}${mm}.set(${y}, 1); ${p.use(s.e, y)}; }`); break;
        case 4: {
          p.line(`for (const ${y} of ${src}) ${mm}.set(${y}, (${mm}.get(${y}) ?? 0) + 1);`);
          p.line(`for (const [${y}] of [...${mm}.entries()].sort((a, b) => b[1] - a[1]).slice(0, ${cap + 1})) ${p.use(s.e, y)};`);
          break;
        }
        default: {
          p.line(`for (const ${y} of ${src}) ${mm}.set(${y}, ${y}.length);`);
          p.line(`if (${mm}.has(${x})) ${p.use(s.e, x)};`);
          p.line(`const ${v} = ${mm}.get(${lits[0]});`);
          p.line(`if (${v} !== undefined && ${v} > ${k}) ${p.effect(s.e)};`);
          p.line(`if (${mm}.size === ${s.cmp}) ${p.effect(s.e)};`);
        }
      }
      return;
    }
    case "get": {
      const mm = p.fresh("mm");
      const v = p.fresh("v");
      const pairs = s.lits.map((l, i) => `[${p.str(l)}, ${p.str(s.lits[(i + 1) % s.lits.length]!)}]`);
      p.line(`const ${mm} = new Map<string, string>([${pairs.join(", ")}]);`);
      if (s.cmp > 2) p.line(`${mm}.set(${x}, ${lits[0]});`);
      p.line(`const ${v} = ${mm}.get(${x});`);
      // Cast: TypeScript does not narrow in code it finds unreachable (the generator writes some).
      p.line(`if (${v} !== undefined) ${p.use(s.e, `(${v} as string)`)}; else ${p.effect(s.e)};`);
      return;
    }
    case "json": {
      const j = p.fresh("j");
      const t = JSON_TEXTS[s.pick % JSON_TEXTS.length]!;
      const n = JSON_NUMBERS[s.pick % JSON_NUMBERS.length]!;
      const u = p.fresh("u");
      p.line(`const ${u} = (${x} as string) === ${lits[0]} ? ${p.str(t)} : undefined;`);
      p.line(`const ${j}: string = JSON.stringify({ ${s.cmp > 1 ? `"${s.cmp}": true, ` : ""}t: ${p.str(t)}, u: ${u}, n: ${p.num(n)}, xs: [${lits.join(", ")}, ${u}] });`);
      p.line(`if (${j}.length > ${k * 8}) ${p.effect(s.e)};`);
      p.line(`${p.use(s.e, j)};`);
      return;
    }
    case "sortStr": {
      const out = p.fresh("out");
      const cmpFn = ["", "(a, b) => (a < b ? -1 : a > b ? 1 : 0)", "(a, b) => (a > b ? -1 : a < b ? 1 : 0)", "(a, b) => (a < b ? -1 : 1)"][s.pick % 4]!;
      p.line(`const ${out}: string[] = ${list};`);
      p.line(`${out}.sort(${cmpFn});`);
      p.line(`${p.use(s.e, `${out}.join(${p.str(",")})`)};`);
      return;
    }
    case "sortNum": {
      const out = p.fresh("out");
      const cmpFn = ["(a, b) => a - b", "(a, b) => b - a", "(a, b) => a - b", ""][s.pick % 4]!;
      const lead = s.pick % 3 === 0 ? `${x}.length` : p.expr(s.xn);
      p.line(`const ${out}: number[] = [${[lead, ...s.nums.map((n) => p.num(n))].join(", ")}];`);
      p.line(`${out}.sort(${cmpFn});`);
      p.line(`for (const ${y} of ${out}) if (${y} > ${s.cmp}) { ${p.useNum(s.e, y)}; break; }`);
      return;
    }
    case "splice": {
      const out = p.fresh("out");
      const gone = p.fresh("gone");
      p.line(`const ${out}: string[] = ${list};`);
      p.line(`const ${gone} = ${out}.splice(${s.cmp - 1}${s.pick % 3 === 0 ? "" : `, ${s.pick % 3}, ${x}`});`);
      p.line(`${p.use(s.e, `(${out}.join(${p.str("|")}) + ${p.str("/")} + ${gone}.join(${p.str("|")}))`)};`);
      return;
    }
    case "reverse": {
      const out = p.fresh("out");
      p.line(`const ${out}: string[] = ${list};`);
      p.line(`${out}.reverse();`);
      p.line(`for (const ${y} of ${out}) ${p.use(s.e, y)};`);
      return;
    }
    case "index": {
      const out = p.fresh("out");
      p.line(`const ${out}: string[] = [${lits.join(", ")}];`);
      p.line(`${out}[${s.cmp}] = ${x};`);
      p.line(`${p.use(s.e, `${out}.join(${p.str(",")})`)};`);
      return;
    }
  }
}
