/**
 * The editor (the language service in memory): an unpinned trusted file shows the finding on its
 * first statement, the program that imports it is refused, another is proved; after
 * `clauz3 lock` (the plugin's watcher calls `lockChanged`) both clear. The editor never writes the lock.
 */
import { PROOF_CODES } from "../../core/rules";
import { harness, shown } from "../language-service/vfs";

const LOG = `import { trusted } from "clauz3";
import { Event, performs } from "clauz3/events";
import { contract, type ContractSpec } from "clauz3/spec";
export class Log extends Event { constructor(readonly message: string) { super(); } }
/** Log a line. */
export const log = trusted(performs((message: string) => new Log(message)), function log(message: string): void {});
/** At most n lines. */
export const linesAtMost = contract({ description: "At most {n} lines." }, (n: number): ContractSpec => Log.count().atMost(n));
`;
const EXTRA = `import { trusted } from "clauz3";
/** Does nothing it declares. */
export const quietly = trusted(function quietly(to: string): void {});
`;
const USES_EXTRA = `import { quietly } from "./tools/mail/trusted/extra";
import { linesAtMost } from "./tools/log/trusted/log";
export const guarantees = [linesAtMost(0)];
export function main(to: string): void {
  quietly(to);
}
`;
const LOGS = `import { log, linesAtMost } from "./tools/log/trusted/log";
export const guarantees = [linesAtMost(1)];
export function main(message: string): void {
  log(message);
}
`;
const FILES = { "tools/log/trusted/log.ts": LOG, "tools/mail/trusted/extra.ts": EXTRA, "agent.ts": USES_EXTRA, "logs.ts": LOGS };

it("shows an unpinned trusted file, refuses the program that imports it, and clears after clauz3 lock", async () => {
  const h = harness(FILES, { lock: { unpinned: ["tools/mail/trusted/extra.ts"] } });
  const lockBefore = h.env.sys.readFile(h.at("clauz3.lock"));

  expect(shown(await h.settledSemantic("tools/mail/trusted/extra.ts")).map((d) => [d.line, d.code, d.span])).toEqual([[1, 93020, 'import { trusted } from "clauz3";']]);
  expect(shown(await h.settledSemantic("tools/mail/trusted/extra.ts"))[0]!.message).toMatch(/^`tools\/mail\/trusted\/extra\.ts` is not pinned in clauz3\.lock: review it, then run `clauz3 lock`/);
  expect(shown(await h.settledSemantic("tools/log/trusted/log.ts"))).toEqual([]);
  const refused = shown(await h.settledSemantic("agent.ts"));
  expect(refused.map((d) => [d.line, d.code, d.span])).toEqual([[3, PROOF_CODES.refused, "linesAtMost(0)"]]);
  expect(refused[0]!.message).toContain("`tools/mail/trusted/extra.ts` is not pinned in clauz3.lock");
  expect(shown(await h.settledSemantic("logs.ts"))).toEqual([]);
  expect(h.env.sys.readFile(h.at("clauz3.lock"))).toBe(lockBefore);

  // The operator reviews the file and pins it; the plugin's watcher sees the lock change.
  h.relock();
  h.service.lockChanged();
  expect(shown(await h.settledSemantic("tools/mail/trusted/extra.ts"))).toEqual([]);
  const now = shown(await h.settledSemantic("agent.ts"));
  expect(now).toEqual([]);
  expect(h.errors).toEqual([]);
});
