/**
 * The runtime bound to an approval receipt (docs/run.md). `clauz3 run` verifies a receipt with the
 * operator's public keys, redeems it with the approval service (approval-bind.ts) and runs the
 * program inside the binding this module keeps for the run's asynchronous context. Every trusted
 * call checks the binding in force (tool.ts): that the receipt it holds was redeemed and approves
 * exactly the program digest and guarantee identities `run` computed from what it runs.
 *
 * A library whose manifest says `"requiresApproval": true` goes further: its tools refuse to run
 * in any context without such a binding, so `node plan.js` or another script importing the tools
 * cannot call them. Three sources say so, and any one is enough: the module's own
 * `requireApproval("<library>")` statement (the layer rules require it in every tool module of
 * such a library, so it survives any build: a plain `tsc` into another outDir leaves the manifest
 * behind), the metadata the clauz3 plugin injects (`requiresApproval`, read from the manifest at
 * build time), and the manifest beside the module that defines the tool (`<library>/clauz3.json`
 * above its `trusted/` directory).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import * as fs from "node:fs";
import * as path from "node:path";
import { Clauz3Error } from "./errors";
import { ObjectFreeze, runWith, storeOf, weakAdd, weakHas } from "./intrinsics";

/** A tool's library asks for approval: its identifier (what the refusal names). */
export interface ApprovalRequirement {
  readonly library: string;
}

/** What a receipt binds, as `run` computed it from the sources it compiles (core/approval's `ExpectedBinding`). */
export interface BoundDigests {
  readonly program: string;
  readonly invocation: string;
  readonly guarantees: readonly string[];
  readonly layer: string;
}

/** A verified, redeemed receipt in force for one run. */
export interface ApprovalBinding {
  /** The receipt's id (`jti`) and its request. */
  readonly receipt: string;
  readonly request: string;
  /** What the receipt's verified claims bind. */
  readonly claims: BoundDigests;
  /** What `run` computed from what it is about to run. */
  readonly expected: BoundDigests;
  /** When the service acknowledged the redemption (ISO 8601). */
  readonly redeemedAt: string;
}

/** A trusted call refused for want of an approval (no receipt in force, or one for something else). */
export class ApprovalRequiredError extends Clauz3Error {
  constructor(
    readonly tool: string,
    readonly library: string | undefined,
    reason: string,
  ) {
    super(
      library !== undefined
        ? `clauz3: ${tool} is a tool of library "${library}", whose manifest requires approval: it runs only inside \`clauz3 run\` holding a verified, redeemed receipt for this program (${reason}). Run the program with \`clauz3 run <program>\`.`
        : `clauz3: ${tool} refused: ${reason}.`,
    );
  }
}

const context = new AsyncLocalStorage<ApprovalBinding>();
/** Bindings made by `bindApproval` (a WeakSet nobody else can add to). */
const made = new WeakSet<ApprovalBinding>();

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The binding in force for a call made now, or undefined. */
export function bindingInForce(): ApprovalBinding | undefined {
  return storeOf(context);
}

/**
 * Checked before every trusted call: a binding in force must hold a receipt for exactly what `run`
 * computed; without one, a tool whose library requires approval is refused.
 */
export function assertApproved(tool: string, requirement: ApprovalRequirement | undefined): void {
  const binding = storeOf(context);
  if (binding === undefined) {
    if (requirement !== undefined) throw new ApprovalRequiredError(tool, requirement.library, "no receipt is in force in this context");
    return;
  }
  const library = requirement?.library;
  if (!weakHas(made, binding)) throw new ApprovalRequiredError(tool, library, "the receipt in force was not bound by clauz3");
  const { claims, expected } = binding;
  if (claims.program !== expected.program) throw new ApprovalRequiredError(tool, library, `the receipt in force approves program ${claims.program}, not ${expected.program}`);
  if (claims.layer !== expected.layer) throw new ApprovalRequiredError(tool, library, `the receipt in force approves layer ${claims.layer}, not ${expected.layer}`);
  if (claims.invocation !== expected.invocation) throw new ApprovalRequiredError(tool, library, "the receipt in force approves other inputs");
  if (!sameList(claims.guarantees, expected.guarantees)) throw new ApprovalRequiredError(tool, library, "the receipt in force approves other guarantee identities");
}

/**
 * Make the binding of a receipt whose signature was verified and whose redemption the service
 * acknowledged (approval-bind.ts does both): frozen, and known to this module.
 */
