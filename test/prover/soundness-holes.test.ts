import { describe, expect, it } from "vitest";
import { type Hole, reopenHole } from "../../core/prover/holes";
import { prove } from "./prove-helpers";

/**
 * The holes of the outside review (issue 8), one class each: an attack that was reported "proved"
 * although running it breaks the guarantee, and a benign twin that must stay proved. Line numbers
 * count the two prepended import lines (body line 1 is file line 3). With the hole re-opened, the
 * attack is "proved" again: the test shows the switch reproduces the original hole.
 */
const cases: { hole: Hole; name: string; attack: string; verdict: "violated" | "refused"; match: RegExp; control: string }[] = [
  {
    hole: "switch-fallthrough",
    name: "a clause ending in a block falls into the next",
    verdict: "violated",
    match: /to="ceo@corp"/,
    attack: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(k: string): void {
  let to = "ops@corp";
  switch (k) {
    case "a": { to = "ceo@corp"; }
    case "b": { to = to + ""; }
    default:
      sendEmail(to, "hi"); /*!*/
  }
}`,
    control: `export const guarantees = [m.neverEmail("ceo@corp")];
export function main(k: string): void {
  let to = "ops@corp";
  switch (k) {
    case "a": { to = "ceo@corp"; break; }
    case "b": { to = to + ""; }
    default:
      if (to !== "ceo@corp") sendEmail(to, "hi");
  }
}`,
  },
  {
    hole: "switch-fallthrough",
    name: "fallthrough from a case into default counts both sends",
    verdict: "violated",
    match: /emailsAtMost\(n=1\)/,
    attack: `export const guarantees = [m.emailsAtMost(1)];
export function main(k: string): void {
  switch (k) {
    case "a": { sendEmail("a@corp", "1"); }
    default: { sendEmail("b@corp", "2"); break; } /*!*/
  }
}`,
    control: `export const guarantees = [m.emailsAtMost(1)];
export function main(k: string): void {
  switch (k) {
    case "a": { sendEmail("a@corp", "1"); break; }
    default: { sendEmail("b@corp", "2"); break; }
  }
}`,
  },
  {
    hole: "increment-non-number",
    name: "++ on a string converts it to a number",
    verdict: "refused",
    match: /converts it to a number/,
    attack: `export const guarantees = [m.noPaymentOver(5)];
export function main(): void {
  let n = "5" as unknown as number;
  n++; /*!*/
  if (n <= 5) pay("a", n);
}`,
    control: `export const guarantees = [m.noPaymentOver(5)];
export function main(): void {
  let n = 5;
  n++;
  if (n <= 5) pay("a", n);
}`,
  },
  {
    hole: "opaque-truthy",
    name: "a tool result of type string | null may be null",
    verdict: "refused",
    match: /may be undefined, null or falsy/,
    attack: `export const guarantees = [m.neverEmail("fallback@corp")];
export function main(): void {
  const who = maybeName();
  who ?? sendEmail("fallback@corp", "hi"); /*!*/
}`,
    control: `export const guarantees = [m.neverEmail("fallback@corp")];
export function main(): void {
  const who = label2();
  if (who !== "fallback@corp") sendEmail(who, "hi");
}`,
  },
  {
    hole: "opaque-truthy",
    name: "an unmodelled value is not assumed truthy",
    verdict: "refused",
    match: /may be undefined, null or falsy/,
    attack: `export const guarantees = [m.emailsAtLeast(1)];
export function main(): void {
  const who = maybeName();
  if (who) sendEmail("a@corp", "hi"); /*!*/
}`,
    control: `export const guarantees = [m.emailsAtLeast(1)];
export function main(): void {
  const who = label2();
  if (who !== "x") sendEmail("a@corp", "hi"); else sendEmail("b@corp", "hi");
}`,
  },
  {
    hole: "shared-call-results",
    name: "a helper called twice gets two unrelated arrays",
    verdict: "violated",
    match: /emailsAtMost\(n=1\)/,
    attack: `export const guarantees = [m.emailsAtMost(1)];
function has(cs: string[], x: string): boolean { for (const c of cs) if (c === x) return true; return false; }
function fetch(): string[] { return fewContacts(); }
export function main(): void {
  const a = fetch();
  const b = fetch();
  if (a.length === 3 && b.length === 3 && has(a, "x") !== has(b, "x")) { sendEmail("a@corp", "1"); sendEmail("b@corp", "2"); } /*!*/
}`,
    control: `export const guarantees = [m.emailsAtMost(2)];
function has(cs: string[], x: string): boolean { for (const c of cs) if (c === x) return true; return false; }
function fetch(): string[] { return fewContacts(); }
export function main(): void {
  const a = fetch();
  const b = fetch();
  if (a.length === 3 && b.length === 3 && has(a, "x") !== has(b, "x")) { sendEmail("a@corp", "1"); sendEmail("b@corp", "2"); }
}`,
  },
  {
    hole: "rename-in-literals",
    name: "a string literal that spells a loop index keeps its meaning",
    verdict: "violated",
    match: /nobodyTwice/,
    attack: `export const guarantees = [m.nobodyTwice()];
export function main(to: string[]): void {
  for (const t of to) {
    if (t === "i!1") sendEmail(t, "hi"); /*!*/
  }
}`,
    control: `export const guarantees = [m.neverEmail("i!2")];
export function main(to: string[]): void {
  for (const t of to) {
    if (t === "i!1") sendEmail(t, "hi");
  }
}`,
  },
  {
    hole: "tdz",
    name: "a const read (through a hoisted helper) before its declaration in a later iteration throws",
    verdict: "refused",
    match: /before its declaration runs/,
    attack: `export const guarantees = [m.emailsAtLeast(2)];
export function main(): void {
  for (const k of ["a", "b"]) {
    function early(): void { sendEmail(y, "1"); } /*!*/
    if (k === "b") early();
    const y = "x@corp";
    sendEmail(y, "2");
  }
}`,
    control: `export const guarantees = [m.emailsAtLeast(2)];
export function main(): void {
  for (const k of ["a", "b"]) {
    function early(): void { sendEmail(y, "1"); }
    const y = "x@corp";
    if (k === "b") early();
    sendEmail(y, "2");
  }
}`,
  },
  {
    hole: "tdz",
    name: "a local helper called before its const declaration runs throws",
    verdict: "refused",
    match: /before its declaration runs/,
    attack: `export const guarantees = [m.emailsAtLeast(1)];
export function main(): void {
  function go(): void { notify(); } /*!*/
  go();
  const notify = () => sendEmail("a@corp", "hi");
}`,
    control: `export const guarantees = [m.emailsAtLeast(1)];
export function main(): void {
  function go(): void { notify(); }
  const notify = () => sendEmail("a@corp", "hi");
  go();
}`,
  },
];

/** The file line of the body line marked `/*!*\/` (two import lines come first). */
const markedLine = (body: string): number => body.split("\n").findIndex((l) => l.includes("/*!*/")) + 3;

// `maybeName` returns `string | null`: a union the prover does not model (`T | undefined` is
// modelled exactly since issue 10, test/named-arguments), so the opaque-value hole stays reachable.
const EXTRA_LAYER = {
  "tools/extra/trusted/layer.ts": `import { trusted } from "clauz3";
export const maybeName = trusted(function maybeName(): string | null { return null; });
export const label2 = trusted(function label2(): string { return "x"; });
`,
};
const EXTRA_IMPORTS = `import { maybeName, label2 } from "./tools/extra/trusted/layer";\n`;

/** The extra import goes on the same line as the second prepended import, so line numbers stay as written. */
const withExtra = (body: string): string => EXTRA_IMPORTS.trimEnd() + " " + body;

describe("soundness holes (issue 8): each attack is caught, each control stays proved", () => {
  for (const c of cases) {
    it(`${c.hole}: ${c.name}`, async () => {
      const v = await prove(withExtra(c.attack), EXTRA_LAYER);
      expect(v.verdict, JSON.stringify(v.results, null, 1)).toBe(c.verdict);
      const bad = v.results.find((r) => r.verdict !== "proved")!;
      expect(bad.location.line).toBe(markedLine(c.attack));
      expect(bad.message).toMatch(c.match);
      const ok = await prove(withExtra(c.control), EXTRA_LAYER);
      expect(ok.verdict, JSON.stringify(ok.results, null, 1)).toBe("proved");
    }, 120_000);
  }
});

describe("defaults apply whenever the argument is undefined", () => {
  it("an explicit undefined argument takes the parameter's default", async () => {
    const v = await prove(`export const guarantees = [m.neverEmail("ceo@corp")];
function notify(to = "ceo@corp"): void { if (to) sendEmail(to, "hi"); }
export function main(): void {
  notify(undefined);
}`);
    expect(v.verdict).toBe("violated");
    expect(v.results[0]!.message).toMatch(/to="ceo@corp"/);
  }, 120_000);
  it("a possibly-undefined argument takes the default where it is undefined", async () => {
    const v = await prove(`export const guarantees = [m.neverEmail("ceo@corp")];
function notify(to = "ceo@corp"): void { sendEmail(to, "hi"); }
export function main(pick: boolean): void {
  let who: string | undefined;
  if (pick) who = "ops@corp";
  notify(who);
}`);
    expect(v.verdict).toBe("violated");
    expect(v.results[0]!.message).toMatch(/pick=false/);
    const ok = await prove(`export const guarantees = [m.neverEmail("ceo@corp")];
function notify(to = "ceo@corp"): void { sendEmail(to, "hi"); }
export function main(pick: boolean): void {
  let who: string | undefined;
  if (pick) who = "ops@corp";
  notify(who ?? "desk@corp");
}`);
    expect(ok.verdict, JSON.stringify(ok.results, null, 1)).toBe("proved");
  }, 120_000);
});

describe("found by a red-team review after the holes were closed", () => {
  it("== between possibly-undefined values of different types is refused (\"1\" == 1 is true)", async () => {
    const v = await prove(`export const guarantees = [m.neverEmail("ceo@corp")];
function same(x: string | undefined, y: number | undefined): boolean {
  return x == y;
}
export function main(k: boolean): void {
  let a: string | undefined = undefined;
  let b: number | undefined = undefined;
  if (k) { a = "1"; b = 1; }
  if (k && same(a, b)) sendEmail("ceo@corp", "hi");
}`);
    expect(v.verdict).toBe("refused");
    expect(v.results[0]!.message).toMatch(/Loose equality between different types/);
    expect(v.results[0]!.location.line).toBe(5);
  }, 120_000);
  it("== on one type where defined agrees with ===", async () => {
    const v = await prove(`export const guarantees = [m.neverEmail("ceo@corp")];
export function main(k: boolean, to: string): void {
  let a: string | undefined = undefined;
  if (k) a = to;
  if (a == "ceo@corp") return;
  if (a !== undefined) sendEmail(a, "hi");
}`);
    expect(v.verdict, JSON.stringify(v.results, null, 1)).toBe("proved");
  }, 120_000);
  it("[v].includes(x) with v possibly undefined treats NaN as equal to NaN", async () => {
    const v = await prove(`export const guarantees = [m.noPaymentOver(100)];
export function main(amount: number, hasPrev: boolean, prev: number): void {
  if (prev > 100) return;
  const approved = hasPrev ? prev : undefined;
  if ([approved].includes(amount)) refund("acct", amount);
}`);
    expect(v.verdict).toBe("violated");
    expect(v.results[0]!.message).toMatch(/amount="NaN"/);
  }, 120_000);
  it("symbolic execution has a deterministic step budget (nested literal loops)", async () => {
    const v = await prove(`export const guarantees = [m.emailsAtMost(5)];
export function main(x: boolean): void {
  for (let i = 0; i < 1000; i++) {
    for (let j = 0; j < 1000; j++) {
      if (i === j && x) sendEmail("a", "b");
    }
  }
}`);
    expect(v.verdict).toBe("refused");
    expect(v.results[0]!.message).toMatch(/more than 400000 steps/);
  }, 120_000);
  it("a value built from itself in a loop is refused before its formula explodes", async () => {
    const v = await prove(`export const guarantees = [m.emailsAtMost(1)];
export function main(note: string): void {
  let body = note;
  for (let i = 0; i < 40; i++) body = body + body;
  sendEmail("ops@corp", body);
}`);
    expect(v.verdict).toBe("refused");
    expect(v.results[0]!.message).toMatch(/grown past 1000000 characters/);
  }, 120_000);
});

describe("found by the differential tester", () => {
  it("a count is blamed on a call the run makes, not on a loop whose call never happens (fuzz seed 102210)", async () => {
    const v = await prove(`export const guarantees = [m.emailsAtMost(0)];
export function main(): void {
  for (const c of contacts()) if (c === "x" && c !== "x") sendEmail(c, "1");
  sendEmail("a@corp", "2");
}`);
    expect(v.verdict).toBe("violated");
    expect(v.results[0]!.location.line).toBe(6);
  }, 120_000);
});

describe("re-opening a hole brings the wrong proof back (the switch the differential tester uses)", () => {
  for (const c of cases.filter((x) => x.hole !== "increment-non-number")) {
    it(`${c.hole}: ${c.name}`, async () => {
      const close = reopenHole(c.hole);
      try {
        const v = await prove(withExtra(c.attack), EXTRA_LAYER);
        expect(v.verdict, JSON.stringify(v.results, null, 1)).toBe("proved");
      } finally {
        close();
      }
    }, 120_000);
  }
});
