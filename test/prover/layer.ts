/** A small in-memory trusted layer for prover unit tests (mail, payments, logging). */
export const TEST_LAYER = `import { trusted, requires, ensures } from "clauz3";
import { Event, performs, effect } from "clauz3/events";
import { contract, allOf, noGuarantees, type ContractSpec } from "clauz3/spec";

export class SendEmail extends Event { constructor(readonly to: string, readonly subject: string) { super(); } }
export class Pay extends Event { constructor(readonly account: string, readonly amount: number) { super(); } }
export class Refund extends Pay {}
export class Log extends Event { constructor(readonly message: string) { super(); } }
export class Unused extends Event { constructor(readonly x: string) { super(); } }
export class Label extends Event { constructor(readonly name: string, readonly length: number) { super(); } }

export interface Row { readonly to: string; readonly amount: number }

export const sendEmail = trusted(performs((to: string, subject: string) => new SendEmail(to, subject)), function sendEmail(to: string, subject: string): void {});
export const pay = trusted(performs((account: string, amount: number) => new Pay(account, amount)), requires((amount: number) => amount > 0, "amount must be positive"), function pay(account: string, amount: number): void {});
export const refund = trusted(performs((account: string, amount: number) => new Refund(account, amount)), function refund(account: string, amount: number): void {});
export const log = trusted(performs((message: string) => new Log(message)), function log(message: string): void {});
export const balance = trusted(ensures((b: number) => b >= 0), function balance(account: string): number { return 0; });
export const contacts = trusted(function contacts(): string[] { return []; });
export const fewContacts = trusted(ensures((r: string[]) => r.length <= 3), function fewContacts(): string[] { return []; });
export const rows = trusted(function rows(): Row[] { return []; });
export const label = trusted(performs((name: string, length: number) => new Label(name, length)), function label(name: string, length: number): void {});

/** Never email the address. */
export const neverEmail = contract({ description: "Never email {addr}." }, (addr: string): ContractSpec => SendEmail.all((e) => e.to !== addr));
/** At most n emails. */
export const emailsAtMost = contract({ description: "At most {n} emails." }, (n: number): ContractSpec => SendEmail.count().atMost(n));
/** At least n emails. */
export const emailsAtLeast = contract({ description: "At least {n} emails." }, (n: number): ContractSpec => SendEmail.count().atLeast(n));
/** Exactly n emails. */
export const emailsExactly = contract({ description: "Exactly {n} emails." }, (n: number): ContractSpec => SendEmail.count().equals(n));
/** Nobody emailed twice. */
export const nobodyTwice = contract({ description: "Nobody is emailed twice." }, (): ContractSpec => SendEmail.distinct((e) => e.to));
/** All emails to one address. */
export const oneRecipient = contract({ description: "All emails go to one address." }, (): ContractSpec => SendEmail.sharesValue((e) => e.to));
/** Total paid at most limit. */
export const spendAtMost = contract({ description: "Total payments at most {limit}." }, (limit: number): ContractSpec => Pay.sum((p) => p.amount).atMost(limit));
/** No payment over limit. */
export const noPaymentOver = contract({ description: "No payment over {limit}." }, (limit: number): ContractSpec => Pay.all((p) => p.amount <= limit));
/** No refunds. */
export const noRefunds = contract({ description: "No refunds." }, (): ContractSpec => Refund.empty());
/** Only these recipients. */
export const onlyTo = contract({ description: "Only email {addrs}." }, (addrs: string[]): ContractSpec => SendEmail.all((e) => addrs.includes(e.to)));
/** Subjects non-empty (over the tool's own parameters). */
export const subjectsNonEmpty = contract({ description: "Every email has a subject." }, (): ContractSpec => effect(sendEmail).all((c) => c.subject !== ""));
/** Internal mail at most n. */
export const internalAtMost = contract({ description: "At most {n} internal emails." }, (n: number): ContractSpec => SendEmail.where((e) => e.to.endsWith("@corp")).count().atMost(n));
/** Both. */
export const safeMail = contract({ description: "Never email {addr}; at most {n} emails." }, (addr: string, n: number): ContractSpec => allOf(neverEmail(addr), emailsAtMost(n)));
/** Unused event. */
export const noUnused = contract({ description: "No unused events." }, (): ContractSpec => Unused.empty());
/** Nothing. */
export const shortLabels = contract({ description: "Labels other than {name} are shorter than {n}." }, (name: string, n: number): ContractSpec => Label.all((e) => e.name === name || e.length < n));
export const nothing = contract({ description: "Nothing is promised." }, (): ContractSpec => noGuarantees());
`;
