/**
 * Verifying trusted files against clauz3.lock (in memory): each finding's code, exact span and
 * message; programs that reach an unpinned file are refused, the others are not.
 */
import ts from "typescript";
import { readLayer } from "../../core/layer/read";
import { verifyLock } from "../../core/lock/verify";
import type { Finding } from "../../core/context";
import { proveProgram } from "../../core/prover/prove";
import { PROOF_CODES, RULES } from "../../core/rules";
import { lockFor, type LockSpec } from "../helpers/lock";
import { createProgram, PROJECT } from "../helpers/program";
import { LOG, MAIL } from "./layers";

const MAIL_PLAN = `import { sendEmail } from "./tools/mail/trusted/effects";
import * as mail from "./tools/mail/trusted/contracts";
export const guarantees = [mail.emailsAtMost(1)];
export function main(to: string): void {
  sendEmail(to);
}
`;
const LOG_PLAN = `import { log, linesAtMost } from "./tools/log/trusted/log";
export const guarantees = [linesAtMost(1)];
export function main(message: string): void {
  log(message);
}
`;
const FILES: Record<string, string> = { ...MAIL, ...LOG, "mail-plan.ts": MAIL_PLAN, "log-plan.ts": LOG_PLAN };

function setUp(files: Record<string, string>, lock: LockSpec = {}) {
  const program = createProgram(files, lock);
  const layer = readLayer(ts, program);
  return { program, layer, lock: verifyLock(ts, program, layer.isTrusted) };
}

/** A finding as code, file (project-relative), line and the text of its span. */
function view(f: Finding) {
  return {
    code: RULES[f.rule].code,
    file: f.file.fileName.slice(PROJECT.length + 1),
    line: f.file.getLineAndCharacterOfPosition(f.start).line + 1,
    span: f.file.text.slice(f.start, f.start + f.length),
  };
}

const unpinnedMessage = (file: string, state: string) =>
  `\`${file}\` ${state}: review it, then run \`clauz3 lock\` to write its digest into the lock. A file in a trusted folder is trusted only once it is pinned; if nobody reviewed it, delete it.`;

async function verdictOf(program: ts.Program, rel: string) {
  return proveProgram({ ts, program, file: program.getSourceFile(`${PROJECT}/${rel}`)!, options: { timeoutMs: 60_000 } });
}

describe("a pinned layer", () => {
  it("has no lock finding, and its programs are proved", async () => {
    const { program, lock } = setUp(FILES);
    expect(lock.state).toBe("ok");
    expect(lock.findings.map(view)).toEqual([]);
    expect([...lock.lock!.files.keys()].sort()).toEqual([...Object.keys(MAIL), ...Object.keys(LOG)].sort());
    expect((await verdictOf(program, "mail-plan.ts")).verdict).toBe("proved");
  });
});

