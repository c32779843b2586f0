/** Tools of unknown-length results for the loop-state tests (mail and payment tools come from test/prover/layer.ts). */
export const LOOP_TOOLS = `import { trusted, ensures } from "clauz3";

export interface Invoice { readonly payee: string; readonly amount: number }

/** Any number of invoices, each amount an integer in (0, 1000]. */
export const openInvoices = trusted(
  ensures((r: Invoice[]) => r.every((inv) => Number.isInteger(inv.amount) && inv.amount > 0 && inv.amount <= 1000), "integral amounts in (0, 1000]"),
  async function openInvoices(): Promise<Invoice[]> { return []; },
);
/** Any number of invoices, each amount an integer in [-1000, 1000] (credits are negative). */
export const ledger = trusted(
  ensures((r: Invoice[]) => r.every((inv) => Number.isInteger(inv.amount) && inv.amount >= -1000 && inv.amount <= 1000), "integral amounts in [-1000, 1000]"),
  function ledger(): Invoice[] { return []; },
);
/** Any number of invoices with amounts that may be fractions. */
export const roughInvoices = trusted(
  ensures((r: Invoice[]) => r.every((inv) => inv.amount > 0 && inv.amount <= 1000), "amounts in (0, 1000]"),
  function roughInvoices(): Invoice[] { return []; },
);
/** A number nobody bounds. */
export const score = trusted(function score(who: string): number { return 0; });
`;
export const LOOP_EXTRA = { "tools/loops/trusted/layer.ts": LOOP_TOOLS };
export const LOOP_IMPORT = `import { openInvoices, ledger, roughInvoices, score } from "./tools/loops/trusted/layer";\n`;
