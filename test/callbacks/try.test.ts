/**
 * `try`/`catch`/`finally` (core/prover/exec/try.ts): verdicts and lines decided from JavaScript's
 * semantics (every tool's implementation may throw after its events were recorded). IMPORTS are
 * prepended: body line 1 is file line 3.
 */
import { problems, prove } from "../prover/prove-helpers";

const cases: { name: string; body: string; verdict: "proved" | "violated" | "refused"; line?: number; match?: RegExp; kinds?: string[] }[] = [
  { name: "a catch that calls a tool: the call in the try may fail, so the catch's call happens", verdict: "violated", line: 8, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(a: string): void {
  try {
    sendEmail(a === "ceo@corp" ? "x" : a, "hi");
  } catch {
    sendEmail("ceo@corp", "failed");
  }
}` },
  { name: "a catch with no call in its try is never entered", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(a: string): void {
  try {
    const b = a + "!";
    if (b === "") sendEmail("x", b);
  } catch {
    sendEmail("ceo@corp", "failed");
  }
}` },
  { name: "a throw between two calls: the second call does not happen on the thrown path, the throw is caught", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string): void {
  try {
    log(to);
    if (to === "ceo@corp") throw new Error("no");
    sendEmail(to, "x");
  } catch {
    log("refused");
  }
}` },
  { name: "a throw between two calls: the first call happened before the throw", verdict: "violated", line: 6, match: /emailsAtMost\(n=0\).*subject="first"/, body: `export const guarantees = [m.nothing(), m.emailsAtMost(0)];
export function main(to: string): void {
  try {
    sendEmail(to, "first");
    if (to === "ceo@corp") throw new Error("no");
  } catch {
    log(to);
  }
}` },
  { name: "an uncaught throw stays a finding", verdict: "violated", line: 5, kinds: ["throw"], body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(to: string): void {
  if (to === "ceo@corp") throw new Error("no");
  sendEmail(to, "x");
}` },
  { name: "atLeast: the catch sends when the try's send failed", verdict: "proved", body: `export const guarantees = [m.emailsAtLeast(1)];
export function main(a: string, b: string): void {
  try {
    sendEmail(a, "1");
  } catch {
    sendEmail(b, "2");
  }
}` },
  { name: "atLeast 2: when the first send returns, the catch does not run", verdict: "violated", match: /emailsAtLeast/, body: `export const guarantees = [m.emailsAtLeast(2)];
export function main(a: string, b: string): void {
  try {
    sendEmail(a, "1");
  } catch {
    sendEmail(b, "2");
  }
}` },
  { name: "a send in a finally happens on every path", verdict: "violated", line: 8, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(a: string): void {
  try {
    log(a);
  } finally {
    sendEmail("ceo@corp", "done");
  }
}` },
  { name: "a send in a finally also happens when the try throws", verdict: "violated", match: /SendEmail\(to=""/, kinds: ["guarantee", "throw"], body: `export const guarantees = [m.neverEmail("")];
export function main(a: string): void {
  try {
    if (a === "") throw new Error("empty");
  } finally {
    sendEmail(a, "done");
  }
}` },
  { name: "a failing requires moves to the catch (and stays a precondition finding)", verdict: "violated", match: /SendEmail\(to="ceo@corp"/, kinds: ["precondition", "guarantee"], body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(x: number): void {
  try {
    if (x > 0) log("paying");
    pay("a", x);
  } catch {
    sendEmail("ceo@corp", "payment failed");
  }
}` },
  { name: "a throw in a catch goes to the enclosing catch", verdict: "violated", line: 13, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(a: string): void {
  try {
    try {
      if (a === "x") throw new Error("inner");
    } catch {
      throw new Error("again");
    }
  } catch {
    log("outer");
    sendEmail("ceo@corp", "x");
  }
}` },
  { name: "a call in a callback inside a try may fail too", verdict: "violated", line: 9, match: /reaches the call at plan\.ts:9:/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(to: string[]): void {
  try {
    to.forEach((t) => log(t));
  } catch {
    log("failed");
    sendEmail("ops", "a log failed");
  }
}` },
  { name: "reading the caught value is refused", verdict: "refused", line: 8, match: /caught value/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string): void {
  try {
    log(a);
  } catch (error) {
    if (error) log("x");
  }
}` },
  // Assignments to variables declared before the `try` (changes.ts): carried on by the path that
  // ends normally; the `catch` and `finally` see them as they were where control left (exit-states.ts).
  { name: "an assignment in a try before a call that fails is seen by the catch", verdict: "violated", line: 11, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(a: string): void {
  let r = "";
  try {
    r = a;
    log(a);
    r = "done";
  } catch {
    if (r !== "" && r !== "done") sendEmail(r, "x");
  }
}` },
  { name: "an assignment before a throw is seen by the catch", verdict: "violated", line: 10, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  let x = "a";
  try {
    x = "ceo@corp";
    throw new Error("always");
  } catch {
    sendEmail(x, "x");
  }
}` },
  { name: "a counter of calls that returned is, in the catch, the count before the call that failed", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  let ok = 0;
  try {
    for (const to of ["a@corp", "b@corp", "c@corp"]) {
      sendEmail(to, "x");
      ok++;
    }
  } catch {
    if (ok >= 3) sendEmail("ceo@corp", "all sent, then failed");
  }
}` },
  { name: "its twin: the third call fails with two counted", verdict: "violated", line: 12, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  let ok = 0;
  try {
    for (const to of ["a@corp", "b@corp", "c@corp"]) {
      sendEmail(to, "x");
      ok++;
    }
  } catch {
    if (ok >= 2) sendEmail("ceo@corp", "two sent, then failed");
  }
}` },
  { name: "a value set after the last call that may fail is never seen by the catch", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(a: string): void {
  let stage = "start";
  try {
    stage = "a";
    log(a);
    stage = "ceo@corp";
  } catch {
    sendEmail(stage, "failed");
  }
}` },
  { name: "the finally on a throwing path sees the value where it left", verdict: "violated", line: 12, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(a: string): void {
  let stage = "start";
  try {
    log(a);
    stage = "ceo@corp";
    log(a);
    stage = "end";
  } finally {
    sendEmail(stage, "done");
  }
}` },
  { name: "a change before a call that fails inside a loop over an array of unknown length is refused", verdict: "refused", line: 7, match: /changes `last`.*inside a loop over an array of unknown length/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  let last = "";
  try {
    last = "ceo@corp";
    for (const c of contacts()) log(c);
  } catch {
    sendEmail(last, "failed");
  }
}` },
  { name: "a change before a call that fails inside a helper is seen by the catch (the helper runs with the caller's variables)", verdict: "violated", line: 10, match: /log@14:3 throwing/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(a: string): void {
  let n = 0;
  try {
    n = 1;
    notify(a);
  } catch {
    if (n === 1) sendEmail("ceo@corp", "notify failed");
  }
}
function notify(a: string): void {
  log(a);
}` },
  { name: "a change before a call that fails inside a callback over a literal array is seen by the catch", verdict: "violated", line: 10, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  let n = 0;
  try {
    n = 1;
    ["a", "b"].forEach((x) => log(x));
  } catch {
    if (n === 1) sendEmail("ceo@corp", "a log failed");
  }
}` },
  { name: "its twin: the change after the callbacks is never seen by the catch", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  let n = 0;
  try {
    ["a", "b"].forEach((x) => log(x));
    n = 1;
  } catch {
    if (n === 1) sendEmail("ceo@corp", "a log failed");
  }
}` },
  { name: "nested: the outer catch sees the variable as the inner finally's failing call left it", verdict: "violated", line: 15, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(a: string): void {
  let n = 0;
  try {
    try {
      n = 1;
      log(a);
      n = 2;
    } finally {
      log("cleanup");
    }
  } catch {
    if (n === 2) sendEmail("ceo@corp", "cleanup failed");
  }
}` },
  { name: "nested: a caught inner failure never reaches the outer catch", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(a: string): void {
  let n = 0;
  try {
    try {
      n = 1;
      log(a);
      n = 2;
    } catch {
      n = 3;
    }
  } catch {
    sendEmail("ceo@corp", "never");
  }
}` },
  { name: "assignments in a try after its last call that may fail and in the catch are seen after the try statement", verdict: "violated", line: 12, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(a: string): void {
  let to = "ops@corp";
  try {
    log(a);
    to = a;
  } catch {
    to = "help@corp";
  }
  sendEmail(to, "x");
}` },
  { name: "a value read from a tool in a try, or a default in the catch", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(a: string): void {
  let to: string;
  try {
    const b = balance(a);
    to = b > 10 ? a : "ops@corp";
    if (to === "ceo@corp") to = "ops@corp";
  } catch {
    to = "help@corp";
  }
  sendEmail(to, "x");
}` },
  { name: "the finally on a throwing path before the change sees the value from before the try", verdict: "violated", line: 10, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(a: string): void {
  let to = "ceo@corp";
  try {
    log(a);
    to = "ops@corp";
  } finally {
    sendEmail(to, "done");
  }
}` },
  { name: "an assignment in a catch before a call that fails is seen by the finally", verdict: "violated", line: 13, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(a: string): void {
  let to = "ops@corp";
  try {
    log(a);
  } catch {
    to = "ceo@corp";
    log("failed");
    to = "ops@corp";
  } finally {
    sendEmail(to, "done");
  }
}` },
  { name: "loop state in a try over an array of unknown length is refused", verdict: "refused", line: 8, match: /not modelled inside a `try`/, body: `export const guarantees = [m.emailsAtMost(1)];
export function main(): void {
  let n = 0;
  try {
    for (const c of contacts()) {
      n = n + 1;
      log(c);
    }
  } catch {
    if (n > 1) sendEmail("ops", "x");
  }
}` },
  // In-place changes of variables declared before the `try` (changes.ts): carried on by the path
  // that ends normally; where the block may still throw after one, refused.
  { name: "a push in a catch is seen after the try statement", verdict: "violated", line: 13, match: /SendEmail\(to="ops@corp"/, body: `export const guarantees = [m.neverEmail("ops@corp")];
export function main(a: string): void {
  const failed: string[] = [];
  try {
    sendEmail(a, "x");
  } catch {
    failed.push(a);
  }
  log("after");
  for (const f of failed) {
    sendEmail("ops@corp", f);
  }
}` },
  { name: "a push in a try after its last call that may fail is seen after the try statement", verdict: "violated", line: 12, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.nothing(), m.neverEmail("ceo@corp")];
export function main(a: string): void {
  const out: string[] = [];
  try {
    log(a);
    out.push("ceo@corp");
  } catch {
    log("failed");
  }
  for (const t of out) sendEmail(t, "x");
}` },
  { name: "the catch does not see a push the try makes after its last call that may fail", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string): void {
  const done: string[] = [];
  try {
    log(a);
    done.push(a);
  } catch {
    if (done.length > 0) sendEmail("ops@corp", "partial");
  }
}` },
  { name: "a push in a try before a call that fails is seen by the catch", verdict: "violated", line: 10, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string): void {
  const done: string[] = [];
  try {
    done.push(a);
    log(a);
  } catch {
    if (done.length > 0) sendEmail("ops@corp", "partial");
  }
}` },
  { name: "a push in a try before a throw is seen by the catch", verdict: "violated", line: 10, match: /SendEmail\(to="a"/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(stop: boolean): void {
  const done: string[] = [];
  try {
    done.push("a");
    if (stop) throw new Error("stop");
  } catch {
    for (const d of done) sendEmail(d, "x");
  }
}` },
  { name: "pushes of the calls that returned: the catch sees at most two of three", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  const sent: string[] = [];
  try {
    for (const to of ["a@corp", "b@corp", "c@corp"]) {
      sendEmail(to, "x");
      sent.push(to);
    }
  } catch {
    if (sent.length === 3) sendEmail("ceo@corp", "all sent");
  }
}` },
  { name: "a change in a finally is seen after the try statement", verdict: "violated", line: 13, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string): void {
  const seen = new Set<string>();
  try {
    log(a);
  } finally {
    seen.add(a);
  }
  log("after");
  if (seen.size > 0) {
    sendEmail("ops@corp", a);
  }
}` },
  { name: "a sort in a try is seen after the try statement", verdict: "violated", line: 11, match: /SendEmail\(to="a@corp"/, body: `export const guarantees = [m.neverEmail("a@corp")];
export function main(): void {
  const out = ["b@corp", "a@corp"];
  try {
    out.sort();
  } catch {
    log("x");
  }
  sendEmail(out[0]!, "first");
}` },
  // `return` through a `finally`: it runs with the variables as the `return` left them, the
  // value was computed before it, and the return happens only where it ends normally.
  { name: "a return in a try runs the finally first", verdict: "violated", line: 9, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string): void {
  try {
    if (a === "") return;
    log(a);
  } finally {
    sendEmail("ops", "done");
  }
}` },
  { name: "the finally after a return in the catch sees what the catch assigned", verdict: "violated", line: 12, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(a: string): void {
  let to = "ops@corp";
  try {
    log(a);
  } catch {
    to = "ceo@corp";
    return;
  } finally {
    sendEmail(to, "done");
  }
}` },
  { name: "the value returned is computed before the finally changes the variable", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
function pick(a: string): string {
  let to = a;
  try {
    return to;
  } finally {
    to = "ceo@corp";
  }
}
export function main(a: string): void {
  if (a !== "ceo@corp") sendEmail(pick(a), "x");
}` },
  { name: "a call in the finally may fail, and then the return does not happen", verdict: "violated", line: 3, match: /log@8:5 throwing/, body: `export const guarantees = [m.emailsAtLeast(1)];
function one(): number {
  try {
    return 1;
  } finally {
    log("x");
  }
}
export function main(): void {
  try {
    const n = one();
    if (n === 1) sendEmail("a", "x");
  } catch {
    log("failed");
  }
}` },
  // `break`/`continue` out of a `try` with a `finally` (session 42): the `finally` runs, then the jump goes on.
  { name: "continue inside a try runs the finally first: five emails", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(5)];
