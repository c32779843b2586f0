import type { IntsStmt, Stmt } from "./ir";
import { EffectPrinter } from "./print-effects";
import { numberText } from "./print-expr";

/**
 * The effects (tool calls) and the statements of issues 10 and 14 that print as a few fixed lines
 * around one effect: array callbacks, integers, array methods, arrays the program builds, loops
 * with element promises. `Printer` (print.ts) prints the rest of the statements and the functions.
 */
export class IdiomPrinter extends EffectPrinter {
  /** An array callback (see the `callback` statement of ir.ts). */
  protected callback(s: Extract<Stmt, { k: "callback" }>): void {
    const src = this.expr(s.src);
    const x = this.fresh("x");
    const i = this.fresh("i");
    const e = s.e;
    // The effect with a string in its string argument (the element, or the one `find` returns).
    const use = (v: string): string => this.fluentUse(e, v) ?? e.tool === "sendEmail" ? `sendEmail(${v}, ${this.expr(e.s2)})` : e.tool === "pay" ? `pay(${v}, ${this.expr(e.n)})` : e.tool === "log" ? `log(${v})` : `measure(${v}.length)`;
    // The callback is synchronous: nothing in it is awaited.
    this.syncOnly++;
    const [params, body] = this.block(() => {
      this.declare(x, "str", false);
      const lit = this.str(s.lit);
      const test = s.op === "===" || s.op === "!==" ? `${x} ${s.op} ${lit}` : `${x}.${s.op}(${lit})`;
      const cond = s.useIndex ? `(${i} === 1 || ${test})` : test;
      const parts: string[] = [];
      if (s.throwAt !== null) parts.push(`if (${x} === ${this.str(s.throwAt)}) throw new Error(${this.str("callback")});`);
      const inner = s.inner ? (s.useElement ? use(x) : this.effect({ ...e, async: false })) : undefined;
      if (s.method === "forEach") parts.push(inner ? `if (${cond}) ${inner};` : `log(${x});`);
      else {
        if (inner) parts.push(`${inner};`);
        parts.push(s.method === "map" ? `return ${x} + ${lit};` : `return ${cond};`);
      }
      return [s.useIndex ? `(${x}: string, ${i}: number)` : `(${x}: string)`, parts.join(" ")] as const;
    });
    this.syncOnly--;
    // `(x) => x !== ""` alone is the built-in `Boolean` on strings: written so (callbacks.ts).
    const plain = s.op === "!==" && s.lit === "" && !s.useIndex && s.throwAt === null && !s.inner && s.method !== "forEach" && s.method !== "map";
    const cb = plain ? "Boolean" : `${params} => { ${body} }`;
    const r = this.fresh("r");
    switch (s.method) {
      case "forEach":
        this.line(`${src}.forEach(${cb});`);
        return;
      case "map": {
        const y = this.fresh("y");
        this.line(`for (const ${y} of ${src}.map(${cb})) ${use(y)};`);
        return;
      }
      case "filter": {
        const y = this.fresh("y");
        this.syncOnly++;
        const each = s.useElement ? use(y) : `log(${y})`;
        this.syncOnly--;
        if (s.useElement || (s.src.k !== "few" && s.src.k !== "lit")) {
          this.line(`${src}.filter(${cb}).forEach((${y}: string) => ${each});`);
          return;
        }
        // Over a bounded array the kept elements read as an array: their count, first and text.
        this.line(`const ${r}: string[] = ${src}.filter(${cb});`);
        this.line(`if (${r}.length >= 2) ${this.effect(e)};`);
        this.line(`log(${r}.join(${this.str("+")}) + ${r}.at(0));`);
        return;
      }
      case "some": case "every":
        this.line(`const ${r}: boolean = ${src}.${s.method}(${cb});`);
        this.line(`if (${r}) ${this.effect(e)};`);
        this.declare(r, "bool", false);
        return;
      case "find": {
        this.line(`const ${r}: string | undefined = ${src}.find(${cb});`);
        // (Widened by hand: after a `return`, TypeScript does not narrow in the unreachable code.)
        // The tests that narrow it (exec/narrowing.ts), and after one whose branches both go on, `??`
        // where it is still undefined.
        const narrowing = (s.lit.length + s.op.length) % 4;
        const defined = `(${r} as string)`;
        if (narrowing === 0) this.line(`if (${r} !== undefined) ${use(defined)};`);
        else if (narrowing === 1) this.line(`if (!${r}) log(${this.str("none")}); else ${use(defined)};`);
        else if (narrowing === 2) this.line(`if (${r} == undefined || ${defined} === ${this.str(s.lit)}) log(${this.str("none")}); else ${use(defined)};`);
        else this.line(`${r} && ${use(defined)};`);
        if (narrowing % 2 === 0) this.line(`${use(`(${r} ?? ${this.str("none")})`)};`);
        this.declare(r, "ostr", false);
        return;
      }
      case "findIndex":
        this.line(`const ${r}: number = ${src}.findIndex(${cb});`);
        this.line(`if (${r} >= 0) ${e.tool === "measure" ? `measure(${r})` : this.effect(e)};`);
        this.declare(r, "num", false);
        return;
    }
  }

