/**
 * Regular expressions of a query's `str.in_re` as the guesser evaluates them (guess/evaluate.ts):
 * built from SMT-LIB's `re.*` terms and matched by derivatives (Brzozowski), which handle
 * complement and intersection as exactly as union and star. Characters are UTF-16 code units, as
 * under Z3's `:encoding bmp`. A guess is only ever believed after Z3 evaluates the query in the
 * model, so a mistake here costs a guess, never an answer.
 */

/** A regular expression, interned: equal structures are the same object (unions stay small). */
export type Re =
  | { readonly kind: "none"; readonly id: number }
  | { readonly kind: "eps"; readonly id: number }
  | { readonly kind: "range"; readonly id: number; readonly lo: number; readonly hi: number }
  | { readonly kind: "cat"; readonly id: number; readonly a: Re; readonly b: Re }
  | { readonly kind: "union"; readonly id: number; readonly items: readonly Re[] }
  | { readonly kind: "inter"; readonly id: number; readonly a: Re; readonly b: Re }
  | { readonly kind: "star"; readonly id: number; readonly a: Re }
  | { readonly kind: "comp"; readonly id: number; readonly a: Re };

/** Too many distinct expressions while matching: the guess gives up rather than grow without bound. */
export class RegexTooLarge extends Error {}

const MAX_NODES = 20_000;

/** Interned expressions of one query (each query gets its own table). */
export class Regexes {
  /** Called once per expression made and per derivative computed: the guesser counts it as work. */
  constructor(private readonly step: () => void = () => undefined) {
    this.none = this.intern("none", () => ({ kind: "none", id: this.table.size }));
    this.eps = this.intern("eps", () => ({ kind: "eps", id: this.table.size }));
    this.all = this.star(this.range(0, 0xffff));
  }

  private readonly table = new Map<string, Re>();
  private readonly derivatives = new Map<string, Re>();
  readonly none: Re;
  readonly eps: Re;
  readonly all: Re;

  private intern(key: string, make: () => Re): Re {
    let re = this.table.get(key);
    if (!re) {
      this.step();
      if (this.table.size >= MAX_NODES) throw new RegexTooLarge("a regular expression grew too large to match");
      re = make();
      this.table.set(key, re);
    }
    return re;
  }

  range(lo: number, hi: number): Re {
    if (lo > hi) return this.none;
    return this.intern(`r${lo},${hi}`, () => ({ kind: "range", id: this.table.size, lo, hi }));
  }

  /** The expression that matches exactly `s`. */
  word(s: string): Re {
    let re = this.eps;
    for (let i = s.length - 1; i >= 0; i--) re = this.cat(this.range(s.charCodeAt(i), s.charCodeAt(i)), re);
    return re;
  }

  cat(a: Re, b: Re): Re {
    if (a.kind === "none" || b.kind === "none") return this.none;
    if (a.kind === "eps") return b;
    if (b.kind === "eps") return a;
    // Right-nested, so that a derivative peels one character at a time.
    if (a.kind === "cat") return this.cat(a.a, this.cat(a.b, b));
    return this.intern(`c${a.id},${b.id}`, () => ({ kind: "cat", id: this.table.size, a, b }));
  }

  union(...res: Re[]): Re {
    const items = new Map<number, Re>();
    for (const re of res) {
      for (const item of re.kind === "union" ? re.items : [re]) {
        if (item.kind !== "none") items.set(item.id, item);
      }
    }
    if (items.size === 0) return this.none;
    if (items.size === 1) return [...items.values()][0]!;
    const sorted = [...items.values()].sort((x, y) => x.id - y.id);
    return this.intern(`u${sorted.map((r) => r.id).join(",")}`, () => ({ kind: "union", id: this.table.size, items: sorted }));
  }

  inter(a: Re, b: Re): Re {
    if (a.kind === "none" || b.kind === "none") return this.none;
    if (a === b) return a;
    const [x, y] = a.id < b.id ? [a, b] : [b, a];
    return this.intern(`i${x.id},${y.id}`, () => ({ kind: "inter", id: this.table.size, a: x, b: y }));
  }

  star(a: Re): Re {
    if (a.kind === "none" || a.kind === "eps") return this.eps;
    if (a.kind === "star") return a;
    return this.intern(`s${a.id}`, () => ({ kind: "star", id: this.table.size, a }));
  }

  comp(a: Re): Re {
    if (a.kind === "comp") return a.a;
    return this.intern(`n${a.id}`, () => ({ kind: "comp", id: this.table.size, a }));
  }

  /** `(_ re.loop lo hi) a`: between `lo` and `hi` copies of `a` (hi undefined: no upper bound). */
  loop(a: Re, lo: number, hi: number | undefined): Re {
    let re = this.eps;
    for (let i = 0; i < lo; i++) re = this.cat(a, re);
    if (hi === undefined) return this.cat(re, this.star(a));
    let optional = this.eps;
    for (let i = lo; i < hi; i++) optional = this.union(this.eps, this.cat(a, optional));
    return this.cat(re, optional);
  }

  nullable(re: Re): boolean {
    switch (re.kind) {
      case "none": case "range": return false;
      case "eps": case "star": return true;
      case "cat": return this.nullable(re.a) && this.nullable(re.b);
      case "union": return re.items.some((r) => this.nullable(r));
      case "inter": return this.nullable(re.a) && this.nullable(re.b);
      case "comp": return !this.nullable(re.a);
    }
  }

  /** The derivative of `re` by the character `c`: what must match the rest after `c`. */
  derive(re: Re, c: number): Re {
    const key = `${re.id}:${c}`;
    const known = this.derivatives.get(key);
    if (known) return known;
    this.step();
    let d: Re;
    switch (re.kind) {
      case "none": case "eps": d = this.none; break;
      case "range": d = c >= re.lo && c <= re.hi ? this.eps : this.none; break;
      case "cat": {
        const first = this.cat(this.derive(re.a, c), re.b);
        d = this.nullable(re.a) ? this.union(first, this.derive(re.b, c)) : first;
        break;
      }
      case "union": d = this.union(...re.items.map((r) => this.derive(r, c))); break;
      case "inter": d = this.inter(this.derive(re.a, c), this.derive(re.b, c)); break;
      case "star": d = this.cat(this.derive(re.a, c), re); break;
      case "comp": d = this.comp(this.derive(re.a, c)); break;
    }
    this.derivatives.set(key, d);
    return d;
  }

  matches(re: Re, s: string): boolean {
    let r = re;
    for (let i = 0; i < s.length; i++) {
      r = this.derive(r, s.charCodeAt(i));
      if (r.kind === "none") return false;
    }
    return this.nullable(r);
  }
}
