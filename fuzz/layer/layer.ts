/**
 * The trusted layer of the differential tester (read as text, mounted at
 * `tools/fuzz/trusted/layer.ts` of each generated project). Effects: mail, payments, logs,
 * measurements. Value tools return every shape the prover reads: string, number, boolean, arrays
 * (bounded by an `ensures` and unbounded), records, and `T | undefined` (modelled exactly: defined
 * or `undefined`). The implementations are replaced by the oracle when it runs a
 * program: every call returns a value the oracle chooses among those the `ensures` allow.
 */
import { trusted, requires, ensures } from "clauz3";
import { Event, performs, effect, fluent, updates } from "clauz3/events";
import { contract, allOf, noGuarantees, type ContractSpec } from "clauz3/spec";

export class SendEmail extends Event { constructor(readonly to: string, readonly subject: string) { super(); } }
export class Pay extends Event { constructor(readonly account: string, readonly amount: number) { super(); } }
export class Log extends Event { constructor(readonly message: string) { super(); } }
export class Metric extends Event { constructor(readonly value: number) { super(); } }

export interface Row { readonly to: string; readonly amount: number }

export const sendEmail = trusted(performs((to: string, subject: string) => new SendEmail(to, subject)), function sendEmail(to: string, subject: string): void {});
export const pay = trusted(performs((account: string, amount: number) => new Pay(account, amount)), requires((amount: number) => amount > 0, "amount must be positive"), function pay(account: string, amount: number): void {});
export const log = trusted(performs((message: string) => new Log(message)), function log(message: string): void {});
export const measure = trusted(performs((value: number) => new Metric(value)), function measure(value: number): void {});

export const lookup = trusted(function lookup(key: string): string { return key; });
export const score = trusted(ensures((s: number) => s >= 0), function score(key: string): number { return key.length; });
export const ratio = trusted(function ratio(): number { return 0; });
export const isOpen = trusted(function isOpen(key: string): boolean { return key === ""; });
export const names = trusted(function names(): string[] { return []; });
export const few = trusted(ensures((r: string[]) => r.length <= 3), function few(): string[] { return []; });
export const amounts = trusted(ensures((r: number[]) => r.length <= 2), function amounts(): number[] { return []; });
export const rows = trusted(function rows(): Row[] { return []; });
export const entry = trusted(function entry(key: string): Row { return { to: key, amount: 0 }; });
export const maybeName = trusted(function maybeName(key: string): string | undefined { return key === "" ? undefined : key; });
export const maybeCount = trusted(function maybeCount(): number | undefined { return undefined; });

// Async tools: the same events and contracts as their sync counterparts, awaited by async programs.
// (Last: the oracle draws tool results in this order, so the streams of the tools above are unchanged.)
export const sendEmailAsync = trusted(performs((to: string, subject: string) => new SendEmail(to, subject)), async function sendEmailAsync(to: string, subject: string): Promise<void> {});
export const payAsync = trusted(performs((account: string, amount: number) => new Pay(account, amount)), requires((amount: number) => amount > 0, "amount must be positive"), async function payAsync(account: string, amount: number): Promise<void> {});
export const lookupAsync = trusted(async function lookupAsync(key: string): Promise<string> { return key; });
export const namesAsync = trusted(async function namesAsync(): Promise<string[]> { return []; });

// Tools with element promises (issue 13): every element keeps a condition over itself and the
// arguments. (After the async tools: the oracle gives a tool from here on a stream of results only
// in programs that call it, so the runs of other programs are unchanged.)
export const prefixed = trusted(ensures((r: string[], prefix: string) => r.every((n) => n.startsWith(prefix)), "every name starts with the prefix"), function prefixed(prefix: string): string[] { return [prefix]; });
export const positives = trusted(ensures((r: number[]) => r.every((x) => x > 0)), function positives(): number[] { return []; });
export const credits = trusted(ensures((r: Row[]) => r.every((c) => c.amount > 0)), function credits(): Row[] { return []; });

// Tools of one object of named arguments (issue 10): the same events and precondition as `sendEmail`
// and `pay`, a builder that destructures and one that takes the whole object; and a record result
// that may be undefined. (Last, for the same reason as above.)
export interface Payment { account: string; amount: number }
export const notify = trusted(performs(({ to, subject }) => new SendEmail(to, subject)), function notify(msg: { to: string; subject: string }): void {});
export const charge = trusted(performs((p) => new Pay(p.account, p.amount)), requires(({ amount }) => amount > 0, "amount must be positive"), function charge(p: Payment): void {});
export const findRow = trusted(function findRow(q: { key: string }): Row | undefined { return q.key === "" ? undefined : { to: q.key, amount: 0 }; });
export const maybeNull = trusted(function maybeNull(key: string): string | null { return key === "" ? null : key; });