  /** `Promise.all` over `map` and reads of its results (see the `allMap` statement of ir.ts). */
  protected allMap(s: Extract<Stmt, { k: "allMap" }>): void {
    const e = s.e;
    const use = (v: string): string => this.fluentUse(e, v) ?? (e.tool === "sendEmail" ? `sendEmail(${v}, ${this.expr(e.s2)})` : e.tool === "pay" ? `pay(${v}, ${this.expr(e.n)})` : e.tool === "log" ? `log(${v})` : `measure(${v}.length)`);
    const x = this.fresh("x");
    const i = this.fresh("i");
    const lit = this.str(s.lit);
    const params = s.useIndex ? `${x}: string, ${i}: number` : `${x}: string`;
    if (s.read === "pay") {
      const n = this.fresh("n");
      const nums = this.expr(s.nums);
      const to = this.fresh("q");
      this.line(`const ${to}: string = ${this.expr(e.s)};`);
      if (this.awaits()) {
        this.line(`try { await Promise.all(${nums}.map(async (${n}: number) => payAsync(${to}, ${n}))); } catch { }`);
      } else this.line(`try { ${nums}.forEach((${n}: number) => pay(${to}, ${n})); } catch { }`);
      this.line(`${this.effect(e)};`);
      return;
    }
    let src = this.expr(s.src);
    // The call's argument calls only built-ins (the prover refuses other calls there). With the
    // index: the index in a template, or (pick > 0) a mapped twin of the array read at the index.
    let key = s.pick === 2 && !s.useIndex ? `${x}.slice(1)` : x;
    if (s.useIndex && s.pick === 0) key = `\`\${${x}}\${${i}}\``;
    else if (s.useIndex) {
      const xs = this.fresh("xs");
      const ks = this.fresh("ks");
      this.line(`const ${xs}: string[] = ${src};`);
      this.line(`const ${ks}: string[] = ${xs}.map((${x}: string) => ${x}.slice(${s.pick - 1}));`);
      src = xs;
      key = `${ks}[${i}] ?? ${lit}`;
    }
    const from = s.filtered ? `${src}.filter((${x}: string) => ${x} !== ${lit})` : src;
    const rs = this.fresh("rs");
    // With cmp > 2, a callback that does more than one call: its calls interleave with the other
    // elements' (events in one order among those a run may have).
    if (this.awaits() && s.cmp > 2) this.line(`const ${rs}: string[] = await Promise.all(${from}.map(async (${params}) => { ${s.cmp % 2 === 1 ? `${this.effect(e)}; ` : ""}const v = await lookupAsync(${key}); await sendEmailAsync(v, ${lit}); return v; }));`);
    // (pick 3: an arrow that is not `async`, returning the async tool's promise; its key calls at most a built-in.)
    else if (this.awaits() && s.pick === 3 && !s.useIndex) this.line(`const ${rs}: string[] = await Promise.all(${from}.map((${params}) => lookupAsync(${s.cmp % 2 === 0 ? x : `${x}.slice(1)`})));`);
    else if (this.awaits()) this.line(`const ${rs}: string[] = await Promise.all(${from}.map(async (${params}) => lookupAsync(${key})));`);
    else this.line(`const ${rs}: string[] = ${from}.map((${params}) => lookup(${key}));`);
    const r = this.fresh("r");
    switch (s.read) {
      case "length":
        this.line(`if (${rs}.length === ${s.cmp}) ${this.effect(e)};`);
        this.line(`log(\`\${${rs}.length} results\`);`);
        return;
      case "index":
        this.line(`const ${r}: string = ${rs}[${s.pick}] ?? ${lit};`);
        this.line(`if (${r} !== ${lit}) ${use(r)};`);
        return;
      case "forOf":
        this.line(`for (const ${r} of ${rs}) ${use(r)};`);
        return;
      case "filter":
        this.line(`for (const ${r} of ${rs}.filter((${x}: string) => ${x}.startsWith(${lit}))) ${use(r)};`);
        return;
      case "map":
        this.line(`for (const ${r} of ${rs}.map((${x}: string) => ${x} + ${lit})) ${use(r)};`);
        return;
      case "join":
        this.line(`${use(`${rs}.join(${lit})`)};`);
        return;
      case "includes":
        this.line(`if (${rs}.includes(${lit})) ${this.effect(e)};`);
        return;
      case "some": case "every":
        this.line(`if (${rs}.${s.read}((${x}: string) => ${x} === ${lit})) ${this.effect(e)};`);
        return;
    }
  }

