/**
 * Idiomatic TypeScript the prover decides (profile `idioms`, issue 10): `for (const [i, x] of
 * xs.entries())` over literal arrays, bounded tool arrays and arrays of unknown length, the index
 * guarding the effect or written into its text; `for (let i = 0; i < f.length; i++)` over a slice
 * of at most N elements (or the array itself), `<` or `<=`, reading `f[i]` (undefined past the end).
 */
import type { Effect, IdiomsStmt, StrExpr } from "./ir";

export const IDIOMS_OPS = ["entries", "forLength"] as const;

/** What the printer lends the idioms statement. */
export interface IdiomsPrinter {
  fresh(prefix: string): string;
  line(text: string): void;
  str(v: string): string;
  expr(e: StrExpr | IdiomsStmt["src"]): string;
  effect(e: Effect): string;
  /** The effect with a string in its key place. */
  use(e: Effect, v: string): string;
}

const INDEX_TESTS = ["<", "===", ">=", "!=="] as const;

export function printIdioms(p: IdiomsPrinter, s: IdiomsStmt): void {
  const y = p.fresh("y");
  const k = Math.max(0, s.cmp);
  switch (s.op) {
    case "entries": {
      const i = p.fresh("i");
      const src = s.pick % 3 === 0 ? `[${[...s.lits.map((l) => p.str(l)), p.expr(s.x)].join(", ")}]` : p.expr(s.src);
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
      p.line(`const ${f} = ${src}${slice};`);
      const le = s.pick % 7 === 6 ? "<=" : "<";
      p.line(`for (let ${i} = 0; ${i} ${le} ${f}.length; ${i}${s.pick % 5 === 3 ? " += 2" : "++"}) {`);
      p.line(`  const ${y} = ${f}[${i}];`);
      p.line(`  ${s.pick % 2 === 0 ? `${p.use(s.e, `(${y} ?? ${p.str(s.lits[0] ?? "z")})`)};` : `if (${y} !== undefined) ${p.use(s.e, `\`\${${y}}\${${i}}\``)};`}`);
      p.line("}");
      return;
    }
  }
}
