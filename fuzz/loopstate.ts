/**
 * Printer of the `loopstate` statement (ir.ts): state carried across the iterations of a loop over
 * an array of unknown length — a budget over the integral amounts of `invoices()`, a counter of
 * emails to `names()`, a found flag — at a limit with an off-by-one slack, its update kept, left
 * out, made before the check or made wrong, and the state after the loop guarding an effect.
 */
import type { Effect, LoopStateStmt } from "./ir";

export interface LoopStatePrinter {
  fresh(prefix: string): string;
  line(text: string): void;
  str(v: string): string;
  effect(e: Effect): string;
  /** Imports a layer tool that the header does not (only programs that use it change). */
  use(tool: string): void;
}

export function printLoopState(p: LoopStatePrinter, s: LoopStateStmt): void {
  const limit = s.limit + s.slack;
  const lit = p.str(s.lit);
  switch (s.op) {
    case "budget": case "budgetBreak": {
      p.use("invoices");
      const t = p.fresh("t");
      const w = p.fresh("w");
      const sink = s.sink === "pay" ? `pay(${w}.to, ${w}.amount);` : `measure(${w}.amount);`;
      const update = s.update === "ok" || s.update === "before" ? `${t} += ${w}.amount;` : s.update === "wrong" ? `${t} += 1;` : "";
      p.line(`let ${t} = 0;`);
      p.line(`for (const ${w} of invoices()) {`);
      if (s.op === "budget") {
        if (s.update === "before") p.line(`  ${update} if (${t} ${s.strict ? "<" : "<="} ${limit}) ${sink}`);
        else p.line(`  if (${t} + ${w}.amount ${s.strict ? "<" : "<="} ${limit}) { ${sink} ${update} }`);
      } else if (s.update === "before") {
        p.line(`  ${update} if (${t} ${s.strict ? ">=" : ">"} ${limit}) break; ${sink}`);
      } else {
        p.line(`  if (${t} + ${w}.amount ${s.strict ? ">=" : ">"} ${limit}) break;`);
        p.line(`  ${sink} ${update}`);
      }
      p.line("}");
      p.line(`if (${t} >= ${limit}) ${p.effect(s.e)};`);
      return;
    }
    case "logged": {
      // (Session 45) A total of halves and a text kept only to log them (no invariant needed), or
      // (update "wrong") the total also guarding an effect after the loop: then carried, refused.
      p.use("invoices");
      const t = p.fresh("t");
      const r = p.fresh("r");
      const w = p.fresh("w");
      const sink = s.sink === "pay" ? `pay(${w}.to, ${w}.amount);` : `measure(${w}.amount);`;
      p.line(`let ${t} = 0;`);
      p.line(`let ${r} = "";`);
      p.line(`for (const ${w} of invoices()) {`);
      p.line(`  if (${w}.amount ${s.strict ? "<" : "<="} ${limit}) ${sink}`);
      p.line(`  ${t} += ${w}.amount * 0.5; ${r} += ${w}.to;`);
      if (s.update === "before") p.line(`  console.log(\`running \${${t}}\`);`);
      p.line("}");
      p.line(`console.log(\`total \${${t}.toFixed(2)}: \${${r}}\`);`);
      if (s.update === "wrong") p.line(`if (${t} >= ${limit}) ${p.effect(s.e)};`);
      return;
    }
    case "counter": case "counterBreak": {
      const n = p.fresh("n");
      const x = p.fresh("x");
      // With sink "measure" (which a counter does not use), to the literal address with the
      // element as subject: a `where` on the address is then decided by the call's own fields.
      const send = s.sink === "measure" ? `sendEmail(${lit}, ${x})` : `sendEmail(${x}, ${lit})`;
      const update = s.update === "ok" || s.update === "before" ? `${n}++;` : s.update === "wrong" ? `${n}--;` : "";
      p.line(`let ${n} = 0;`);
      p.line(`for (const ${x} of names()) {`);
      if (s.op === "counter") {
        if (s.update === "before") p.line(`  ${update} if (${n} ${s.strict ? "<" : "<="} ${limit}) ${send};`);
        else p.line(`  if (${n} ${s.strict ? "<" : "<="} ${limit}) { ${send}; ${update} }`);
      } else if (s.update === "before") {
        p.line(`  ${update} if (${n} ${s.strict ? ">" : ">="} ${limit}) break; ${send};`);
      } else {
        p.line(`  ${send}; ${update}`);
        p.line(`  if (${n} ${s.strict ? ">" : ">="} ${limit}) break;`);
      }
      p.line("}");
      p.line(`if (${n} >= ${limit}) ${p.effect(s.e)};`);
      return;
    }
    case "found": {
      const f = p.fresh("f");
      const x = p.fresh("x");
      p.line(`let ${f} = false;`);
      p.line(`for (const ${x} of names()) {`);
      if (s.update === "before") p.line(`  ${f} = ${x}.startsWith(${lit}); if (${f}) sendEmail(${x}, ${lit});`);
      else p.line(`  if (!${f} && ${x}.startsWith(${lit})) { sendEmail(${x}, ${lit}); ${s.update === "ok" ? `${f} = true;` : s.update === "wrong" ? `${f} = false;` : ""} }`);
      p.line("}");
      p.line(`if (${f}) ${p.effect(s.e)};`);
      return;
    }
    case "whileIndex": {
      // A counter over `names()` (while.ts): to the first element with the prefix (`ok`), over all of
      // them (`missing`), the step first (`before`, refused: the step must come last), or a `break`
      // in the body (`wrong`); `strict` steps with `+= 1`. With `sink` "measure" (unused otherwise) the
      // same `while` runs twice in an unrolled loop, the counter kept: the second run starts where
      // the first stopped (the outside reviewer's while_reenter: the prover started it at 0 again).
      const xs = p.fresh("xs");
      const i = p.fresh("i");
      const step = s.strict ? `${i} += 1;` : `${i}++;`;
      p.line(`const ${xs} = names();`);
      p.line(`let ${i} = 0;`);
      const twice = s.sink === "measure";
      if (twice) p.line(`for (const ${p.fresh("round")} of [1, 2]) {`);
      if (s.update === "ok") p.line(`while (${i} < ${xs}.length && !${xs}[${i}].startsWith(${lit})) { sendEmail(${xs}[${i}], ${lit}); ${step} }`);
      else if (s.update === "missing") p.line(`while (${i} < ${xs}.length) { sendEmail(${xs}[${i}], ${lit}); ${step} }`);
      else if (s.update === "before") p.line(`while (${i} < ${xs}.length && ${xs}[${i}] !== ${lit}) { ${step} sendEmail(${xs}[${i} - 1], ${lit}); }`);
      else p.line(`while (${i} < ${xs}.length) { if (${xs}[${i}].startsWith(${lit})) break; sendEmail(${xs}[${i}], ${lit}); ${step} }`);
      if (twice) p.line("}");
      p.line(`${p.effect(s.e)};`);
      return;
    }
    case "whileRetry": {
      // A retry loop whose bound is a counter in a later conjunct (while.ts): `!found && a < limit`
      // (and `a < xs.length` with sink "measure"); the step kept, left out (unbounded: refused),
      // made first, or the bound `<=` (wrong); with `strict`, a tool call in the first conjunct
      // that still runs when the counter is past its bound.
      const xs = p.fresh("xs");
      const a = p.fresh("a");
      const f = p.fresh("f");
      const bound = Math.max(0, Math.min(limit, 5));
      p.line(`const ${xs} = names();`);
      p.line(`let ${a} = 0;`);
      p.line(`let ${f} = false;`);
      const cmp = s.update === "wrong" ? "<=" : "<";
      const more = s.sink === "measure" ? ` && ${a} < ${xs}.length` : "";
      const first = s.strict ? `log(${lit}) === undefined && !${f}` : `!${f}`;
      const step = s.update === "missing" ? "" : `${a}++;`;
      const read = `(${xs}[${a}] ?? ${lit})`;
      if (s.update === "before") p.line(`while (${first} && ${a} ${cmp} ${bound}${more}) { ${step} sendEmail(${read}, ${lit}); ${f} = ${read}.startsWith(${lit}); }`);
      else p.line(`while (${first} && ${a} ${cmp} ${bound}${more}) { sendEmail(${read}, ${lit}); ${f} = ${read}.startsWith(${lit}); ${step} }`);
      p.line(`if (${f}) ${p.effect(s.e)};`);
      return;
    }
    case "pick": {
      // The element a loop picks (loopstate.ts, carried as its index): the cheapest row of
      // `invoices()` (sink "pay") or of `rows()` (any numbers: NaN, negative, fractions), from
      // `undefined` (ok), from the first row unchecked (missing: empty arrays throw), from a literal
      // row (before), or the largest instead (wrong); `strict` picks ties too (`<=`).
      if (s.sink === "pay") p.use("invoices");
      const xs = p.fresh("xs");
      const b = p.fresh("b");
      const w = p.fresh("w");
      p.line(`const ${xs} = ${s.sink === "pay" ? "invoices" : "rows"}();`);
      if (s.update === "missing") p.line(`let ${b} = ${xs}[0];`);
      else if (s.update === "before") p.line(`let ${b}: { to: string; amount: number } | undefined = { to: ${lit}, amount: ${limit} };`);
      else p.line(`let ${b}: { to: string; amount: number } | undefined = undefined;`);
      const cmp = s.update === "wrong" ? (s.strict ? ">=" : ">") : s.strict ? "<=" : "<";
      p.line(`for (const ${w} of ${xs}) if (${b} === undefined || ${w}.amount ${cmp} ${b}!.amount) ${b} = ${w};`);
      // `b!`: inside `if (false)` TypeScript does not narrow `b` by the test before it.
      const sink = s.sink === "pay" ? `pay(${b}!.to, ${b}!.amount);` : `measure(${b}!.amount);`;
      p.line(`if (${b} !== undefined && ${b}!.amount <= ${limit}) ${sink}`);
      p.line(`if (${b} !== undefined && ${b}!.to.startsWith(${lit})) ${p.effect(s.e)};`);
      return;
    }
    case "pickField": {
      // One field of the element a loop picks: the smallest amount from Infinity (ok), from a
      // literal (before: it may stay), from -Infinity picking the largest (wrong), or the
      // recipient of the last row over the limit (missing); `strict` skips rows to the literal
      // address with `continue`.
      if (s.sink === "pay") p.use("invoices");
      const xs = p.fresh("xs");
      const v = p.fresh("v");
      const w = p.fresh("w");
      p.line(`const ${xs} = ${s.sink === "pay" ? "invoices" : "rows"}();`);
      const skip = s.strict ? `if (${w}.to === ${lit}) continue; ` : "";
      if (s.update === "missing") {
        p.line(`let ${v} = ${lit};`);
        p.line(`for (const ${w} of ${xs}) { ${skip}if (${w}.amount > ${limit}) ${v} = ${w}.to; }`);
        p.line(`sendEmail(${v}, ${lit});`);
      } else {
        const start = s.update === "ok" ? "Infinity" : s.update === "wrong" ? "-Infinity" : String(limit);
        const cmp = s.update === "wrong" ? ">" : "<";
        p.line(`let ${v} = ${start};`);
        p.line(`for (const ${w} of ${xs}) { ${skip}if (${w}.amount ${cmp} ${v}) ${v} = ${w}.amount; }`);
        p.line(`if (${v} <= ${limit}) ${s.sink === "pay" ? `pay(${lit}, ${v})` : `measure(${v})`};`);
      }
      p.line(`${p.effect(s.e)};`);
      return;
    }
    case "reduce": {
      // `reduce` over `invoices()` (an array of unknown length) from an integer literal, over a
      // filter of it when `strict`; `update` picks the callback (the sum, a count, a difference, the
      // accumulator unchanged). The total guards the effect or is measured or paid (`pay` requires
      // an amount above 0).
      p.use("invoices");
      const t = p.fresh("t");
      const a = p.fresh("a");
      const w = p.fresh("w");
      const src = s.strict ? `invoices().filter((${w}) => ${w}.amount > ${s.limit})` : "invoices()";
      const step = s.update === "ok" ? `${a} + ${w}.amount` : s.update === "wrong" ? `${a} + 1` : s.update === "before" ? `${a} - ${w}.amount` : a;
      p.line(`const ${t} = ${src}.reduce((${a}, ${w}) => ${step}, ${s.slack});`);
      p.line(`if (${t} ${s.strict ? ">" : ">="} ${limit}) ${p.effect(s.e)};`);
      p.line(`else ${s.sink === "pay" ? `pay(${lit}, ${t} + 1)` : `measure(${t})`};`);
      return;
    }
    case "foundBreak": {
      const x = p.fresh("x");
      p.line(`for (const ${x} of names()) {`);
      if (s.update === "ok") p.line(`  if (${x}.startsWith(${lit})) { sendEmail(${x}, ${lit}); break; }`);
      else if (s.update === "missing") p.line(`  if (${x}.startsWith(${lit})) { sendEmail(${x}, ${lit}); continue; }`);
      else p.line(`  if (${x}.startsWith(${lit})) break; sendEmail(${x}, ${lit});`);
      p.line("}");
      return;
    }
  }
}