  /** Integers (see the `ints` statement of ir.ts); its names are not in the printer's scope, so nothing else assigns them. */
  protected ints(s: IntsStmt): void {
    if (s.op === "budget") {
      const t = this.fresh("t");
      const w = this.fresh("w");
      this.line(`let ${t} = 0;`);
      this.line(`for (const ${w} of wholes()) {`);
      this.line(`  if (${t} + ${w}.amount <= ${numberText(s.limit)}) {`);
      this.line(`    ${s.sink === "pay" ? `pay(${w}.to, ${w}.amount)` : `measure(${w}.amount)`};`);
      this.line(`    ${t} += ${w}.amount;`);
      this.line("  }");
      this.line("}");
      this.line(`if (${t} >= ${numberText(s.limit)}) ${this.effect(s.e)};`);
      return;
    }
    if (s.op === "mixed") {
      const w = this.fresh("w");
      const q = this.fresh("q");
      const factor = s.scale === -1 ? "-0.3" : s.scale === 2 ? "0.5" : "0.1";
      this.line(`for (const ${w} of wholes()) {`);
      this.line(`  const ${q} = ${w}.amount * ${factor};`);
      this.line(`  if (${q} <= ${numberText(s.limit)}) ${s.sink === "pay" ? `pay(${w}.to, ${q})` : `measure(${q})`};`);
      this.line(`  else ${this.effect(s.e)};`);
      this.line("}");
      return;
    }
    if (s.op === "rounded") {
      this.rounded(s);
      return;
    }
    const a = this.fresh("a");
    this.line(`const ${a} = tally();`);
    if (s.op === "edge") {
      const [k, lit, sum] = s.edge;
      this.line(`if (${a} === ${numberText(k)} && ${a} + ${numberText(lit)} === ${numberText(sum)}) ${this.effect(s.e)};`);
    } else if (s.op === "signed") {
      this.line(`if (1 / ${a} < 0) ${this.effect(s.e)};`);
    } else if (s.op === "remainder") {
      // `%` by a literal and a rounded quotient, of an integer that may be negative or -0.
      const d = s.scale === 1000 ? 7 : s.scale === -1 ? -3 : 2;
      const r = this.fresh("r");
      const f = this.fresh("f");
      this.line(`const ${r} = (${a} - ${numberText(s.limit % 5)}) % ${d};`);
      this.line(`const ${f} = Math.${["floor", "ceil", "trunc"][Math.abs(s.edge[0]) % 3]}((${a} - ${numberText(s.limit % 7)}) / ${d});`);
      this.line(`measure(${r} * 10 + ${f});`);
      this.line(`if (${r} === ${numberText(-(s.limit % 3))} || 1 / ${r} < 0 || ${f} < ${numberText(-(s.limit % 4))}) ${this.effect(s.e)};`);
    } else {
      this.line(`measure(${a} * ${numberText(s.scale)} + ${numberText(s.limit)});`);
      this.line(`if (${a} * ${numberText(s.scale)} > ${numberText(s.limit)}) ${this.effect(s.e)};`);
    }
  }

