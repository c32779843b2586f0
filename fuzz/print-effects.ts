import type { Effect } from "./ir";
import { ExprPrinter } from "./print-expr";

/**
 * The effects: each tool call a statement performs, as the program writes it (positional, with
 * named arguments, through the async tools, awaited where the function awaits), and the layer
 * tools the programs import beyond the header. The statements around them: print-idioms.ts and
 * print.ts.
 */
export class EffectPrinter extends ExprPrinter {
  /** Layer tools the header does not import, imported after it by the programs that use them. */
  readonly extraImports = new Set<string>();
  /** The statement that returns from the function being printed (`return;`), or none where a return is not drawn (print.ts). */
  protected returnText(): string | undefined {
    return undefined;
  }

  effect(e: Effect): string {
    if (e.async && this.awaits() && (e.tool === "sendEmail" || e.tool === "pay")) return `(await ${this.asyncEffect(e)})`;
    if (e.named && (e.tool === "sendEmail" || e.tool === "pay")) return this.namedEffect(e, e.named);
    switch (e.tool) {
      case "sendEmail": return `sendEmail(${this.expr(e.s)}, ${this.expr(e.s2)})`;
      case "pay": return `pay(${this.expr(e.s)}, ${this.expr(e.n)})`;
      case "log": return `log(${this.expr(e.s)})`;
      case "measure": return `measure(${this.expr(e.n)})`;
      case "lock": case "unlock": return `m.${e.tool}(${this.expr(e.s)})`;
      case "setLevel": return `m.setLevel(${this.expr(e.s)}, ${this.expr(e.n)})`;
    }
  }

  /** A fluent write with a string element as its key (undefined for the other tools). */
  protected fluentUse(e: Effect, x: string): string | undefined {
    return e.tool === "lock" || e.tool === "unlock" ? `m.${e.tool}(${x})` : e.tool === "setLevel" ? `m.setLevel(${x}, ${this.expr(e.n)})` : undefined;
  }

  /** Mail and payments through the tools of one object of named arguments. */
  protected namedEffect(e: Effect, how: NonNullable<Effect["named"]>): string {
    const [tool, k1, k2, v1, v2] = e.tool === "pay" ? ["charge", "account", "amount", this.expr(e.s), this.expr(e.n)] : ["notify", "to", "subject", this.expr(e.s), this.expr(e.s2)];
    // Keys in source order decide the order of evaluation (a helper call in a value may perform events).
    if (how === "reordered") return `${tool}({ ${k2}: ${v2}, ${k1}: ${v1} })`;
    if (how === "spread") return `${tool}({ ...{ ${k1}: ${e.tool === "pay" ? "0" : `""`}, ${k2}: ${v2} }, ${k1}: ${v1} })`;
    return `${tool}({ ${k1}: ${v1}, ${k2}: ${v2} })`;
  }

  /** The async tool's call for an effect (its promise, not awaited): mail for `log` and `measure`. */
  protected asyncEffect(e: Effect): string {
    return e.tool === "pay" ? `payAsync(${this.expr(e.s)}, ${this.expr(e.n)})` : `sendEmailAsync(${this.expr(e.s)}, ${this.expr(e.s2)})`;
  }
}