describe("a trusted file the lock does not pin", () => {
  it("is reported on its first statement, and refuses the programs that import it, not the others", async () => {
    const { program, lock } = setUp(FILES, { unpinned: ["tools/mail/trusted/effects.ts"] });
    expect(lock.findings.map(view)).toEqual([{ code: 93020, file: "tools/mail/trusted/effects.ts", line: 1, span: 'import { trusted } from "clauz3";' }]);
    expect(lock.findings[0]!.message).toBe(unpinnedMessage("tools/mail/trusted/effects.ts", "is not pinned in clauz3.lock"));
    expect([...lock.unpinned]).toEqual([`${PROJECT}/tools/mail/trusted/effects.ts`]);

    const mail = await verdictOf(program, "mail-plan.ts");
    expect(mail.verdict).toBe("refused");
    expect(mail.results.map((r) => [r.kind, r.verdict, r.code])).toEqual([["guarantee", "refused", PROOF_CODES.refused]]);
    expect(mail.results[0]!.message).toContain("(first at tools/mail/trusted/effects.ts:1:1: `tools/mail/trusted/effects.ts` is not pinned in clauz3.lock: review it");
    expect(mail.results[0]!.location.line).toBe(3);
    expect((await verdictOf(program, "log-plan.ts")).verdict).toBe("proved");
  });

  it("refuses a program that reaches it only transitively (plan → effects → events)", async () => {
    const { program, lock } = setUp(FILES, { unpinned: ["tools/mail/trusted/events.ts"] });
    expect(lock.findings.map(view)).toEqual([{ code: 93020, file: "tools/mail/trusted/events.ts", line: 1, span: 'import { Event } from "clauz3/events";' }]);
    const mail = await verdictOf(program, "mail-plan.ts");
    expect(mail.verdict).toBe("refused");
    expect(mail.results[0]!.message).toContain("`tools/mail/trusted/events.ts` is not pinned");
  });

  it("written by the agent into a trusted folder, is refused like any other", async () => {
    const sneaky = `import { trusted } from "clauz3";
export const quietly = trusted(function quietly(to: string): void {});
`;
    const plan = `import { quietly } from "./tools/mail/trusted/sneaky";
import * as mail from "./tools/mail/trusted/contracts";
export const guarantees = [mail.emailsAtMost(0)];
export function main(to: string): void {
  quietly(to);
}
`;
    const { program, lock } = setUp({ ...FILES, "tools/mail/trusted/sneaky.ts": sneaky, "agent.ts": plan }, { unpinned: ["tools/mail/trusted/sneaky.ts"] });
    expect(lock.findings.map(view)).toEqual([{ code: 93020, file: "tools/mail/trusted/sneaky.ts", line: 1, span: 'import { trusted } from "clauz3";' }]);
    const v = await verdictOf(program, "agent.ts");
    expect(v.verdict).toBe("refused");
    expect(v.results.every((r) => r.verdict === "refused")).toBe(true);
    expect(v.results[0]!.message).toContain("`tools/mail/trusted/sneaky.ts` is not pinned in clauz3.lock");
    expect((await verdictOf(program, "mail-plan.ts")).verdict).toBe("proved");
  });

  it("is reported at the file's start when the file has no statement", () => {
    const { lock } = setUp({ ...FILES, "tools/mail/trusted/empty.ts": "// nothing yet\n" }, { unpinned: ["tools/mail/trusted/empty.ts"] });
    expect(lock.findings.map((f) => [view(f).file, f.start, f.length])).toEqual([["tools/mail/trusted/empty.ts", 0, 0]]);
  });
});

describe("a trusted file that changed since it was pinned", () => {
  it("is reported, and refuses the programs that import it", async () => {
    const changed = { ...FILES, "tools/mail/trusted/contracts.ts": FILES["tools/mail/trusted/contracts.ts"]!.replace("atMost(n)", "atMost(n + 1)") };
    const { program, lock } = setUp(changed, { text: lockFor(FILES, PROJECT) });
    expect(lock.findings.map(view)).toEqual([{ code: 93020, file: "tools/mail/trusted/contracts.ts", line: 1, span: 'import { contract, type ContractSpec } from "clauz3/spec";' }]);
    expect(lock.findings[0]!.message).toBe(unpinnedMessage("tools/mail/trusted/contracts.ts", "changed since it was pinned in clauz3.lock"));
    expect((await verdictOf(program, "mail-plan.ts")).verdict).toBe("refused");
    expect((await verdictOf(program, "log-plan.ts")).verdict).toBe("proved");
  });
});

describe("without a lock", () => {
  it("every trusted file is unpinned (and nothing else is reported)", () => {
    const { lock } = setUp(FILES, false);
    expect(lock.state).toBe("missing");
    expect(lock.findings.map((f) => view(f).file)).toEqual(["tools/log/trusted/log.ts", "tools/mail/trusted/contracts.ts", "tools/mail/trusted/effects.ts", "tools/mail/trusted/events.ts"]);
    expect(lock.findings.every((f) => f.rule === "unpinnedTrustedFile")).toBe(true);
    expect(lock.findings[0]!.message).toBe(unpinnedMessage("tools/log/trusted/log.ts", "is not pinned: the project has no clauz3.lock"));
  });
});