  /** `rounded` of the `ints` statement (ir.ts): a rounding of an integer times a fraction, alone or per element of a loop. */
  private rounded(s: IntsStmt): void {
    const fn = ["round", "floor", "ceil", "trunc"][(s.limit + Math.abs(s.scale)) % 4]!;
    const factor = s.scale === -1 ? " * -0.5" : s.scale === 2 ? " * 0.5" : " * 1.005 * 100";
    const r = this.fresh("r");
    const source = Math.abs(s.edge[0]) % 3;
    if (source === 0) {
      const a = this.fresh("a");
      this.line(`const ${a} = tally();`);
      this.line(`const ${r} = Math.${fn}((${a} - ${numberText(s.limit % 5)})${factor});`);
      this.line(`${s.sink === "pay" ? `pay("x", ${r})` : `measure(${r})`};`);
      this.line(`if (!Number.isInteger(${r}) || ${r} === ${numberText(-(s.limit % 3))} || 1 / ${r} < 0) ${this.effect(s.e)};`);
      return;
    }
    const w = this.fresh("w");
    if (source === 2) this.extraImports.add("invoices");
    this.line(`for (const ${w} of ${source === 1 ? "wholes" : "invoices"}()) {`);
    this.line(`  const ${r} = Math.${fn}(${w}.amount${factor});`);
    this.line(`  if (${r} > ${numberText(s.limit)} || !Number.isInteger(${r})) ${this.effect(s.e)};`);
    this.line(`  else ${s.sink === "pay" ? `pay(${w}.to, ${r})` : `measure(${r})`};`);
    this.line("}");
  }