// Integral results (integers as Int terms, issue 14): amounts an `ensures` declares whole and
// bounded, and a small integer that may be -0. (Last, and on demand, for the same reason as above.)
export const wholes = trusted(
  ensures((r: Row[]) => r.length <= 4),
  ensures((r: Row[]) => r.every((c) => Number.isInteger(c.amount) && c.amount > 0 && c.amount <= 1000)),
  function wholes(): Row[] { return []; },
);
export const tally = trusted(ensures((n: number) => Number.isInteger(n) && n >= -2 && n <= 3), function tally(): number { return 0; });
// Integral amounts in a list of any length (state carried across iterations, issue 10). (Last, and on demand.)
export const invoices = trusted(
  ensures((r: Row[]) => r.every((c) => Number.isInteger(c.amount) && c.amount > 0 && c.amount <= 1000)),
  function invoices(): Row[] { return []; },
);

/** Never email the address. */
export const neverEmail = contract({ description: "Never email {addr}." }, (addr: string): ContractSpec => SendEmail.all((e) => e.to !== addr));
/** At most n emails. */
export const emailsAtMost = contract({ description: "At most {n} emails." }, (n: number): ContractSpec => SendEmail.count().atMost(n));
/** At least n emails. */
export const emailsAtLeast = contract({ description: "At least {n} emails." }, (n: number): ContractSpec => SendEmail.count().atLeast(n));
/** Exactly n emails. */
export const emailsExactly = contract({ description: "Exactly {n} emails." }, (n: number): ContractSpec => SendEmail.count().equals(n));
/** Between lo and hi emails. */
export const emailsBetween = contract({ description: "Between {lo} and {hi} emails." }, (lo: number, hi: number): ContractSpec => SendEmail.count().between(lo, hi));
/** Nobody is emailed twice. */
export const nobodyTwice = contract({ description: "Nobody is emailed twice." }, (): ContractSpec => SendEmail.distinct((e) => e.to));
/** All emails go to one address. */
export const oneRecipient = contract({ description: "All emails go to one address." }, (): ContractSpec => SendEmail.allSameValue((e) => e.to));
/** Only these recipients. */
export const onlyTo = contract({ description: "Only email {addrs}." }, (addrs: string[]): ContractSpec => SendEmail.all((e) => addrs.includes(e.to)));
/** Every email has a subject (over the tool's own parameters). */
export const subjectsNonEmpty = contract({ description: "Every email has a subject." }, (): ContractSpec => effect(sendEmail).all((c) => c.subject !== ""));
/** At most n emails to addresses ending in "@corp". */
export const internalAtMost = contract({ description: "At most {n} internal emails." }, (n: number): ContractSpec => SendEmail.where((e) => e.to.endsWith("@corp")).count().atMost(n));
/** Never email addr; at most n emails. */
export const safeMail = contract({ description: "Never email {addr}; at most {n} emails." }, (addr: string, n: number): ContractSpec => allOf(neverEmail(addr), emailsAtMost(n)));
/** Total payments at most limit. */
export const spendAtMost = contract({ description: "Total payments at most {limit}." }, (limit: number): ContractSpec => Pay.sum((p) => p.amount).atMost(limit));
/** No payment over limit. */
export const noPaymentOver = contract({ description: "No payment over {limit}." }, (limit: number): ContractSpec => Pay.all((p) => p.amount <= limit));
/** Never pay the account. */
export const noPayTo = contract({ description: "Never pay {account}." }, (account: string): ContractSpec => Pay.all((p) => p.account !== account));
/** Never log the message. */
export const neverLog = contract({ description: "Never log {message}." }, (message: string): ContractSpec => Log.all((e) => e.message !== message));
/** No log message starts with prefix. */
export const neverLogPrefix = contract({ description: "No log message starts with {prefix}." }, (prefix: string): ContractSpec => Log.all((e) => !e.message.startsWith(prefix)));
/** No log message contains part. */
export const neverLogContaining = contract({ description: "No log message contains {part}." }, (part: string): ContractSpec => Log.all((e) => !e.message.includes(part)));
/** Every log message is shorter than n. */
export const shortLogs = contract({ description: "Every log message is shorter than {n}." }, (n: number): ContractSpec => Log.all((e) => e.message.length < n));
/** At most n log messages. */
export const logsAtMost = contract({ description: "At most {n} log messages." }, (n: number): ContractSpec => Log.count().atMost(n));
/** At least n log messages. */
export const logsAtLeast = contract({ description: "At least {n} log messages." }, (n: number): ContractSpec => Log.count().atLeast(n));
/** No message is logged twice. */
export const distinctLogs = contract({ description: "No message is logged twice." }, (): ContractSpec => Log.distinct((e) => e.message));
/** Every measurement is below n. */
export const measuresBelow = contract({ description: "Every measurement is below {n}." }, (n: number): ContractSpec => Metric.all((e) => e.value < n));
/** No measurement is v. */
export const neverMeasure = contract({ description: "No measurement is {v}." }, (v: number): ContractSpec => Metric.all((e) => e.value !== v));
/** The measurements add up to at most limit. */
export const measuresSumAtMost = contract({ description: "The measurements add up to at most {limit}." }, (limit: number): ContractSpec => Metric.sum((e) => e.value).atMost(limit));
/** No value is measured twice (numbers: NaN is never equal to itself, -0 equals 0). */
export const distinctMeasures = contract({ description: "No value is measured twice." }, (): ContractSpec => Metric.distinct((e) => e.value));
/** Every measurement has the same value. */
export const oneMeasure = contract({ description: "Every measurement has the same value." }, (): ContractSpec => Metric.allSameValue((e) => e.value));
/** No account is paid twice. */
export const payOnce = contract({ description: "No account is paid twice." }, (): ContractSpec => Pay.distinct((p) => p.account));
/** At most n measurements. */
export const measuresAtMost = contract({ description: "At most {n} measurements." }, (n: number): ContractSpec => Metric.count().atMost(n));
/** Nothing is promised. */
export const nothing = contract({ description: "Nothing is promised." }, (): ContractSpec => noGuarantees());
/** Every log message starts with prefix (proved through `prefixed`'s element promise). */
export const logsStartWith = contract({ description: "Every log message starts with {prefix}." }, (prefix: string): ContractSpec => Log.all((e) => e.message.startsWith(prefix)));
/** Every measurement is positive (proved through `positives`' element promise). */
export const measuresPositive = contract({ description: "Every measurement is positive." }, (): ContractSpec => Metric.all((e) => e.value > 0));
/** A message sent to a was also sent to b (a join: some email to a and some email to b have the same subject). */
export const alsoSentTo = contract({ description: "A message sent to {a} was also sent to {b}." }, (a: string, b: string): ContractSpec => SendEmail.where((e) => e.to === a).sharesValueWith(SendEmail.where((e) => e.to === b), (e) => e.subject));
/** Some payment to a has the amount of some pay call to b (a join over an effect relation, with a number key). */
export const paidAsTo = contract({ description: "Some payment to {a} has the amount of a payment to {b}." }, (a: string, b: string): ContractSpec => Pay.where((p) => p.account === a).sharesValueWith(effect(pay).where((c) => c.account === b), (p) => p.amount));
/** Some email was sent (a join of the emails with the sendEmail calls: an email pairs with its own call). */
export const someEmail = contract({ description: "Some email was sent." }, (): ContractSpec => SendEmail.sharesValueWith(effect(sendEmail), (e) => e.subject));
/** Some measurement other than v was measured (a join with the measure calls: NaN matches nothing, -0 matches 0). */
export const measuredOtherThan = contract({ description: "Some measurement other than {v} was taken." }, (v: number): ContractSpec => Metric.where((e) => e.value !== v).sharesValueWith(effect(measure), (e) => e.value));

