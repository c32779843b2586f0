import { describe, expect, it } from "vitest";
import { prove } from "./prove-helpers";

/**
 * Loops over arrays of unknown length, iteration by iteration: a throw that a `try` catches stops
 * the later iterations (their calls never happen), and a count's counterexample shows a run in
 * which the count really is what it claims. Line numbers count the two prepended import lines.
 */
describe("an iteration that throws stops the later ones", () => {
  it("a caught throw in a for…of leaves the later sends undone: at least 2 is violated", async () => {
    // Found by hand after the fuzz findings: with contacts() → ["bad", "y"] one email is sent.
    const v = await prove(`export const guarantees = [m.emailsAtLeast(2)];
export function main(): void {
  const xs = contacts();
  if (xs.length < 2) { sendEmail("a", ""); sendEmail("b", ""); return; }
  try {
    for (const x of xs) {
      sendEmail(x, "");
      if (x === "bad") throw new Error("stop");
    }
  } catch {
    log("stopped");
  }
}`);
    expect(v.verdict, JSON.stringify(v.results, null, 1)).toBe("violated");
    expect(v.results[0]!.message).toMatch(/contacts@5:14 → \["bad"/);
  }, 600_000);

  it("a loop in which nothing can end abruptly sends to every contact: at least 2 is proved", async () => {
    const v = await prove(`export const guarantees = [m.emailsAtLeast(2)];
export function main(): void {
  const xs = contacts();
  if (xs.length < 2) { sendEmail("a", ""); sendEmail("b", ""); return; }
  for (const x of xs) {
    if (x === "bad") log("bad");
    sendEmail(x, "");
  }
}`);
    expect(v.verdict, JSON.stringify(v.results, null, 1)).toBe("proved");
  }, 600_000);

  it("a caught throw in a forEach callback stops the later elements too", async () => {
    const v = await prove(`export const guarantees = [m.emailsAtLeast(2)];
export function main(): void {
  const xs = contacts();
  if (xs.length < 2) { sendEmail("a", ""); sendEmail("b", ""); return; }
  try {
    xs.forEach((x) => {
      if (x === "bad") throw new Error("stop");
      sendEmail(x, "");
    });
  } catch {
    log("stopped");
  }
}`);
    expect(v.verdict, JSON.stringify(v.results, null, 1)).toBe("violated");
    expect(v.results[0]!.message).toMatch(/contacts@5:14 → \[[^\]]*"bad"/);
  }, 600_000);
});

describe("a count's counterexample over a loop is a run with that count", () => {
  it("shows an array whose elements make the count exceed the bound (fuzz seed 182000)", async () => {
    const v = await prove(`export const guarantees = [m.internalAtMost(2)];
export function main(): void {
  for (const x of contacts()) sendEmail(x, "");
}`);
    expect(v.verdict).toBe("violated");
    const cex = v.results[0]!.counterexample!;
    const shown = Object.values(cex.toolResults)[0] as string[];
    expect(shown.filter((x) => x.endsWith("@corp")).length, v.results[0]!.message).toBeGreaterThan(2);
    // The blamed call is the iteration that takes the count past 2: the third internal address.
    expect(cex.event!.fields.to).toBe(shown.filter((x) => x.endsWith("@corp"))[2]);
  }, 600_000);

  it("counts calls at two sites of one loop iteration by iteration", async () => {
    const v = await prove(`export const guarantees = [m.emailsAtMost(2)];
export function main(): void {
  for (const x of contacts()) {
    if (x.startsWith("a")) sendEmail(x, "first");
    if (x.startsWith("b")) sendEmail(x, "second");
  }
}`);
    expect(v.verdict).toBe("violated");
    const cex = v.results[0]!.counterexample!;
    const shown = Object.values(cex.toolResults)[0] as string[];
    const sends = shown.flatMap((x) => [...(x.startsWith("a") ? [x] : []), ...(x.startsWith("b") ? [x] : [])]);
    expect(sends.length, v.results[0]!.message).toBeGreaterThan(2);
    expect(cex.event!.fields.to).toBe(sends[2]);
  }, 600_000);
});

describe("a possibly-undefined value converted to a string is written as \"undefined\"", () => {
  it("in a template literal the run goes on (fuzz seed 191210)", async () => {
    const v = await prove(`export const guarantees = [m.neverEmail("undefined@corp")];
export function main(pick: boolean): void {
  let who: string | undefined;
  if (pick) who = "ops";
  sendEmail(\`\${who}@corp\`, "hi");
}`);
    expect(v.verdict).toBe("violated");
    expect(v.results.map((r) => r.kind)).toEqual(["guarantee"]);
    expect(v.results[0]!.message).toMatch(/pick=false/);
  }, 600_000);

  it("with + and a string on the other side", async () => {
    const v = await prove(`export const guarantees = [m.neverEmail("ops@corp")];
export function main(pick: boolean): void {
  let who: string | undefined;
  if (pick) who = "ops";
  sendEmail("x" + who + "@corp", "hi");
}`);
    expect(v.verdict, JSON.stringify(v.results, null, 1)).toBe("proved");
    const w = await prove(`export const guarantees = [m.neverEmail("xundefined")];
export function main(pick: boolean): void {
  let who: string | undefined;
  if (pick) who = "ops";
  sendEmail("x" + who, "hi");
}`);
    expect(w.verdict).toBe("violated");
    expect(w.results[0]!.message).toMatch(/pick=false/);
  }, 600_000);
});