describe("a lock entry whose file is gone", () => {
  it("is reported on its key in the lock, and refuses nothing", async () => {
    const text = lockFor({ ...FILES, "tools/old/trusted/gone.ts": "export const x = 1;\n" }, PROJECT);
    const { program, lock } = setUp(FILES, { text });
    expect(lock.findings.map(view)).toEqual([{ code: 93021, file: "clauz3.lock", line: text.split("\n").findIndex((l) => l.includes("gone.ts")) + 1, span: '"tools/old/trusted/gone.ts"' }]);
    expect(lock.findings[0]!.message).toBe(
      "clauz3.lock pins `tools/old/trusted/gone.ts`, which does not exist. Run `clauz3 lock` to write the lock again without it (or restore the file if it was removed by mistake).",
    );
    expect(lock.unpinned.size).toBe(0);
    expect((await verdictOf(program, "mail-plan.ts")).verdict).toBe("proved");
  });
});

describe("an invalid lock", () => {
  it("is reported on the field, and every trusted file counts as unpinned", () => {
    const text = lockFor(FILES, PROJECT).replace(/("tools\/mail\/trusted\/effects\.ts": \{\s*"sha256": )"[0-9a-f]+"/, '$1"ABC"');
    const { lock } = setUp(FILES, { text });
    expect(lock.state).toBe("invalid");
    expect(lock.error).toMatchObject({ field: 'files["tools/mail/trusted/effects.ts"].sha256', problem: "must be 64 lowercase hex digits" });
    const [invalid, ...unpinned] = lock.findings;
    expect(view(invalid!)).toEqual({ code: 93022, file: "clauz3.lock", line: text.split("\n").findIndex((l) => l.includes('"ABC"')) + 1, span: '"ABC"' });
    expect(invalid!.message).toBe(
      'clauz3.lock is not a valid lock: files["tools/mail/trusted/effects.ts"].sha256 must be 64 lowercase hex digits. Every trusted file counts as unpinned until it is. Write it again with `clauz3 lock` (it is generated: do not edit it by hand).',
    );
    expect(unpinned.map((f) => view(f).file)).toEqual(["tools/log/trusted/log.ts", "tools/mail/trusted/contracts.ts", "tools/mail/trusted/effects.ts", "tools/mail/trusted/events.ts"]);
    expect(unpinned[0]!.message).toContain('is not pinned: clauz3.lock is not valid (files["tools/mail/trusted/effects.ts"].sha256 must be 64 lowercase hex digits)');
  });

  it("that is not JSON is reported where the syntax breaks", () => {
    const text = '{\n  "files": {\n    "a": 1,\n  }\n}\n';
    const { lock } = setUp(FILES, { text });
    expect(lock.error?.field).toBe("the text at line 4, column 3");
    const at = lock.findings[0]!;
    expect(at.rule).toBe("invalidLock");
    expect([at.start, at.length]).toEqual([text.indexOf("}"), 1]);
  });

  it("with an unknown key is reported on the key", () => {
    const text = lockFor(FILES, PROJECT).replace('"version": 1', '"version": 1,\n  "trust": "everything"');
    const { lock } = setUp(FILES, { text });
    expect(view(lock.findings[0]!)).toMatchObject({ code: 93022, span: '"trust"' });
    expect(lock.error?.field).toBe("trust");
  });
});

describe("where trusted code lives", () => {
  it("follows trustedRoots: a `trusted` folder outside the roots is agent source, not an unpinned file", () => {
    const files = {
      "lib/log.ts": LOG["tools/log/trusted/log.ts"],
      "tools/legacy/trusted/old.ts": "export const x = 1;\n",
    };
    const program = createProgram(files, { trustedRoots: ["lib/**"], unpinned: ["tools/legacy/trusted/old.ts"] });
    const layer = readLayer(ts, program, { trustedRoots: ["lib/**"] });
    expect(verifyLock(ts, program, layer.isTrusted).findings.map(view)).toEqual([]);
    // Without the option the lock pins lib/log.ts for nothing (not stale: it exists) and the folder's file is unpinned.
    const plain = readLayer(ts, program);
    expect(verifyLock(ts, program, plain.isTrusted).findings.map((f) => view(f).file)).toEqual(["tools/legacy/trusted/old.ts"]);
  });
});