// Fluents (issue 13 part 3): doors and levels, written in program order; the guarantees are about
// the final state. (Last: tools that return nothing draw no results, and nothing above changes.)
export const Locked = fluent("Locked", { key: String, value: Boolean, initial: false });
export const Level = fluent("Level", { key: String, value: Number, initial: 0 });
export const lock = trusted(updates((door: string) => Locked.set(door, true)), function lock(door: string): void {});
export const unlock = trusted(updates((door: string) => Locked.set(door, false)), function unlock(door: string): void {});
export const setLevel = trusted(updates((key: string, level: number) => Level.set(key, level)), function setLevel(key: string, level: number): void {});

/** The door is locked when the program ends. */
export const lockedAtEnd = contract({ description: "Door {door} is locked when the program ends." }, (door: string): ContractSpec => Locked.final.at(door).equals(true));
/** The door is unlocked when the program ends. */
export const unlockedAtEnd = contract({ description: "Door {door} is unlocked when the program ends." }, (door: string): ContractSpec => Locked.final.at(door).equals(false));
/** Every door the program touched is locked at the end. */
export const everyLocked = contract({ description: "Every door the program touched is locked when it ends." }, (): ContractSpec => Locked.final.all((e) => e.value));
/** The level at a key ends at a value. */
export const levelIs = contract({ description: "Level {key} ends at {v}." }, (key: string, v: number): ContractSpec => Level.final.at(key).equals(v));
/** Every level the program set ends at most n. */
export const levelsAtMost = contract({ description: "Every level the program set ends at most {n}." }, (n: number): ContractSpec => Level.final.all((e) => e.value <= n));
