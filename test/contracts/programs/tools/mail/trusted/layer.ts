/**
 * The trusted layer of the contract-language tests (test/contracts/): mail with a body (joins), an
 * environment whose listing promises something about its elements, and invoices whose amounts are
 * promised positive. The tests mount this text in an in-memory project; the corpus programs beside
 * it import it as `./tools/mail/trusted/layer`.
 */
import { trusted, requires, ensures } from "clauz3";
import { Event, performs } from "clauz3/events";
import { contract, effect, type ContractSpec } from "clauz3/spec";

export class SendEmail extends Event { constructor(readonly to: string, readonly body: string) { super(); } }
export class ReadEnv extends Event { constructor(readonly name: string) { super(); } }
export class Pay extends Event { constructor(readonly account: string, readonly amount: number) { super(); } }

export interface Invoice { readonly account: string; readonly amount: number }

export const sendEmail = trusted(performs((to: string, body: string) => new SendEmail(to, body)), function sendEmail(to: string, body: string): void {});
export const readEnv = trusted(performs((name: string) => new ReadEnv(name)), function readEnv(name: string): string { return ""; });
export const listEnv = trusted(
  ensures((names: string[], prefix: string) => names.every((n) => n.startsWith(prefix)), "every name starts with the prefix"),
  function listEnv(prefix: string): string[] { return []; },
);
export const drafts = trusted(function drafts(): string[] { return []; });
export const openInvoices = trusted(ensures((r: Invoice[]) => r.every((inv) => inv.amount > 0)), function openInvoices(): Invoice[] { return []; });
export const fewInvoices = trusted(
  ensures((r: Invoice[]) => r.length <= 3),
  ensures((r: Invoice[]) => r.every((inv) => inv.amount > 0 && inv.account !== "")),
  function fewInvoices(): Invoice[] { return []; },
);
export const pay = trusted(performs((account: string, amount: number) => new Pay(account, amount)), requires((amount: number) => amount > 0, "amount must be positive"), function pay(account: string, amount: number): void {});

/** Two recipients received the same message. */
export const sameContent = contract(
  { description: "{a} and {b} received the same message." },
  (a: string, b: string): ContractSpec => SendEmail.where((e) => e.to === a).sharesValueWith(SendEmail.where((e) => e.to === b), (e) => e.body),
);
/** Someone other than a was sent a message a was sent. */
export const copiedTo = contract(
  { description: "A message sent to {a} was also sent to someone else." },
  (a: string): ContractSpec => SendEmail.where((e) => e.to === a).sharesValueWith(SendEmail.where((e) => e.to !== a), (e) => e.body),
);
/** All mail goes to one address (the new name). */
export const oneRecipient = contract({ description: "All emails go to one address." }, (): ContractSpec => SendEmail.allSameValue((e) => e.to));
/** All mail goes to one address (the deprecated name). */
export const oneRecipientOld = contract({ description: "All emails go to one address (old name)." }, (): ContractSpec => SendEmail.sharesValue((e) => e.to));
/** Only names under the prefix are read. */
export const readsOnlyUnder = contract(
  { description: "Only environment variables starting with {prefix} are read." },
  (prefix: string): ContractSpec => ReadEnv.all((e) => e.name.startsWith(prefix)),
);
/** No payment of zero or less. */
export const positivePayments = contract({ description: "Every payment is positive." }, (): ContractSpec => Pay.all((p) => p.amount > 0));
/** No payment to the empty account. */
export const namedAccounts = contract({ description: "Every payment names an account." }, (): ContractSpec => Pay.all((p) => p.account !== ""));
/** A call of sendEmail to a has the body of an email to b (an effect relation on one side of a join). */
export const callMatchesEvent = contract(
  { description: "A call sending to {a} has the body of an email to {b}." },
  (a: string, b: string): ContractSpec => effect(sendEmail).where((x) => x.to === a).sharesValueWith(SendEmail.where((e) => e.to === b), (x) => x.body),
);
