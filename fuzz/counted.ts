/**
 * Printer of the `counted` statement (ir.ts): a `filter` over `names()` (an array of unknown
 * length) read as an array — its length against a limit with an off-by-one slack, compared with the
 * source's, in a template; loops over `slice(0, limit)` and `slice(limit)`; an element by index and
 * the last one; the count used as a bound on the source; a filter of a filter. The array comes
 * from `filter` or from `push` in a `for…of` over `names()` (`via`); a filter is now and then made
 * inside a loop over `names()` and tests against its element (`outer`).
 */
import type { CountedStmt, Effect } from "./ir";

export interface CountedPrinter {
  fresh(prefix: string): string;
  line(text: string): void;
  str(v: string): string;
  effect(e: Effect): string;
}

/** A literal long enough that a term comparing with it is named (exec/state.ts `nameTerm`). */
const LONG = "z".repeat(420);

export function printCounted(p: CountedPrinter, s: CountedStmt): void {
  // A filter made inside a loop over another array of unknown length (`outer`), testing against
  // that loop's element: counted per iteration (core/prover/exec/counted.ts).
  if (s.outer && s.via === "filter") {
    const o = p.fresh("o");
    p.line(`for (const ${o} of names()) {`);
    printCountedOnce(p, s, s.pred === "===" || s.pred === "!==" ? o : p.str(s.lit));
    p.line("}");
    return;
  }
  printCountedOnce(p, s, p.str(s.lit));
}

function printCountedOnce(p: CountedPrinter, s: CountedStmt, lit: string): void {
  const limit = s.limit + s.slack;
  const x = p.fresh("x");
  const test = (v: string): string => (s.pred === "===" || s.pred === "!==" ? `${v} ${s.pred} ${lit}` : `${v}.${s.pred}(${lit})`);
  const all = p.fresh("all");
  const k = p.fresh("kept");
  p.line(`const ${all} = names();`);
  if (s.via === "filter") p.line(`const ${k} = ${all}.filter((${x}) => ${test(x)});`);
  else {
    p.line(`const ${k}: string[] = [];`);
    p.line(`for (const ${x} of ${all}) {`);
    if (s.via === "push") p.line(`  if (${test(x)}) ${k}.push(${x});`);
    else if (s.via === "pushContinue") p.line(`  if (!(${test(x)})) continue; ${k}.push(${x});`);
    else if (s.via === "pushBreak") p.line(`  if (${x} === ${p.str(s.lit2)}) break; if (${test(x)}) ${k}.push(${x});`);
    else if (s.via === "pushMapped") p.line(`  if (${test(x)}) ${k}.push(${x}.trim() + ${p.str(s.lit2)});`);
    // Paths that meet with long terms (named when joined: the outside review adv36's wrong proofs),
    // with (`pushSeen`) a membership test of what earlier iterations pushed.
    else if (s.via === "pushLong" || s.via === "pushSeen") {
      if (s.via === "pushSeen") p.line(`  if (${k}.includes(${x})) continue;`);
      p.line(`  if (${x} === ${p.str(LONG)}) { ${k}.push(${p.str(s.lit2)}); continue; }`);
      p.line(`  if (${test(x)}) ${k}.push(${x} + ${p.str(s.lit2)});`);
    }
    else p.line(`  if (${test(x)}) ${k}.push(${x}); else ${k}.push(${p.str(s.lit2)});`);
    p.line("}");
  }
  const y = p.fresh("y");
  switch (s.op) {
    case "length":
      p.line(`if (${k}.length >= ${limit}) ${p.effect(s.e)};`);
      return;
    case "lengthVsSource":
      p.line(`if (${k}.length ${s.slack < 0 ? "<" : s.slack > 0 ? ">" : "==="} ${all}.length) ${p.effect(s.e)};`);
      return;
    case "template":
      p.line(`sendEmail(${p.str(s.lit2)}, \`\${${k}.length} of \${${all}.length}\`);`);
      return;
    case "slice":
      p.line(`for (const ${y} of ${k}.slice(0, ${limit})) sendEmail(${y}, ${p.str(s.lit2)});`);
      return;
    case "sliceFrom":
      p.line(`for (const ${y} of ${k}.slice(${limit})) sendEmail(${y}, ${p.str(s.lit2)});`);
      return;
    case "index":
      p.line(`const ${y} = ${k}[${Math.max(limit, 0)}];`);
      p.line(`if (${y} !== undefined) sendEmail(${y}, ${p.str(s.lit2)});`);
      return;
    case "last":
      p.line(`const ${y} = ${k}[${k}.length - ${Math.max(s.limit, 1)}];`);
      p.line(`if (${y} !== undefined) sendEmail(${y}, ${p.str(s.lit2)});`);
      return;
    case "boundSource":
      p.line(`for (const ${y} of ${all}.slice(0, ${k}.length)) sendEmail(${y}, ${p.str(s.lit2)});`);
      return;
    case "each":
      p.line(`for (const ${y} of ${k}) sendEmail(${y}, ${p.str(s.lit2)});`);
      return;
    case "join":
      p.line(`if (${k}.length > 0) sendEmail(${k}.join(", "), ${p.str(s.lit2)});`);
      return;
    case "nested": {
      const z = p.fresh("z");
      const k2 = p.fresh("kept");
      p.line(`const ${k2} = ${k}.filter((${z}) => !${z}.startsWith(${p.str(s.lit2)}));`);
      p.line(`if (${k2}.length >= ${limit}) ${p.effect(s.e)};`);
      p.line(`for (const ${y} of ${k2}.slice(0, ${Math.max(limit, 0)})) sendEmail(${y}, ${p.str(s.lit2)});`);
      return;
    }
  }
}
