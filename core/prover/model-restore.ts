/**
 * Writing the values of a reformulation's stand-ins back into a model (int-floats.ts,
 * float-floors.ts): a query solved in another form gives a model of that form, and the original
 * assertions are checked in it (z3.ts) only once the original's own constants and functions have
 * values there.
 */
type LowLevel = Awaited<ReturnType<typeof import("z3-solver").init>>["Z3"];

/** A constant (`args` empty) or a function applied to numerals of the original, and its value. */
export interface Interpretation {
  readonly name: string;
  readonly args: readonly bigint[];
  readonly value: { readonly sort: "Int"; readonly int: bigint } | { readonly sort: "Float64"; readonly float: number };
}

/** The model's value of a constant of the reformulated query as Z3 prints it, or undefined. */
export function constantValue(z3: LowLevel, ctx: never, model: unknown, name: string, sort: "Int" | "Bool" | "Float64"): string | undefined {
  const held: unknown[] = [];
  const hold = <A>(a: A): A => {
    z3.inc_ref(ctx, a as never);
    held.push(a);
    return a;
  };
  try {
    const s = hold(sort === "Int" ? z3.mk_int_sort(ctx) : sort === "Bool" ? z3.mk_bool_sort(ctx) : z3.mk_fpa_sort_64(ctx));
    const constant = hold(z3.mk_const(ctx, z3.mk_string_symbol(ctx, name), s as never));
    const value = z3.model_eval(ctx, model as never, constant, true);
    return value === null ? undefined : z3.ast_to_string(ctx, value);
  } finally {
    for (const a of held) z3.dec_ref(ctx, a as never);
  }
}

/** Give each of `entries` its value in `model` (a function's other arguments get a default: the original reads them nowhere). */
export function interpret(z3: LowLevel, ctx: never, model: unknown, entries: readonly Interpretation[]): void {
  // In a reference-counted context a new term lives only until the next API call unless it is
  // referenced: every term made here is held until the model has taken its own references. (An
  // unheld declaration was freed under the model when nothing else named it, and Z3 later looped
  // forever deleting the model.)
  const held: unknown[] = [];
  const hold = <A>(a: A): A => {
    z3.inc_ref(ctx, a as never);
    held.push(a);
    return a;
  };
  const intSort = hold(z3.mk_int_sort(ctx));
  const floatSort = hold(z3.mk_fpa_sort_64(ctx));
  const int = (n: bigint) => hold(z3.mk_numeral(ctx, n.toString(), intSort));
  const valueOf = (v: Interpretation["value"]) => {
    if (v.sort === "Int") return int(v.int);
    if (Number.isNaN(v.float)) return hold(z3.mk_fpa_nan(ctx, floatSort));
    if (!Number.isFinite(v.float)) return hold(z3.mk_fpa_inf(ctx, floatSort, v.float < 0));
    if (v.float === 0) return hold(z3.mk_fpa_zero(ctx, floatSort, Object.is(v.float, -0)));
    return hold(z3.mk_fpa_numeral_double(ctx, v.float, floatSort));
  };
  const functions = new Map<string, ReturnType<LowLevel["add_func_interp"]>>();
  try {
    for (const { name, args, value } of entries) {
      const range = value.sort === "Int" ? intSort : floatSort;
      const decl = hold(z3.mk_func_decl(ctx, z3.mk_string_symbol(ctx, name), args.map(() => intSort), range));
      if (args.length === 0) {
        z3.add_const_interp(ctx, model as never, decl, valueOf(value));
        continue;
      }
      let interp = functions.get(name);
      if (!interp) {
        interp = z3.add_func_interp(ctx, model as never, decl, value.sort === "Int" ? int(0n) : valueOf({ sort: "Float64", float: 0 }));
        z3.func_interp_inc_ref(ctx, interp);
        functions.set(name, interp);
      }
      const vector = z3.mk_ast_vector(ctx);
      z3.ast_vector_inc_ref(ctx, vector);
      for (const a of args) z3.ast_vector_push(ctx, vector, int(a));
      z3.func_interp_add_entry(ctx, interp, vector, valueOf(value));
      z3.ast_vector_dec_ref(ctx, vector);
    }
  } finally {
    for (const interp of functions.values()) z3.func_interp_dec_ref(ctx, interp);
    for (const a of held) z3.dec_ref(ctx, a as never);
  }
}