  /** Issue 10's array methods and builders (see the `arrays` statement of ir.ts). */
  protected arrays(s: Extract<Stmt, { k: "arrays" }>): void {
    const e = s.e;
    const use = (v: string): string => this.fluentUse(e, v) ?? (e.tool === "sendEmail" ? `sendEmail(${v}, ${this.expr(e.s2)})` : e.tool === "pay" ? `pay(${v}, ${this.expr(e.n)})` : e.tool === "log" ? `log(${v})` : `measure(${v}.length)`);
    const useNum = (v: string): string => (e.tool === "pay" ? `pay(${this.expr(e.s)}, ${v})` : `measure(${v})`);
    const lits = s.lits.length > 0 ? s.lits : ["a"];
    const src = s.useNums ? this.expr(s.nums) : this.expr(s.strs);
    const each = (v: string): string => (s.useNums ? useNum(v) : use(v));
    const r = this.fresh("r");
    const y = this.fresh("y");
    switch (s.op) {
      case "at":
        this.line(`const ${r}: ${s.useNums ? "number" : "string"} | undefined = ${src}.at(${this.expr(s.a)});`);
        this.line(`if (${r} !== undefined) ${each(`(${r} as ${s.useNums ? "number" : "string"})`)};`);
        return;
      case "indexOf": case "lastIndexOf": {
        this.line(`const ${r}: number = ${src}.${s.op}(${s.useNums ? this.expr(s.xn) : this.expr(s.x)});`);
        this.line(`if (${r} === ${s.cmp}) ${this.effect(e)};`);
        this.line(`const ${y}: ${s.useNums ? "number" : "string"} | undefined = ${src}.at(${r});`);
        this.line(`if (${r} >= 0 && ${y} !== undefined) ${each(`(${y} as ${s.useNums ? "number" : "string"})`)};`);
        this.declare(r, "num", false);
        return;
      }
      case "includes":
        this.line(`if (${src}.includes(${s.useNums ? this.expr(s.xn) : this.expr(s.x)})) ${this.effect(e)};`);
        return;
      case "slice":
        this.line(`for (const ${y} of ${src}.slice(${this.expr(s.a)}${s.b ? `, ${this.expr(s.b)}` : ""})) ${each(y)};`);
        return;
      case "flatMap": {
        // The callback is synchronous: nothing in it is awaited.
        const z = this.fresh("z");
        this.syncOnly++;
        const extra = this.expr(s.x);
        this.syncOnly--;
        this.line(`for (const ${y} of [${lits.map((l) => this.str(l)).join(", ")}].flatMap((${z}: string) => ${s.cmp < 0 ? `${z} + ${extra}` : `[${z}, ${z} + ${extra}]`})) ${use(y)};`);
        return;
      }
      case "flat": case "concat": {
        // (Session 45) Arrays spliced in, plain values kept: over tool results of unknown length too.
        const t = s.useNums ? "number" : "string";
        const scalar = s.useNums ? this.expr(s.xn) : this.expr(s.x);
        const literal = `[${s.useNums ? lits.map((_, j) => String(j + 1)).join(", ") : lits.map((l) => this.str(l)).join(", ")}]`;
        if (s.op === "flat") this.line(`const ${r}: ${t}[] = [${src}, ${scalar}, ${literal}${s.cmp > 0 ? `, ${src}` : ""}].flat(${s.cmp === 2 ? "1" : ""});`);
        else this.line(`const ${r}: ${t}[] = ${src}.concat(${scalar}, ${literal}${s.cmp > 0 ? `, ${src}` : ""});`);
        this.line(`const ${y}: ${t} | undefined = ${r}.at(${this.expr(s.a)});`);
        this.line(`if (${y} !== undefined) ${each(`(${y} as ${t})`)};`);
        this.line(`if (${r}.length ${s.cmp < 0 ? ">" : "==="} ${lits.length + 1 + Math.abs(s.cmp)}) ${this.effect(e)};`);
        return;
      }
      case "keys": case "values": case "entries": {
        const o = this.fresh("o");
        const k = this.fresh("k");
        this.line(`const ${o} = { b: ${this.expr(s.x)}, 2: ${this.str(lits[0]!)}, a: ${this.str(lits[1 % lits.length]!)}, 1: ${this.str(lits[2 % lits.length]!)} };`);
        const key = ["1", "2", "b", "a"][Math.abs(s.cmp) % 4]!;
        if (s.op === "keys") {
          this.line(`const ${k}: string | undefined = Object.keys(${o}).at(${this.expr(s.a)});`);
          this.line(`if (${k} !== undefined) ${use(`(${k} as string)`)};`);
        } else if (s.op === "values") this.line(`for (const ${y} of Object.values(${o})) ${use(y)};`);
        else this.line(`for (const [${k}, ${y}] of Object.entries(${o})) if (${k} !== ${this.str(key)}) ${use(y)};`);
        return;
      }
      case "fromLength": {
        // Both callbacks are synchronous: nothing in them is awaited.
        this.syncOnly++;
        const head = this.expr(s.x);
        const i = this.fresh("i");
        if (s.useNums) {
          // A length the path bounds (array-from.ts): a number expression (NaN, -0, fractions, large)
          // under a guard `n <= b`, b a whole number or a fraction.
          const n = this.fresh("n");
          this.line(`const ${n}: number = ${this.expr(s.a)};`);
          this.line(`if (${n} <= ${[0, 1, 2.5, 3][Math.abs(s.cmp) % 4]}) Array.from({ length: ${n} }, (_: unknown, ${i}: number) => ${head} + ${i}).forEach((${y}: string) => { ${use(y)}; });`);
        } else this.line(`Array.from({ length: ${Math.abs(s.cmp) % 4} }, (_: unknown, ${i}: number) => ${head} + ${i}).forEach((${y}: string) => { ${use(y)}; });`);
        this.syncOnly--;
        return;
      }
      case "fromArray":
        this.line(`for (const ${y} of Array.from(${src})) ${each(y)};`);
        return;
      case "rowPattern": {
        const a = this.fresh("a");
        const b = this.fresh("b");
        const call = (): string => (e.tool === "pay" ? `pay(${a}, ${b})` : use(a));
        // A `for…of` head (even `cmp`), the parameter of an async callback every element's call is
        // made in (in an async program: a payment, or else an email; a rejected payment does not
        // stop the others), or a callback's parameter (the callback awaits nothing).
        if (s.cmp % 2 === 0) this.line(`for (const { to: ${a}, amount: ${b} } of rows()) if (${b} > ${s.cmp}) ${call()};`);
        else if (this.awaits()) {
          const each = `rows().map(async ({ to: ${a}, amount: ${b} }: Row) => ${e.tool === "pay" ? `payAsync(${a}, ${b})` : `sendEmailAsync(${a}, ${this.str("row")})`})`;
          this.line(e.tool === "pay" ? `try { await Promise.all(${each}); } catch { }` : `await Promise.all(${each});`);
        } else {
          this.syncOnly++;
          this.line(`rows().forEach(({ to: ${a}, amount: ${b} }: Row) => { if (${b} > ${s.cmp}) ${call()}; });`);
          this.syncOnly--;
        }
        return;
      }
      case "pairPattern": {
        const a = this.fresh("a");
        const b = this.fresh("b");
        this.line(`for (const [${a}, ${b}] of [[${this.str(lits[0]!)}, ${this.str(lits[1 % lits.length]!)}], [${this.expr(s.x)}, ${this.str(lits[2 % lits.length]!)}]]) ${e.tool === "sendEmail" ? `sendEmail(${a}, ${b})` : use(s.cmp > 1 ? b : a)};`);
        return;
      }
    }
  }

