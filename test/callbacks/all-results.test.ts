/**
 * The value of `await Promise.all(xs.map(async (x) => tool(…)))` (all-map.ts, `awaitAllMap`):
 * the array of the resolved results in array order, element i the result of element i's call, its
 * length the array's. Also `const [a, b] = await Promise.all([tool(a), tool(b)])`. The layer is the
 * async test layer with `double` (its result is twice its argument) and `echo` (its result is its
 * argument): results tied to their call. Body line 1 is file line 4.
 */
import ts from "typescript";
import { proveProgram } from "../../core/prover/prove";
import type { ProgramVerdict } from "../../core/prover/api";
import { createProgram, PROJECT, stdlibFiles } from "../helpers/program";
import { proveCases, type ProveCase } from "../prover/prove-helpers";
import { ASYNC_IMPORTS, ASYNC_LAYER } from "../async/layer";

const LAYER = `${ASYNC_LAYER}
export const double = trusted(ensures((r: number, n: number) => r === n + n), async function double(n: number): Promise<number> { return n + n; });
export const echo = trusted(ensures((r: string, key: string) => r === key), async function echo(key: string): Promise<string> { return key; });
`;

async function prove(body: string): Promise<ProgramVerdict> {
  const text = `${ASYNC_IMPORTS}import { double, echo } from "./tools/mail/trusted/layer";\n${body}`;
  const program = createProgram({ ...stdlibFiles(), "tools/mail/trusted/layer.ts": LAYER, "plan.ts": text });
  return proveProgram({ ts, program, file: program.getSourceFile(`${PROJECT}/plan.ts`)! });
}

const cases: ProveCase[] = [
  // Literal arrays: element i is element i's result.
  { name: "a literal array: element i is the result of element i's call", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(): Promise<void> {
  const rs = await Promise.all([1, 2].map(async (n) => double(n)));
  if (rs[0] !== 2 || rs[1] !== 4 || rs.length !== 2) await sendEmail("ceo@corp", "x");
}` },
  { name: "misordered results would prove this: element 0 is 2, so the mail is sent", verdict: "violated", line: 7, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(): Promise<void> {
  const rs = await Promise.all([1, 2].map(async (n) => double(n)));
  if (rs[0] === 2) await sendEmail("ceo@corp", "x");
}` },
  { name: "results shared across calls would prove this: two balances may differ", verdict: "violated", line: 7, match: /balance/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(): Promise<void> {
  const bs = await Promise.all(["a", "b"].map(async (x) => balance(x)));
  if (bs[0] !== bs[1]) await sendEmail("ceo@corp", "x");
}` },
  { name: "for…of and join over the results of a literal array", verdict: "proved", body: `export const guarantees = [m.neverEmail("a"), m.emailsAtMost(2)];
export async function main(): Promise<void> {
  const rs = await Promise.all(["b", "c"].map(async (x) => echo(x)));
  for (const r of rs) await sendEmail(r, "hi");
  if (rs.join("+") !== "b+c") await sendEmail("a", "x");
}` },
  { name: "destructuring the results of a literal Promise.all", verdict: "violated", line: 7, match: /ceo@corp/, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(): Promise<void> {
  const [r1, r2] = await Promise.all([double(1), echo("x")]);
  if (r1 === 2 && r2 === "x") await sendEmail("ceo@corp", "x");
}` },
  { name: "a filtered literal array: the results of the kept elements, in order", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(skip: string): Promise<void> {
  const rs = await Promise.all(["a", "b", "c"].filter((x) => x !== skip).map(async (x) => echo(x)));
  if (rs.length === 2 && rs.includes(skip)) await sendEmail("ceo@corp", "x");
  if (rs.length < 2) await sendEmail("ceo@corp", "y");
}` },
  { name: "a filtered literal array: the kept count may be 3", verdict: "violated", line: 7, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(skip: string): Promise<void> {
  const rs = await Promise.all(["a", "b", "c"].filter((x) => x !== skip).map(async (x) => echo(x)));
  if (rs.length === 3) await sendEmail("ceo@corp", "x");
}` },
  // Bounded arrays of unknown length.
  { name: "a bounded tool array: the results' length is its length", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp"), m.emailsAtMost(2)];
export async function main(): Promise<void> {
  const xs = await fewContacts();
  const rs = await Promise.all(xs.map(async (x) => echo(x)));
  if (rs.length !== xs.length) await sendEmail("ceo@corp", "x");
  for (const r of rs) await sendEmail("ops@corp", \`\${r} of \${rs.length}\`);
}` },
  { name: "a bounded tool array: a result may be the mailed address", verdict: "violated", line: 8, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(): Promise<void> {
  const xs = await fewContacts();
  const rs = await Promise.all(xs.map(async (x) => echo(x)));
  if (rs.join(",") === "ceo@corp") await sendEmail(rs.join(","), "x");
}` },
  // Arrays of unknown length.
  { name: "an array of unknown length: length, for…of, every, some over results tied to their call", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp"), m.noPaymentOver(100)];
export async function main(xs: number[]): Promise<void> {
  const rs = await Promise.all(xs.map(async (x) => double(x)));
  if (rs.length !== xs.length) await sendEmail("ceo@corp", "length");
  if (xs.every((x) => x <= 50) && !rs.every((r) => r <= 100)) await sendEmail("ceo@corp", "every");
  for (const r of rs) if (r > 0 && r <= 100) await pay("acct", r);
  console.log(\`\${rs.length} results\`);
}` },
  { name: "an array of unknown length: the lengths agree, so this mail is sent", verdict: "violated", line: 7, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(xs: string[]): Promise<void> {
  const rs = await Promise.all(xs.map(async (x) => echo(x)));
  if (rs.length === xs.length && xs.length > 0) await sendEmail("ceo@corp", "x");
}` },
  { name: "results shared across calls would prove this: one result above 3 and another below 2", verdict: "violated", line: 7, body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(xs: string[]): Promise<void> {
  const bs = await Promise.all(xs.map(async (x) => balance(x)));
  if (bs.some((b) => b > 3) && bs.some((b) => b < 2)) await sendEmail("ceo@corp", "x");
}` },
  { name: "a precondition that fails on a result: the counterexample gives the balance", verdict: "violated", line: 7, match: /amount must be positive/, body: `export const guarantees = [m.nothing()];
export async function main(xs: string[]): Promise<void> {
  const bs = await Promise.all(xs.map(async (x) => balance(x)));
  for (const b of bs) await pay("acct", b);
}` },
  { name: "filter, map, includes over the results of an array of unknown length", verdict: "proved", body: `export const guarantees = [m.neverEmail("ceo@corp")];
export async function main(xs: string[]): Promise<void> {
  const rs = await Promise.all(xs.map(async (x) => echo(x)));
  if (!xs.includes("ceo@corp") && rs.includes("ceo@corp")) await sendEmail("ceo@corp", "x");
  for (const r of rs.filter((r) => r !== "ceo@corp").map((r) => r + "")) await sendEmail(r, "hi");
  const kept = await Promise.all(xs.filter((x) => x !== "ceo@corp").map(async (x) => echo(x)));
  for (const r of kept) await sendEmail(r, "kept");
}` },
  { name: "an array of undefined (a tool that returns nothing) is not read", verdict: "refused", line: 7, match: /undefined/, body: `export const guarantees = [m.nothing()];
export async function main(xs: string[]): Promise<void> {
  const rs = await Promise.all(xs.map(async (x) => sendEmail(x, "1")));
  console.log(rs.length);
}` },
];

describe("the results of Promise.all over map", () => proveCases(cases, prove));