export function main(): void {
  for (const x of ["a", "skip", "b"]) {
    try {
      if (x === "skip") continue;
      sendEmail(x, "s");
    } finally {
      sendEmail("audit", x);
    }
  }
}` },
  { name: "adversarial: the finally of a continue sends its email (a fifth is too many)", verdict: "violated", line: 10, match: /SendEmail\(to="audit"/, body: `export const guarantees = [m.emailsAtMost(4)];
export function main(): void {
  for (const x of ["a", "skip", "b"]) {
    try {
      if (x === "skip") continue;
      sendEmail(x, "s");
    } finally {
      sendEmail("audit", x);
    }
  }
}` },
  { name: "what the finally of a continue changes is seen by the next iteration and after the loop", verdict: "proved", body: `export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  let n = 0;
  for (const x of ["a", "b", "c"]) {
    try {
      if (x !== "c") continue;
    } finally {
      n++;
    }
  }
  if (n !== 3) sendEmail("a", "lost an iteration");
}` },
  { name: "break inside a catch runs the finally, then leaves the loop", verdict: "violated", line: 15, match: /SendEmail\(to="audit", subject="1"\)/, body: `export const guarantees = [m.neverEmail("audit")];
export function main(): void {
  let n = 0;
  for (const x of ["a", "b"]) {
    try {
      log(x);
    } catch {
      break;
    } finally {
      n++;
    }
  }
  if (n === 1) sendEmail("audit", String(n));
}` },
  { name: "continue in a try with a finally over an array of unknown length: the skipped element is not emailed", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  for (const x of contacts()) {
    try {
      if (x === "ceo@corp") continue;
      sendEmail(x, "s");
    } finally {
      log(x);
    }
  }
}` },
  { name: "adversarial: the same loop continuing past the wrong address", verdict: "violated", line: 8, match: /SendEmail\(to="ceo@corp"/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(): void {
  for (const x of contacts()) {
    try {
      if (x === "boss@corp") continue;
      sendEmail(x, "s");
    } finally {
      log(x);
    }
  }
}` },
  { name: "continue inside a finally is refused", verdict: "refused", line: 9, match: /inside a `finally` block is not modelled/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(xs: string[]): void {
  for (const x of xs) {
    try {
      log(x);
    } finally {
      if (x === "") continue;
      log("done");
    }
  }
}` },
  { name: "return inside a finally is refused", verdict: "refused", line: 8, match: /`return` inside a `finally` block is not modelled/, body: `export const guarantees = [m.emailsAtMost(0)];
export function main(a: string): void {
  try {
    log(a);
  } finally {
    if (a === "") return;
    log("done");
  }
}` },
];

describe("try/catch/finally", () => {
  for (const c of cases) {
    it(c.name, async () => {
      const v = await prove(c.body);
      const ps = problems(v);
      expect(v.verdict, JSON.stringify(ps)).toBe(c.verdict);
      if (c.line !== undefined) expect(ps.map((p) => p.line), JSON.stringify(ps)).toContain(c.line);
      if (c.match) expect(ps.map((p) => p.text).join("\n")).toMatch(c.match);
      if (c.kinds) expect([...new Set(ps.map((p) => p.kind))].sort()).toEqual([...c.kinds].sort());
    }, 600_000);
  }
});