  /** Arrays the program builds (see the `locals` statement of ir.ts). */
  protected locals(s: Extract<Stmt, { k: "locals" }>): void {
    const e = s.e;
    const use = (v: string): string => this.fluentUse(e, v) ?? (e.tool === "sendEmail" ? `sendEmail(${v}, ${this.expr(e.s2)})` : e.tool === "pay" ? `pay(${v}, ${this.expr(e.n)})` : e.tool === "log" ? `log(${v})` : `measure(${v}.length)`);
    const useNum = (v: string): string => (e.tool === "pay" ? `pay(${this.expr(e.s)}, ${v})` : `measure(${v})`);
    const out = this.fresh("out");
    const y = this.fresh("y");
    const x = this.expr(s.x);
    const cond = (v: string): string => (s.cond === "startsWith" ? `${v}.startsWith(${x})` : s.cond === "<" ? `${v} < ${x}` : `${v} ${s.cond} ${x}`);
    const lits = `[${s.lits.map((l) => this.str(l)).join(", ")}]`;
    if (s.op === "sum") {
      const t = this.fresh("t");
      const xn = this.expr(s.xn);
      this.line(`const ${out}: number[] = [];`);
      this.line(`for (const ${y} of [${s.nums.map(numberText).join(", ")}]) if (${y} > ${xn}) ${out}.push(${y});`);
      this.line(`let ${t} = 0;`);
      this.line(`for (const ${y} of ${out}) ${t} += ${y};`);
      this.line(`if (${out}.length >= ${s.cmp}) ${useNum(t)};`);
      return;
    }
    if (s.op === "concat") {
      // (Session 43) Arrays of unknown length joined: spread, `push(...xs)`, `flatMap` over literals.
      const src = this.expr(s.src);
      const form = ((s.cmp % 3) + 3) % 3;
      if (form === 0) this.line(`const ${out}: string[] = [...${src}, ...${src}, ${x}];`);
      else if (form === 1) {
        this.line(`const ${out}: string[] = [${x}];`);
        this.line(`${out}.push(...${src}.filter((v) => ${cond("v")}));`);
        this.line(`${out}.push(${this.str(s.lits[0]!)});`);
        this.line(`${use(`${out}[${out}.length - 1]!`)};`);
      } else this.line(`const ${out}: string[] = ${lits}.flatMap((p) => ${src}.filter((v) => v.startsWith(p)));`);
      this.line(`for (const ${y} of ${s.cmp > 2 ? `new Set(${out})` : out}) ${use(y)};`);
      this.line(`if (${out}.length === ${Math.max(0, s.cmp)}) ${this.effect(e)};`);
      return;
    }
    if (s.op === "unknown") {
      this.line(`const ${out}: string[] = [];`);
      this.line(`for (const ${y} of ${this.expr(s.src)}) if (${cond(y)}) ${out}.push(${y});`);
      this.line(`for (const ${y} of ${out}) ${use(y)};`);
      return;
    }
    // Built by pushes under a condition (the first element may be there from the start).
    this.line(`const ${out}: string[] = ${s.cmp % 2 === 0 ? "[]" : `[${this.str(s.lits[0]!)}]`};`);
    this.line(`for (const ${y} of ${lits}) if (${cond(y)}) ${out}.push(${y}${s.cmp > 2 ? ` + ${this.str("!")}` : ""});`);
    const r = this.fresh("r");
    switch (s.op) {
      case "join":
        this.line(`${use(`${out}.join(${s.cmp < 1 ? "" : this.str(", ")})`)};`);
        return;
      case "loop":
        this.line(`for (const ${r} of ${out}) ${use(r)};`);
        return;
      case "count":
        this.line(`if (${out}.length === ${Math.max(0, s.cmp)}) ${this.effect(e)};`);
        return;
      case "pop": case "shift":
        if (s.cmp >= 2) {
          // Drained while its length is positive (`out.shift()!` is defined there), at most `cmp` times;
          // with cmp 4 the first one taken goes back once (a second use of it).
          const n = this.fresh("n");
          this.line(`let ${n} = 0;`);
          this.line(`while (${out}.length > 0 && ${n} < ${s.cmp}) {`);
          this.line(`  const ${r} = ${out}.${s.op}()!;`);
          this.line(`  ${n}++;`);
          this.line(`  ${use(r)};`);
          if (s.cmp === 4) this.line(`  if (${n} === 1) ${out}.push(${r});`);
          this.line("}");
          return;
        }
        this.line(`const ${r}: string | undefined = ${out}.${s.op}();`);
        this.line(`if (${r} !== undefined) ${use(`(${r} as string)`)};`);
        this.line(`${use(`${out}.join(${this.str("/")})`)};`);
        return;
      case "unshift":
        this.line(`if (${out}.unshift(${x}) > ${Math.max(0, s.cmp)}) ${this.effect(e)};`);
        this.line(`const ${r}: string | undefined = ${out}.at(${s.cmp});`);
        this.line(`if (${r} !== undefined) ${use(`(${r} as string)`)};`);
        return;
      case "spread": {
        const all = this.fresh("all");
        this.line(`const ${all}: string[] = [${x}, ...${out}, ...${lits}];`);
        // (Session 42) Sometimes the late elements are pushed as a spread (`push(...more)`).
        this.line(s.cmp % 2 === 0 ? `${out}.push(${this.str("late")});` : `${out}.push(...${lits}, ${this.str("late")});`);
        this.line(`${use(`${all}.join(${this.str("|")})`)};`);
        this.line(`if (${all}.length - ${out}.length === ${s.cmp}) ${this.effect(e)};`);
        return;
      }
      case "alias":
        // (Session 43) Sometimes through a shorthand property (`{ out }`), which hid the store (a wrong proof).
        if (s.cmp % 2 === 1) {
          this.line(`const ${r} = { ${out} };`);
          this.line(`${out}.push(${x});`);
          this.line(`for (const ${y} of ${r}.${out}) ${use(y)};`);
          this.line(`${use(`JSON.stringify(${r})`)};`);
          return;
        }
        this.line(`const ${r}: string[] = ${out};`);
        this.line(`${out}.push(${x});`);
        this.line(`for (const ${y} of ${r}) ${use(y)};`);
        return;
      case "branch": {
        // A change in one alternative only: `&&`, `?:`, `??`, or `||` in a condition (`cmp` picks).
        // What is pushed is `x` (often an input), so a guarantee about the effect's value can see it.
        const form = ((s.cmp % 4) + 4) % 4;
        if (form === 0) this.line(`${out}.length > ${s.cmp > 1 ? 1 : 0} && ${out}.push(${x});`);
        else if (form === 1) this.line(`${out}.includes(${x}) ? ${out}.pop() : ${out}.push(${x});`);
        else if (form === 2) this.line(`${out}.at(0) ?? ${out}.push(${x});`);
        else this.line(`if (${out}.length === 0 || ${out}.push(${x}) > 2) ${this.effect(e)};`);
        this.line(`for (const ${r} of ${out}) ${use(r)};`);
        this.line(`if (${out}.length === ${Math.max(0, s.cmp)}) ${this.effect(e)};`);
        return;
      }
      case "tryPush": {
        // Pushes in a `try` block before its call that may fail (refused: the catch would see it in
        // some runs only), after it, or in the catch alone; a `finally` that pushes (`cmp` picks).
        const where = ((s.cmp % 3) + 3) % 3;
        this.line("try {");
        if (where === 0) this.line(`  ${out}.push(${this.str(s.lits[0]!)});`);
        this.line(`  ${this.effect(e)};`);
        if (where === 1) this.line(`  ${out}.push(${x});`);
        this.line("} catch {");
        this.line(`  ${out}.push(${s.cmp > 3 ? this.str(s.lits[s.lits.length - 1]!) : x});`);
        if (s.cmp > 2) {
          this.line("} finally {");
          this.line(`  ${out}.push(${this.str("fin")});`);
        }
        this.line("}");
        this.line(`for (const ${r} of ${out}) ${use(r)};`);
        return;
      }
      case "tryAssign": {
        // A `let` assigned in a `try` before its call that may fail (refused), after it, or not at
        // all; a catch that reads it or assigns it; a `finally` that reads it (on a throwing path,
        // the value from before) and a `return` in the `try` that runs it.
        const where = ((s.cmp % 3) + 3) % 3;
        const v = this.fresh("v");
        this.line(`let ${v}: string = ${this.str(s.lits[0]!)};`);
        this.line("try {");
        if (where === 0) this.line(`  ${v} = ${x};`);
        // With a `finally`, a return that goes through it (seeing the assignment before it, if any).
        const ret = s.cmp > 2 ? this.returnText() : undefined;
        if (ret) this.line(`  if ((${x} as string) === ${this.str(s.lits[s.lits.length - 1]!)}) ${ret}`);
        this.line(`  ${this.effect(e)};`);
        if (where === 1) this.line(`  ${v} = ${x} + ${this.str("!")};`);
        this.line("} catch {");
        if (s.cmp % 2 === 0) this.line(`  ${use(v)};`);
        else this.line(`  ${v} = ${s.cmp > 3 ? this.str(s.lits[s.lits.length - 1]!) : x};`);
        if (s.cmp > 2) {
          this.line("} finally {");
          this.line(`  ${use(v)};`);
        }
        this.line("}");
        this.line(`${use(v)};`);
        return;
      }
      case "tryCount": {
        // A counter of the calls that returned, in a loop over the literal array inside a `try`
        // (each call may fail: the oracle injects failures), read by the `catch` (the count before
        // the failing call), a `finally` (`cmp` > 2) and the code after.
        const c = this.fresh("c");
        this.line(`let ${c} = ${s.cmp < 0 ? 1 : 0};`);
        this.line("try {");
        this.line(`  for (const ${y} of ${lits}) {`);
        if (s.cmp % 2 === 0) this.line(`    if (${cond(y)}) continue;`);
        this.line(`    ${use(y)};`);
        this.line(`    ${c}${s.cmp > 3 ? " += 2" : "++"};`);
        this.line("  }");
        this.line("} catch {");
        this.line(`  if (${c} === ${Math.max(0, s.cmp)}) ${this.effect(e)};`);
        if (s.cmp > 2) {
          this.line("} finally {");
          this.line(`  ${useNum(c)};`);
        }
        this.line("}");
        this.line(`if (${c} >= ${s.lits.length}) ${this.effect(e)};`);
        return;
      }
      case "entriesChange":
        // The iterator reads the live array: refused, never a snapshot.
        this.line(`for (const [${y}, ${r}] of ${out}.entries()) {`);
        this.line(`  if (${y} === 0) ${out}.push(${x});`);
        this.line(`  ${use(r)};`);
        this.line("}");
        return;
    }
  }

