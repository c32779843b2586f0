/**
 * What `trim` keeps of the texts a program and its layer search for (core/prover/exec/trim.ts
 * `keptLiterals`): a string that contains "@" still does once trimmed, over an array of unknown
 * length too. A searched text that starts or ends with whitespace gets no such fact (trim may cut
 * into it): the adversarial case is what a fact stated for it would wrongly prove. (These small
 * programs the solver also proves without the fact; h57 i32, with a Set, `flat` and
 * `toLowerCase` beside it, needs it: fixtures/heldout/h57.) The layer below is the program's own
 * import; body line 1 is file line 3.
 */
import { prove, proveCases, type ProveCase } from "../prover/prove-helpers";

const LAYER = `import { trusted, requires, ensures } from "clauz3";
import { Event, performs } from "clauz3/events";
import { contract, type ContractSpec } from "clauz3/spec";

export class Sent extends Event { constructor(readonly to: string) { super(); } }

export const addresses = trusted(ensures((r: string[]) => r.every((a) => a.includes("@"))), async function addresses(): Promise<string[]> { return []; });
export const spaced = trusted(ensures((r: string[]) => r.every((a) => a.includes(" @"))), async function spaced(): Promise<string[]> { return []; });
export const send = trusted(performs((to: string) => new Sent(to)), requires((to: string) => to.includes("@"), "an address contains @"), async function send(to: string): Promise<void> {});
export const sendSpaced = trusted(performs((to: string) => new Sent(to)), requires((to: string) => to.includes(" @"), "an address contains a space and @"), async function sendSpaced(to: string): Promise<void> {});
export const sentAtMost = contract({ description: "At most {n} messages." }, (n: number): ContractSpec => Sent.count().atMost(n));
`;

const IMPORTS = `import { addresses, spaced, send, sendSpaced, sentAtMost } from "./tools/mailer/trusted/layer";
import * as m from "./tools/mailer/trusted/layer";
`;

const run = (body: string) => prove(body, { "tools/mailer/trusted/layer.ts": LAYER, "plan.ts": IMPORTS + body });

const cases: ProveCase[] = [
  { name: "every address contains @, so every trimmed one does (unknown length)", verdict: "proved", body: `export const guarantees = [m.sentAtMost(1000)];
export async function main(): Promise<void> {
  for (const a of (await addresses()).slice(0, 1000)) await send(a.trim());
}` },
  { name: "the same in a map callback, awaited together", verdict: "proved", body: `export const guarantees = [m.sentAtMost(1000)];
export async function main(): Promise<void> {
  const list = (await addresses()).slice(0, 1000);
  await Promise.all(list.map(async (a) => send(a.trim().toLowerCase())));
}` },
  { name: "adversarial: \" @\" starts with a space trim may remove (\" @x\" trims to \"@x\")", verdict: "violated", line: 5, match: /precondition|contains a space/, body: `export const guarantees = [m.sentAtMost(1000)];
export async function main(): Promise<void> {
  for (const a of (await spaced()).slice(0, 1000)) await sendSpaced(a.trim());
}` },
  { name: "control: the untrimmed address keeps \" @\"", verdict: "proved", body: `export const guarantees = [m.sentAtMost(1000)];
export async function main(): Promise<void> {
  for (const a of (await spaced()).slice(0, 1000)) await sendSpaced(a);
}` },
];

describe("trim keeps the searched texts that start and end with kept code units", () => {
  proveCases(cases, run);
});
