/**
 * The value a `catch (err)` binds (core/prover/exec/caught.ts): an Error whenever the program's
 * own throws are `new Error(…)` (`TypeError`, `RangeError`) or rethrow a caught value (the runtime
 * turns anything else a tool throws into a ToolFailedError). `String(err)`, `${err}`,
 * `err.message` are strings the prover does not know (one per entry into the `catch`), and
 * `err instanceof Error` is true; other reads are refused. Verdicts decided from JavaScript's
 * semantics: a tool may throw an Error of any name and message. IMPORTS are prepended: body line 1
 * is file line 3.
 */
import { describe } from "vitest";
import { proveCases, type ProveCase } from "../prover/prove-helpers";

const CASES: readonly ProveCase[] = [
  {
    name: "proved: the error's text after a prefix is never an empty subject",
    verdict: "proved",
    body: `export const guarantees = [m.subjectsNonEmpty()];
export function main(a: string): void {
  try {
    log(a);
  } catch (err) {
    sendEmail("ops", \`log failed: \${String(err)}\`);
  }
}`,
  },
  {
    name: "violated: the error's message alone may be empty (an Error with no message)",
    verdict: "violated",
    line: 8,
    body: `export const guarantees = [m.subjectsNonEmpty()];
export function main(a: string): void {
  try {
    log(a);
  } catch (err) {
    sendEmail("ops", err instanceof Error ? err.message : "unknown");
  }
}`,
  },
  {
    name: "violated: the error's text is the address emailed, and a tool may throw any text",
    verdict: "violated",
    line: 8,
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(a: string): void {
  try {
    log(a);
  } catch (err) {
    sendEmail("" + err, "failed");
  }
}`,
  },
  {
    name: "proved: two reads of one caught error agree",
    verdict: "proved",
    body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string): void {
  try {
    log(a);
  } catch (err) {
    if (String(err) !== \`\${err}\` || (err as Error).message !== (err as Error).message) sendEmail("ops", "impossible");
  }
}`,
  },
  {
    name: "proved: a rethrown error reaches the outer catch as an Error (its text after a prefix)",
    verdict: "proved",
    body: `export const guarantees = [m.subjectsNonEmpty()];
export function main(a: string): void {
  try {
    try {
      log(a);
    } catch (e) {
      log("retrying");
      throw e;
    }
  } catch (outer) {
    sendEmail("ops", "failed twice: " + String(outer));
  }
}`,
  },
  {
    name: "proved: the program's own Error is caught and its text read",
    verdict: "proved",
    body: `export const guarantees = [m.subjectsNonEmpty()];
export function main(a: string): void {
  try {
    if (a === "") throw new RangeError("empty");
    log(a);
  } catch (err) {
    sendEmail("ops", \`[\${err}]\`);
  }
}`,
  },
  {
    name: "proved: the texts of the program's own Error are exactly JavaScript's (a try block that calls no tool)",
    verdict: "proved",
    body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string): void {
  try {
    if (a === "") throw new RangeError("empty input");
    if (a === "x") throw new Error();
  } catch (e) {
    const text = String(e);
    if (text !== "RangeError: empty input" && text !== "Error") sendEmail("ops", text);
    if ((e as Error).message !== "empty input" && (e as Error).message !== "") sendEmail("ops", "message");
  }
}`,
  },
  {
    name: "violated: the message of the program's own Error is not its text",
    verdict: "violated",
    line: 8,
    body: `export const guarantees = [m.neverEmail("RangeError: empty input")];
export function main(a: string): void {
  try {
    if (a === "") throw new RangeError(\`empty \${"input"}\`);
  } catch (e) {
    sendEmail(String(e), "failed");
  }
}`,
  },
  {
    name: "refused (true verdict: proved): the engine's text for a read of undefined is not modelled, so no counterexample is read from it",
    verdict: "refused",
    match: /engine or the runtime/,
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(xs: string[]): void {
  try {
    if (xs[0].trim() === "") throw new Error("blank");
  } catch (e) {
    sendEmail(String(e), "failed");
  }
}`,
  },
  {
    name: "violated: a run in which nothing fails misses the lower bound, while the runtime's text for a failing requires reaches an event in the catch",
    verdict: "violated",
    match: /emailsAtLeast\(n=1\) is violated[^\n]*main\(amount=/,
    body: `export const guarantees = [m.emailsAtLeast(1)];
export function main(amount: number): void {
  try {
    pay("acct", amount);
  } catch (e) {
    sendEmail("ops", \`payment failed: \${String(e)}\`);
  }
}`,
  },
  {
    name: "violated: such a text only logged changes no event: the retry after a failed send is found",
    verdict: "violated",
    line: 10,
    body: `export const guarantees = [m.emailsAtMost(1)];
export function main(xs: string[]): void {
  try {
    if (xs[0].trim() === "") throw new Error("blank");
    sendEmail("ops", "first");
  } catch (e) {
    console.log(\`failed: \${String(e)} (\${(e as Error).message})\`);
    sendEmail("ops", "retry");
  }
}`,
  },
  {
    name: "refused: a program that throws a string may catch one (its text is not an Error's)",
    verdict: "refused",
    match: /throws values other than `new Error/,
    body: `export const guarantees = [m.subjectsNonEmpty()];
export function main(a: string): void {
  try {
    if (a === "") throw "empty";
    log(a);
  } catch (err) {
    sendEmail("ops", "failed: " + String(err));
  }
}`,
  },
  {
    name: "refused: a caught value reassigned before it is rethrown",
    verdict: "refused",
    body: `export const guarantees = [m.subjectsNonEmpty()];
export function main(a: string): void {
  try {
    try {
      log(a);
    } catch (e) {
      e = a;
      throw e;
    }
  } catch (outer) {
    sendEmail("ops", "failed: " + String(outer));
  }
}`,
  },
  {
    name: "refused: other properties of the caught error (its stack) are not modelled",
    verdict: "refused",
    match: /stack/,
    body: `export const guarantees = [m.subjectsNonEmpty()];
export function main(a: string): void {
  try {
    log(a);
  } catch (err) {
    sendEmail("ops", "failed: " + (err as Error).stack);
  }
}`,
  },
  {
    name: "refused: instanceof of anything but Error",
    verdict: "refused",
    match: /instanceof/,
    body: `export const guarantees = [m.subjectsNonEmpty()];
export function main(a: string): void {
  try {
    log(a);
  } catch (err) {
    if (err instanceof TypeError) sendEmail("ops", "type");
  }
}`,
  },
  // ── a `finally` that throws replaces the error leaving through it (adv37 C1) ──
  {
    name: "violated: a finally that throws replaces the error: the outer catch reads B",
    verdict: "violated",
    line: 8,
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(): void {
  try {
    try { throw new Error("A"); } finally { throw new Error("B"); }
  } catch (e) {
    if (String(e) === "Error: B") sendEmail("ceo", "replaced");
  }
}`,
  },
  {
    name: "proved: a finally that throws replaces the error: the outer catch never reads A",
    verdict: "proved",
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(): void {
  try {
    try { throw new Error("A"); } finally { throw new Error("B"); }
  } catch (e) {
    if (String(e) === "Error: A") sendEmail("ceo", "kept");
  }
}`,
  },
  {
    name: "violated: a finally that throws on one path replaces the error there",
    verdict: "violated",
    line: 8,
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(x: string): void {
  try {
    try { throw new Error("A"); } finally { if (x === "y") throw new Error("B"); }
  } catch (e) {
    if ((e as Error).message !== "A") sendEmail("ceo", "replaced");
  }
}`,
  },
  {
    name: "proved: a finally that ends normally lets the error through unchanged",
    verdict: "proved",
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(x: string): void {
  try {
    try { throw new Error("A"); } finally { log(x); }
  } catch (e) {
    if ((e as Error).message !== "A" && !(e instanceof Error)) sendEmail("ceo", "changed");
  }
}`,
  },
  {
    name: "violated: a finally on the throwing path changes a variable the outer catch reads",
    verdict: "violated",
    line: 9,
    body: `export const guarantees = [m.neverEmail("ceo")];
export function main(): void {
  let flag = false;
  try {
    try { throw new Error("A"); } finally { flag = true; }
  } catch {
    if (flag) sendEmail("ceo", "cleaned up");
  }
}`,
  },
  // ── `Promise.all` rejects with the first rejection in time, not in array order (adv37 C2) ──
  {
    name: "refused, never proved: which callback of Promise.all rejects first is up to the run",
    verdict: "refused",
    body: `export const guarantees = [m.neverEmail("ceo")];
async function tick(): Promise<string> { return "t"; }
export async function main(): Promise<void> {
  try {
    await Promise.all(["a", "b"].map(async (x) => {
      if (x === "a") { await tick(); throw new Error("A"); }
      throw new Error("B");
    }));
  } catch (e) {
    if ((e as Error).message === "B") sendEmail("ceo", "second element first");
  }
}`,
  },
  {
    name: "proved: a catch inside the callback reads its own element's error exactly",
    verdict: "proved",
    body: `export const guarantees = [m.neverEmail("ceo")];
async function tick(): Promise<string> { return "t"; }
export async function main(): Promise<void> {
  await Promise.all(["a", "b"].map(async (x) => {
    try {
      await tick();
      throw new Error("A");
    } catch (e) {
      if ((e as Error).message !== "A") sendEmail("ceo", "other text");
    }
  }));
}`,
  },
  // ── a helper of the program as the one call of the callback is not a tool call: it may await first (adv38) ──
  {
    name: "refused, never proved: a helper called as the callback's one call may await before it throws (adv38 ca01)",
    verdict: "refused",
    body: `export const guarantees = [m.neverEmail("ceo")];
async function tick(): Promise<string> { return "t"; }
async function check(x: string): Promise<void> {
  if (x === "a") { await tick(); await tick(); throw new Error("A"); }
  throw new Error("B");
}
export async function main(): Promise<void> {
  try {
    await Promise.all(["a", "b"].map(async (x) => check(x)));
  } catch (e) {
    if ((e as Error).message === "B") sendEmail("ceo", "second element first");
  }
}`,
  },
  {
    name: "refused, never proved: a Float64 sum over a helper's payments, which may come in any order (adv38 ca15: 1 + 1 + 2^53 is past 2^53)",
    verdict: "refused",
    body: `export const guarantees = [m.spendAtMost(9007199254740992)];
async function tick(): Promise<string> { return "t"; }
async function settle(a: number): Promise<void> {
  if (a > 100) { await tick(); await tick(); }
  pay("acct", a);
}
export async function main(): Promise<void> {
  await Promise.all([9007199254740992, 1, 1].map(async (a) => settle(a)));
}`,
  },
  {
    name: "proved: whole amounts through the helper sum the same in every order",
    verdict: "proved",
    body: `export const guarantees = [m.spendAtMost(5)];
async function tick(): Promise<string> { return "t"; }
async function settle(a: number): Promise<void> {
  if (a > 2) { await tick(); }
  pay("acct", a);
}
export async function main(): Promise<void> {
  await Promise.all([3, 1, 1].map(async (a) => settle(a)));
}`,
  },
  {
    name: "proved: the tool called directly is called in array order (2^53 + 1 + 1 rounds to 2^53 at each step)",
    verdict: "proved",
    body: `export const guarantees = [m.spendAtMost(9007199254740992)];
export async function main(): Promise<void> {
  await Promise.all([9007199254740992, 1, 1].map(async (a) => pay("acct", a)));
}`,
  },
];

describe("the value a catch binds", () => {
  proveCases(CASES);
});