  /** A loop over a tool result with an element promise (see the `elements` statement of ir.ts). */
  protected elements(s: Extract<Stmt, { k: "elements" }>): void {
    const x = this.fresh("x");
    const e = s.e;
    let src: string;
    let holds: string;
    let use: string;
    if (s.src === "prefixed") {
      // The prefix bound once, so the guard and the call read the same value.
      const q = this.fresh("q");
      this.line(`const ${q}: string = ${this.expr(s.prefix)};`);
      this.declare(q, "str", false);
      src = `prefixed(${q})`;
      holds = `${x}.startsWith(${q})`;
      use = this.fluentUse(e, x) ?? (e.tool === "sendEmail" ? `sendEmail(${x}, ${this.expr(e.s2)})` : e.tool === "pay" ? `pay(${x}, ${this.expr(e.n)})` : e.tool === "log" ? `log(${x})` : `measure(${x}.length)`);
    } else if (s.src === "positives") {
      src = "positives()";
      holds = `${x} > 0`;
      use = e.tool === "pay" ? `pay(${this.expr(e.s)}, ${x})` : e.tool === "measure" ? `measure(${x})` : e.tool === "sendEmail" ? `sendEmail(${this.expr(e.s)}, ${this.expr(e.s2)})` : `log(${this.expr(e.s)})`;
    } else {
      src = "credits()";
      holds = `${x}.amount > 0`;
      use = e.tool === "pay" ? `pay(${x}.to, ${x}.amount)` : e.tool === "measure" ? `measure(${x}.amount)` : e.tool === "sendEmail" ? `sendEmail(${x}.to, ${this.expr(e.s2)})` : `log(${x}.to)`;
    }
    this.line(`for (const ${x} of ${src}) {`);
    if (s.guard === "if") this.line(`  if (${holds}) ${use};`);
    else if (s.guard === "unless") this.line(`  if (!(${holds})) ${use};`);
    else {
      if (s.guard === "throw") this.line(`  if (!(${holds})) throw new Error(${this.str("promise")});`);
      this.line(`  ${use};`);
    }
    this.line("}");
  }

}
