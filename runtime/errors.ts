import { ErrorCtor, StringOf, isInstance, join, map, show } from "./intrinsics";
import type { Occurrence } from "./occurrence";

/** Base class of the errors the clauz3 runtime throws. */
export class Clauz3Error extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

function showArgs(args: Readonly<Record<string, unknown>>): string {
  const keys = Object.keys(args);
  return join(map(keys, (k) => `${k}=${show(args[k])}`), ", ");
}

/**
 * A tool's implementation threw (or rejected with) a value that is not an `Error`: the tool throws
 * this instead, the value as its `cause`, so that whatever an agent program catches is an `Error`
 * (the prover models `String(err)`, `err.message` and `err instanceof Error` on that ground).
 */
export class ToolFailedError extends Clauz3Error {
  constructor(
    readonly tool: string,
    thrown: unknown,
  ) {
    // Nothing of the thrown value's own code runs here: primitives are printed, objects are not.
    const what = thrown === null || (typeof thrown !== "object" && typeof thrown !== "function") ? StringOf(thrown) : typeof thrown === "function" ? "a function" : "an object";
    super(`${tool} failed, throwing a value that is not an Error: ${what}`, { cause: thrown });
  }
}

/** What a tool throws for `thrown`: an Error as it is, any other value wrapped. */
export function asToolError(tool: string, thrown: unknown): unknown {
  return isInstance(thrown, ErrorCtor) ? thrown : new ToolFailedError(tool, thrown);
}

/** A `requires` precondition failed: thrown before the tool's implementation runs. */
export class RequiresError extends Clauz3Error {
  constructor(
    readonly tool: string,
    readonly args: Readonly<Record<string, unknown>>,
    readonly requirement: string,
  ) {
    super(`${tool}(${showArgs(args)}): precondition failed: ${requirement}`);
  }
}

/** An `ensures` postcondition failed on the value the implementation returned. */
export class EnsuresError extends Clauz3Error {
  constructor(
    readonly tool: string,
    readonly args: Readonly<Record<string, unknown>>,
    readonly result: unknown,
    readonly promise: string,
    /** For a promise about every element (`r.every(...)`): the index of the first element that breaks it. */
    readonly element?: number,
  ) {
    const at = element === undefined ? "" : ` at element ${StringOf(element)} (${show((result as readonly unknown[])[element])})`;
    super(`${tool}(${showArgs(args)}) returned ${show(result)}: postcondition failed${at}: ${promise}`);
  }
}

/**
 * When the backstop found a violation: before a call (the call does not happen), in the calls made
 * while the program loaded (before `enforce` started; `main` does not run), or when `main`
 * returned (a whole-run guarantee such as a sum or a lower bound).
 */
export type ViolationPhase = "call" | "load" | "return";

/** The runtime backstop found a guarantee broken. */
export class GuaranteeViolationError extends Clauz3Error {
  constructor(
    /** The refused tool ("call"), the tool whose call at load broke it ("load"), or the name of `main` ("return"). */
    readonly tool: string,
    readonly contract: string | undefined,
    readonly detail: string,
    readonly phase: ViolationPhase = "call",
  ) {
    const what = `${contract ? `${contract}: ` : ""}${detail}`;
    super(
      phase === "call" ? `${tool}: refused at run time: ${what}`
      : phase === "load" ? `${tool}: refused before main ran (the calls made while the program loaded count): ${what}`
      : `${tool} returned, but the run broke a guarantee: ${what}`,
    );
  }
}

/**
 * A built-in object was changed after clauz3 loaded (`String.prototype.startsWith = …`): checks
 * would run layer predicates on the changed built-ins, so nothing is checked and the call (or the
 * run) is refused.
 */
export class IntrinsicsChangedError extends Clauz3Error {
  constructor(
    readonly tool: string | undefined,
    /** What changed, e.g. `String.prototype.startsWith`. */
    readonly changed: string,
  ) {
    super(
      `${tool ? `${tool}: refused at run time: ` : "clauz3: "}${changed} was changed after clauz3 loaded; ` +
        "guarantees are not checked with changed built-ins. Programs must not modify built-in objects " +
        "(load polyfills before clauz3).",
    );
  }
}

/** A trusted tool was passed a value the runtime cannot check once and use unchanged (a Proxy). */
export class ArgumentError extends Clauz3Error {
  constructor(readonly tool: string, readonly parameter: string, reason: string) {
    super(`${tool}: refused at run time: argument ${parameter} ${reason}`);
  }
}

/** A recorder whose trace cannot take a call's occurrences without running code: the call is refused. */
export class RecorderError extends Clauz3Error {
  constructor(readonly tool: string) {
    super(`${tool}: refused at run time: a recorder's trace must be a plain, extensible array (no Proxy, not frozen)`);
  }
}

/**
 * How a run failed to complete: `main` threw (or its promise rejected); a tool's implementation
 * threw (or its promise rejected) although `main` went on; `main` returned while calls of async
 * tools it started were still running.
 */
export type Incompleteness = "threw" | "call-failed" | "calls-pending";

/**
 * The run is incomplete: `main` threw (a tool implementation failed, a `requires` failed, the
 * backstop refused a call, anything), a call's implementation failed although `main` caught the
 * error, or `main` returned while calls were still running. Lower bounds and sums promise
 * something about runs that complete, so they are not established; `cause` is the error.
 */
export class IncompleteRunError extends Clauz3Error {
  constructor(
    /** The name of the function `enforce` ran. */
    readonly main: string,
    cause: unknown,
    /** The calls the run made before it threw (events and tool calls, in order). */
    readonly trace: readonly Occurrence[],
    /** The calls made before `enforce` started (at module load), also checked. */
    readonly loaded: readonly Occurrence[],
    /** The guarantees that only a complete run establishes (lower bounds, sums), by name. */
    readonly unestablished: readonly string[],
    /**
     * The first call the backstop refused in this run (a `GuaranteeViolationError`, an
     * `IntrinsicsChangedError`, …), usually also the `cause`; undefined when none was refused.
     */
    readonly refusal: unknown = undefined,
    readonly how: Incompleteness = "threw",
  ) {
    const what = how === "threw" ? `${main} threw before completing`
      : how === "call-failed" ? `a tool called in ${main} failed (${main} went on)`
      : `${main} returned while calls it started were still running`;
    super(
      `${what}, so the run is incomplete: ${causeText(cause)}. ` +
        (unestablished.length > 0
          ? `Not established (they need a complete run): ${join(unestablished, ", ")}.`
          : "No guarantee of this run needs a complete run; every call made was checked."),
      { cause },
    );
  }
}

/** What `main` threw, for the message; never throws (the thrown value may be anything). */
function causeText(cause: unknown): string {
  try {
    if (cause instanceof Error) return `${StringOf(cause.name)}: ${StringOf(cause.message)}`;
  } catch {
    // a getter that throws: show the value instead
  }
  return `it threw ${show(cause)}`;
}