export function bindApproval(binding: ApprovalBinding): ApprovalBinding {
  const frozen = ObjectFreeze({
    receipt: binding.receipt,
    request: binding.request,
    claims: ObjectFreeze({ ...binding.claims, guarantees: ObjectFreeze([...binding.claims.guarantees]) }),
    expected: ObjectFreeze({ ...binding.expected, guarantees: ObjectFreeze([...binding.expected.guarantees]) }),
    redeemedAt: binding.redeemedAt,
  });
  weakAdd(made, frozen);
  return frozen;
}

/** Run `body` (and everything it awaits) with `binding` in force. */
export function runApproved<R>(binding: ApprovalBinding, body: () => R): R {
  if (!weakHas(made, binding)) throw new TypeError("clauz3: runApproved expects a binding made by bindApproval");
  return runWith(context, binding, body);
}

/** Library root → its requirement (null: none), read once per process. */
const byRoot = new Map<string, ApprovalRequirement | null>();

/** The library directory of a trusted module: the parent of its last `trusted` segment (core/manifest's `libraryRootOf`). */
function libraryRootOf(file: string): string | undefined {
  const parts = file.replace(/\\/g, "/").split("/");
  const i = parts.lastIndexOf("trusted");
  return i > 0 && i < parts.length - 1 ? parts.slice(0, i).join("/") || "/" : undefined;
}

/**
 * What the manifest beside a trusted module says. A manifest that exists but cannot be read as
 * JSON asks for approval (fail closed: nothing can tell that it does not).
 */
function manifestRequirement(file: string): ApprovalRequirement | undefined {
  const root = libraryRootOf(file);
  if (root === undefined) return undefined;
  const known = byRoot.get(root);
  if (known !== undefined) return known ?? undefined;
  let found: ApprovalRequirement | null = null;
  let text: string | undefined;
  try {
    text = fs.readFileSync(path.join(root, "clauz3.json"), "utf8");
  } catch {
    text = undefined;
  }
  if (text !== undefined) {
    let required = true;
    try {
      const data = JSON.parse(text) as { requiresApproval?: unknown };
      required = typeof data === "object" && data !== null && data.requiresApproval !== false && data.requiresApproval !== undefined;
    } catch {
      required = true;
    }
    if (required) found = ObjectFreeze({ library: path.basename(root) });
  }
  byRoot.set(root, found);
  return found ?? undefined;
}

/** The file of the caller of `trusted(...)`: the module defining the tool (read from the stack once, at definition). */
export function definingFile(): string | undefined {
  const stack = new Error().stack;
  if (typeof stack !== "string") return undefined;
  const lines = stack.split("\n").slice(1);
  for (const line of lines) {
    const m = /\(?((?:file:\/\/)?[^\s()]+?):\d+:\d+\)?\s*$/.exec(line.trim());
    const file = m?.[1]?.replace(/^file:\/\//, "");
    if (file === undefined) continue;
    const base = path.basename(file).replace(/\.[cm]?[jt]s$/, "");
    const inRuntime = path.dirname(file) === __dirname;
    if (inRuntime && (base === "approval" || base === "tool")) continue;
    return file;
  }
  return undefined;
}

/** Modules that declared `requireApproval(...)`, by file (what `definingFile` reads for their tools). */
const declaredByFile = new Map<string, ApprovalRequirement>();
/** A declaration made where no file could be read: every tool whose file cannot be read requires approval (fail closed). */
let declaredNowhere: ApprovalRequirement | undefined;

/**
 * Declare in a trusted module that its tools run only inside `clauz3 run` holding a redeemed
 * receipt (docs/run.md): a top-level statement before the module's first `trusted(...)`, naming
 * the library. Code, unlike the manifest, survives every build.
 */
export function requireApproval(library: string): void {
  if (typeof library !== "string" || library === "") throw new TypeError("clauz3: requireApproval(library) expects the library's identifier, e.g. requireApproval(\"payments\")");
  const requirement = ObjectFreeze({ library });
  const file = definingFile();
  if (file === undefined) declaredNowhere = requirement;
  else declaredByFile.set(file, requirement);
}

/** Whether a tool defined in `file` with `metadata` must run under an approval. */
export function approvalRequirementOf(metadata: { readonly requiresApproval?: string } | undefined, file: string | undefined): ApprovalRequirement | undefined {
  if (metadata?.requiresApproval !== undefined) return ObjectFreeze({ library: metadata.requiresApproval });
  if (file === undefined) return declaredNowhere;
  return declaredByFile.get(file) ?? manifestRequirement(file);
}
