/** An async trusted layer for the async tests: the mail/payments layer of the prover tests, with async tools. */
import ts from "typescript";
import { proveProgram } from "../../core/prover/prove";
import type { ProgramVerdict } from "../../core/prover/api";
import { createProgram, PROJECT, stdlibFiles } from "../helpers/program";

export const ASYNC_LAYER = `import { trusted, requires, ensures } from "clauz3";
import { Event, performs } from "clauz3/events";
import { contract, noGuarantees, type ContractSpec } from "clauz3/spec";

export class SendEmail extends Event { constructor(readonly to: string, readonly subject: string) { super(); } }
export class Pay extends Event { constructor(readonly account: string, readonly amount: number) { super(); } }
export interface Invoice { readonly payee: string; readonly total: number }

export const sendEmail = trusted(performs((to: string, subject: string) => new SendEmail(to, subject)), async function sendEmail(to: string, subject: string): Promise<void> {});
export const pay = trusted(performs((account: string, amount: number) => new Pay(account, amount)), requires((amount: number) => amount > 0, "amount must be positive"), async function pay(account: string, amount: number): Promise<string> { return "receipt"; });
export const balance = trusted(ensures((b: number) => b >= 0), async function balance(account: string): Promise<number> { return 0; });
export const contacts = trusted(async function contacts(): Promise<string[]> { return []; });
export const fewContacts = trusted(ensures((r: string[]) => r.length <= 2), function fewContacts(): Promise<string[]> { return Promise.resolve([]); });
export const invoices = trusted(async function invoices(): Promise<Invoice[]> { return []; });
export const syncLog = trusted(performs((to: string, subject: string) => new SendEmail(to, subject)), function syncLog(to: string, subject: string): void {});

/** Never email the address. */
export const neverEmail = contract({ description: "Never email {addr}." }, (addr: string): ContractSpec => SendEmail.all((e) => e.to !== addr));
/** At most n emails. */
export const emailsAtMost = contract({ description: "At most {n} emails." }, (n: number): ContractSpec => SendEmail.count().atMost(n));
/** At least n emails. */
export const emailsAtLeast = contract({ description: "At least {n} emails." }, (n: number): ContractSpec => SendEmail.count().atLeast(n));
/** Nobody emailed twice. */
export const nobodyTwice = contract({ description: "Nobody is emailed twice." }, (): ContractSpec => SendEmail.distinct((e) => e.to));
/** Total paid at most limit. */
export const spendAtMost = contract({ description: "Total payments at most {limit}." }, (limit: number): ContractSpec => Pay.sum((p) => p.amount).atMost(limit));
/** No payment over limit. */
export const noPaymentOver = contract({ description: "No payment over {limit}." }, (limit: number): ContractSpec => Pay.all((p) => p.amount <= limit));
export const nothing = contract({ description: "Nothing is promised." }, (): ContractSpec => noGuarantees());
`;

export const ASYNC_IMPORTS = `import { sendEmail, pay, balance, contacts, fewContacts, invoices, syncLog } from "./tools/mail/trusted/layer";
import * as m from "./tools/mail/trusted/layer";
`;

/** Prove `plan.ts` over the async layer (ASYNC_IMPORTS prepended: body line 1 is file line 3). */
export async function proveAsync(body: string): Promise<ProgramVerdict> {
  const program = createProgram({ ...stdlibFiles(), "tools/mail/trusted/layer.ts": ASYNC_LAYER, "plan.ts": ASYNC_IMPORTS + body });
  const file = program.getSourceFile(`${PROJECT}/plan.ts`)!;
  return proveProgram({ ts, program, file });
}
