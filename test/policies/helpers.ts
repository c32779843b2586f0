/**
 * Set-up shared by the policy tests: an agent's project on disk over the stdlib filesystem layer
 * (with its lock) plus a small `audit` library whose only contract constrains an event no tool
 * performs (so a clause naming it can never be proved: the prover refuses it), a `notify` library
 * none of the programs uses, three programs
 * that prove on their own, and the policy most tests use.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { stdlibLayer, tempProject } from "../cli/helpers";
import { TSCONFIG } from "../run/helpers";

/** The projects see this repository's @types/node (the layer's effects import Node's modules). */
export { TSCONFIG };

const HEAD = `import { FilePath } from "clauz3";
import { readFile } from "./tools/filesystem/trusted/effects";
import * as fs from "./tools/filesystem/trusted/contracts";
`;

/** Reads /data/a.md only: every clause of `POLICY` holds. */
export const PLAN = `${HEAD}export const guarantees = [fs.neverReadUnder("/secrets"), fs.onlyReadsFiles([FilePath("/data/a.md")])];
export function main(name: string): void {
  if (name === "a") readFile("/data/a.md");
}
`;

/** Reads /etc/passwd: proved on its own (nothing under /secrets), but not "nothing under /etc". */
export const ETC = `${HEAD}export const guarantees = [fs.neverReadUnder("/secrets")];
export function main(): void {
  readFile("/etc/passwd");
}
`;

/** Reads two data files: nothing under /etc, but more than a.md. */
export const WIDE = `${HEAD}export const guarantees = [fs.neverReadUnder("/secrets")];
export function main(both: boolean): void {
  readFile("/data/a.md");
  if (both) readFile("/data/b.md");
}
`;

/** A library with one event no tool performs: its contract is refused in every proof. */
export const AUDIT: Record<string, string> = {
  "tools/audit/trusted/events.ts": `import { Event } from "clauz3/events";
export class Alarm extends Event {
  constructor(readonly level: string) { super(); }
}
`,
  "tools/audit/trusted/contracts.ts": `import { contract, type ContractSpec } from "clauz3/spec";
import { Alarm } from "./events";
/** No alarm is raised. */
export const noAlarms = contract({ description: "No alarm is raised." }, (): ContractSpec => Alarm.empty());
`,
};

/** A library with a tool that none of the programs uses: its contracts hold for them, vacuously but not refused. */
export const NOTIFY: Record<string, string> = {
  "tools/notify/trusted/events.ts": `import { Event } from "clauz3/events";
export class Notification extends Event {
  constructor(readonly to: string) { super(); }
}
`,
  "tools/notify/trusted/effects.ts": `import { trusted } from "clauz3";
import { performs } from "clauz3/events";
import { Notification } from "./events";
/** Notify someone. */
export const notify = trusted(
  performs((to: string) => new Notification(to)),
  function notify(to: string): void {
    void to;
  },
);
`,
  "tools/notify/trusted/contracts.ts": `import { contract, type ContractSpec } from "clauz3/spec";
import { Notification } from "./events";
/** Nobody is notified. */
export const nobodyNotified = contract({ description: "Nobody is notified." }, (): ContractSpec => Notification.empty());
`,
};

/** Deny reading under /etc; approve a program that reads only a.md and writes nothing. */
export const POLICY = {
  version: 1,
  rules: [
    { name: "only-a", decision: "auto_approved", reason: "It reads only a.md and writes nothing.", whenProven: ['filesystem.onlyReadsFiles(files=[FilePath("/data/a.md")])', "filesystem.writesAtMost(0)"] },
    { name: "no-etc", decision: "auto_rejected", reason: "Nothing under /etc is read.", unlessProven: ['filesystem.neverReadUnder("/etc")'] },
  ],
};

/** The agent's project: the layers, the three programs, and `policies` as files (name → JSON). */
export function policyProject(policies: Record<string, unknown> = {}): string {
  const files: Record<string, string> = { "tsconfig.json": TSCONFIG, ...stdlibLayer(), ...AUDIT, ...NOTIFY, "plan.ts": PLAN, "etc.ts": ETC, "wide.ts": WIDE };
  for (const [name, policy] of Object.entries(policies)) files[name] = typeof policy === "string" ? policy : `${JSON.stringify(policy, null, 2)}\n`;
  return tempProject(files);
}

export function writePolicy(dir: string, name: string, policy: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof policy === "string" ? policy : JSON.stringify(policy));
  return file;
}
