/**
 * A small project for the output tests: a trusted `files` library without Node imports, a proved
 * program, a violated one, one whose precondition can fail, one that reads a path twice (two
 * events in its counterexample), and a trusted file breaking rule 93003.
 */
import { clauz3, ensureBuilt, removeProject, tempProject, type RunResult } from "../cli/helpers";

export const LAYER = {
  "tools/files/clauz3.json": `${JSON.stringify({ title: "Files", summary: "Reads files.", badge: "mock" })}\n`,
  "tools/files/trusted/events.ts": `import { Event } from "clauz3/events";
export class Read extends Event { constructor(readonly path: string) { super(); } }
`,
  "tools/files/trusted/effects.ts": `import { trusted, requires } from "clauz3";
import { performs } from "clauz3/events";
import { Read } from "./events";
/** Read a file. */
export const readFile = trusted(performs((path: string) => new Read(path)), requires((path: string) => path.length > 0, "readFile needs a non-empty path"), function readFile(path: string): string { return ""; });
`,
  "tools/files/trusted/contracts.ts": `import { contract, type ContractSpec } from "clauz3/spec";
import { Read } from "./events";
/** No path read twice. */
export const readsOnce = contract({ description: "No path is read twice." }, (): ContractSpec => Read.distinct((e) => e.path));
/** No read under a prefix. */
export const neverReadUnder = contract({ description: "No tool reads a path starting with {prefix}." }, (prefix: string): ContractSpec => Read.all((e) => !e.path.startsWith(prefix)));
`,
};

const HEAD = `import { readFile } from "../tools/files/trusted/effects";
import * as files from "../tools/files/trusted/contracts";
export const guarantees = [files.neverReadUnder("/secrets")];
`;

export const PROGRAMS = {
  "plans/ok.ts": `${HEAD}export function main(path: string): void {\n  if (path !== "" && !path.startsWith("/secrets")) readFile(path);\n}\n`,
  "plans/leak.ts": `${HEAD}export function main(path: string): void {\n  if (path !== "") readFile(path);\n}\n`,
  "plans/empty.ts": `${HEAD}export function main(path: string): void {\n  if (!path.startsWith("/secrets")) readFile(path);\n}\n`,
  "plans/twice.ts": `import { readFile } from "../tools/files/trusted/effects";
import * as files from "../tools/files/trusted/contracts";
export const guarantees = [files.readsOnce()];
export function main(a: string, b: string): void {
  if (a !== "" && b !== "") {
    readFile(a);
    readFile(b);
  }
}
`,
};

/** A trusted file breaking rule 93003 (an event field argument that is a literal). */
export const BAD_RULE = {
  "tools/files/trusted/config.ts": `import { trusted } from "clauz3";
import { performs } from "clauz3/events";
import { Read } from "./events";
export const readConfig = trusted(performs(() => new Read("/etc/app.conf")), function readConfig(): string { return ""; });
`,
};

export { clauz3, ensureBuilt, removeProject, tempProject, type RunResult };
