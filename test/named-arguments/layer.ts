/**
 * A trusted layer of tools that take one object of named arguments (issue 10), shared by the
 * named-arguments tests: an inline object type, a named interface, a type alias, async tools,
 * builders that destructure and builders that take the whole object, and results that may be
 * `undefined`.
 */
import ts from "typescript";
import { proveProgram } from "../../core/prover/prove";
import type { ProgramVerdict } from "../../core/prover/api";
import { createProgram, PROJECT, stdlibFiles } from "../helpers/program";

export const NAMED_LAYER = `import { trusted, requires, ensures } from "clauz3";
import { Event, performs } from "clauz3/events";
import { contract, effect, noGuarantees, type ContractSpec } from "clauz3/spec";

export class SendEmail extends Event { constructor(readonly to: string, readonly subject: string) { super(); } }
export class Pay extends Event { constructor(readonly account: string, readonly amount: number) { super(); } }
export interface Invoice { readonly payee: string; readonly total: number }
export interface Payment { account: string; amount: number; memo: string }
export type Lookup = { id: string };

/** Send an email. */
export const sendEmail = trusted(
  performs(({ to, subject }) => new SendEmail(to, subject)),
  requires(({ to }) => to.includes("@"), "to must be an address"),
  function sendEmail(msg: { to: string; subject: string; body: string }): void {},
);
/** Pay an amount. */
export const pay = trusted(
  performs((p) => new Pay(p.account, p.amount)),
  requires((p) => p.amount > 0, "amount must be positive"),
  async function pay(p: Payment): Promise<string> { return "receipt"; },
);
/** Fetch an invoice. */
export const getInvoice = trusted(ensures((r: Invoice, { id }) => r.total >= 0 && id !== ""), async function getInvoice(q: Lookup): Promise<Invoice> { return { payee: "x", total: 0 }; });
/** Fetch an invoice synchronously. */
export const invoiceNow = trusted(function invoiceNow(id: string): Invoice { return { payee: "x", total: 0 }; });
/** Find an invoice, if there is one. */
export const findInvoice = trusted(async function findInvoice(q: { payee: string }): Promise<Invoice | undefined> { return undefined; });
/** Draft a message (a record result of the tool's own object type). */
export const draft = trusted(function draft(to: string): { to: string; subject: string; body: string } { return { to, subject: "", body: "" }; });
/** Names under a prefix (an element promise over a named argument). */
export const namesUnder = trusted(ensures((r: string[], { prefix }) => r.every((n) => n.startsWith(prefix)), "every name starts with the prefix"), function namesUnder(q: { prefix: string }): string[] { return []; });
/** Find an address, if there is one. */
export const findAddress = trusted(function findAddress(name: string): string | undefined { return undefined; });

/** Never email the address. */
export const neverEmail = contract({ description: "Never email {addr}." }, (addr: string): ContractSpec => SendEmail.all((e) => e.to !== addr));
/** At most n emails. */
export const emailsAtMost = contract({ description: "At most {n} emails." }, (n: number): ContractSpec => SendEmail.count().atMost(n));
/** At least n emails. */
export const emailsAtLeast = contract({ description: "At least {n} emails." }, (n: number): ContractSpec => SendEmail.count().atLeast(n));
/** No payment over limit. */
export const noPaymentOver = contract({ description: "No payment over {limit}." }, (limit: number): ContractSpec => Pay.all((p) => p.amount <= limit));
/** Never pay the account. */
export const neverPay = contract({ description: "Never pay {account}." }, (account: string): ContractSpec => Pay.all((p) => p.account !== account));
/** No email body mentions the word. */
export const bodiesAvoid = contract({ description: "No email body contains {word}." }, (word: string): ContractSpec => effect(sendEmail).all((c) => !c.body.includes(word)));
export const nothing = contract({ description: "Nothing is promised." }, (): ContractSpec => noGuarantees());
`;

export const NAMED_IMPORTS = `import { sendEmail, pay, getInvoice, invoiceNow, findInvoice, findAddress, draft, namesUnder } from "./tools/mail/trusted/layer";
import * as m from "./tools/mail/trusted/layer";
`;

/** Prove `plan.ts` over the named-arguments layer (NAMED_IMPORTS prepended: body line 1 is file line 3). */
export async function proveNamed(body: string, layer = NAMED_LAYER): Promise<ProgramVerdict> {
  const program = createProgram({ ...stdlibFiles(), "tools/mail/trusted/layer.ts": layer, "plan.ts": NAMED_IMPORTS + body });
  const file = program.getSourceFile(`${PROJECT}/plan.ts`)!;
  return proveProgram({ ts, program, file });
}
