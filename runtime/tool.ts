import { approvalRequirementOf, assertApproved, definingFile } from "./approval";
import { DECLARATION, METADATA_KEY, TOOL } from "./brand";
import { firstBrokenElement } from "./elements";
import { asToolError, EnsuresError, RequiresError } from "./errors";
import { Event } from "./event";
import { FluentUpdate, UNKNOWN_VALUE, type UpdatesDeclaration } from "./fluent";
import { admit } from "./in-flight";
import { OPAQUE_SPEC, type FootprintSpec, type Selector } from "./footprint";
import { assertIntrinsicsIntact } from "./integrity";
import { ArrayIsArray, ObjectFreeze, ReflectApply, append, concat, isAsyncFunction, isInstance, isPromise, promiseThen, rejected, setField, sourceOf } from "./intrinsics";
import { ToolCall, type Occurrence } from "./occurrence";
import { isPlainRecord, namedArguments } from "./named";
import { parameterNames } from "./params";
import { resultCopy } from "./result-copy";
import { assertTracesWritable, commit, commitForeign, onlyRuns, recipients, type Recipients } from "./recorder";
import { Relation } from "./relation";
import { opaqueArgumentSeen, snapshotArguments } from "./snapshot";

type AnyFunction = (...args: any[]) => any;

/** Where the parameters a declaration names sit among the tool's arguments. */
interface Positions {
  readonly at: readonly number[];
  /** A name the tool does not have (reported when the tool is called). */
  readonly missing: string | undefined;
}

/** Tell every recorder of a call (its optional hook `hook`); a recorder that fails to take note changes nothing. */
function tell(to: Recipients, hook: "refused" | "failed" | "pending", args: unknown[]): void {
  for (let r = 0; r < to.recorders.length; r++) {
    const recorder = to.recorders[r]!;
    try {
      const f = recorder[hook] as Function | undefined;
      if (f) ReflectApply(f, recorder, args);
    } catch {
      // the call's outcome stands
    }
  }
}

/** A call was refused before it happened: every recorder that saw it is told. */
function refuse(to: Recipients, error: unknown): void {
  tell(to, "refused", [error]);
}

/** What a `performs` builder returns: one event construction or an array of them. */
export type Performed = Event | readonly Event[];

/** `performs(builder)`: the events a trusted tool performs. At most one per tool. */
export interface PerformsDeclaration {
  readonly [DECLARATION]: "performs";
  readonly builder: (...params: any[]) => Performed;
}
/** `requires(predicate, message?)`: a precondition over the tool's parameters. */
export interface RequiresDeclaration {
  readonly [DECLARATION]: "requires";
  readonly predicate: (...params: any[]) => boolean;
  readonly message: string | undefined;
}
/** `ensures(predicate, message?)`: a fact about the result the prover may assume. */
export interface EnsuresDeclaration {
  readonly [DECLARATION]: "ensures";
  readonly predicate: (result: any, ...params: any[]) => boolean;
  readonly message: string | undefined;
}

/** `footprint(...selectors)`: what a tool touches that its events do not say (docs/footprints.md). */
export interface FootprintDeclaration {
  readonly [DECLARATION]: "footprint";
  readonly selectors: readonly Selector[];
}

/** Event metadata the `clauz3/plugin` transformer emits into built JavaScript, as data. */
export interface ToolMetadata {
  /** Library-qualified tool name, e.g. `filesystem.copy`. */
  readonly tool: string;
  /** The tool's parameter names, in order (for a tool of one object of named arguments: its properties). */
  readonly parameters: readonly string[];
  /** Set when the tool takes one object of named arguments: the name of that parameter (runtime/named.ts). */
  readonly objectParameter?: string;
  /** The `performs` builder's parameters (tool parameter names, in the builder's order). */
  readonly builderParameters: readonly string[];
  /** Each event the builder constructs: its class name and, per field, the tool parameter. */
  readonly events: readonly { readonly event: string; readonly fields: Readonly<Record<string, string>> }[];
  /** Parameters of each `requires` predicate, in declaration order. */
  readonly requires: readonly (readonly string[])[];
  /** Tool parameters of each `ensures` predicate after the result, in declaration order. */
  readonly ensures: readonly (readonly string[])[];
  /** The `updates` builder's parameters, when the tool declares one (default: read from the builder). */
  readonly updatesParameters?: readonly string[];
  /** The library's identifier when its manifest requires approval (the tool runs only under `clauz3 run`; runtime/approval.ts). */
  readonly requiresApproval?: string;
  /** The tool's footprint: derived from its events and its `footprint(...)` (core/footprint). */
  readonly footprint?: FootprintSpec;
}

/** The argument the transformer injects: `{ __clauz3_metadata: {...} }`. */
export interface MetadataArgument {
  readonly [METADATA_KEY]: ToolMetadata;
}

/** Anything `trusted(...)` accepts before the implementation. */
export type ToolDeclaration = PerformsDeclaration | UpdatesDeclaration | RequiresDeclaration | EnsuresDeclaration | FootprintDeclaration | MetadataArgument;

/** What the runtime knows about a trusted tool. */
export interface ToolInfo {
  readonly name: string;
  readonly parameters: readonly string[];
  readonly performs: PerformsDeclaration | undefined;
  readonly metadata: ToolMetadata | undefined;
  /**
   * What the scheduler resolves the tool's calls with: the emitted metadata's footprint; without
   * metadata, the declared `footprint(...)` of a tool without events; otherwise opaque (deriving
   * from events needs the library's manifest, which only the build reads).
   */
  readonly footprint: FootprintSpec;
}

/** A trusted tool: callable like its implementation, and known to clauz3. */
export type TrustedTool<F extends AnyFunction = AnyFunction> = F & { readonly [TOOL]: ToolInfo };

/**
 * Declare the events a tool performs. The builder's parameters name the tool's parameters (any
 * subset, any order); it returns `new EventClass(param, ...)` or an array of them.
 */
export function performs(builder: (...params: any[]) => Performed): PerformsDeclaration {
  if (typeof builder !== "function") throw new TypeError("clauz3: performs(builder) expects a function");
  return Object.freeze({ [DECLARATION]: "performs" as const, builder });
}

/**
 * Declare what a tool touches beyond its events, as data: `footprint({ kind: "rateLimit",
 * provider: "smtp" })`, `footprint({ kind: "scoped", family: "table", field: "name", access:
 * "write" })`, or `footprint({ kind: "opaque" })` for state that cannot be described.
 */
export function footprint(...selectors: Selector[]): FootprintDeclaration {
  return Object.freeze({ [DECLARATION]: "footprint" as const, selectors: Object.freeze([...selectors]) });
}

/**
 * A precondition: the predicate's parameters name the tool's parameters. Proved at every call
 * site by the prover, and checked again at run time before the implementation runs.
 */
export function requires(predicate: (...params: any[]) => boolean, message?: string): RequiresDeclaration {
  if (typeof predicate !== "function") throw new TypeError("clauz3: requires(predicate) expects a function");
  return Object.freeze({ [DECLARATION]: "requires" as const, predicate, message });
}

/**
 * A postcondition: the predicate's first parameter is the tool's result, the others name tool
 * parameters. The prover assumes it; the runtime checks it on every result.
 */
export function ensures(predicate: (result: any, ...params: any[]) => boolean, message?: string): EnsuresDeclaration {
  if (typeof predicate !== "function") throw new TypeError("clauz3: ensures(predicate) expects a function");
  return Object.freeze({ [DECLARATION]: "ensures" as const, predicate, message });
}

function isMetadata(value: unknown): value is MetadataArgument {
  return typeof value === "object" && value !== null && METADATA_KEY in value;
}

function kindOf(value: unknown): string | undefined {
  return typeof value === "object" && value !== null ? (value as { [DECLARATION]?: string })[DECLARATION] : undefined;
}

/**
 * Make a trusted tool: `trusted(...declarations, implementation)`. Declarations come first, the
 * implementation last. Only `export const name = trusted(...)` at module top level is allowed.
 */
export function trusted<F extends AnyFunction>(...parts: [...declarations: ToolDeclaration[], implementation: F]): TrustedTool<F> {
  const impl = parts[parts.length - 1];
  if (typeof impl !== "function") throw new TypeError("clauz3: trusted(...) takes the implementation function last");
  let metadata: ToolMetadata | undefined;
  let performsDecl: PerformsDeclaration | undefined;
  let updatesDecl: UpdatesDeclaration | undefined;
  let footprintDecl: FootprintDeclaration | undefined;
  const requiresDecls: RequiresDeclaration[] = [];
  const ensuresDecls: EnsuresDeclaration[] = [];
  for (const part of parts.slice(0, -1)) {
    if (isMetadata(part)) metadata = part[METADATA_KEY];
    else if (kindOf(part) === "performs") {
      if (performsDecl) throw new TypeError(`clauz3: ${impl.name || "tool"} declares performs(...) twice; declare every event in one builder`);
      performsDecl = part as PerformsDeclaration;
    } else if (kindOf(part) === "updates") {
      if (updatesDecl) throw new TypeError(`clauz3: ${impl.name || "tool"} declares updates(...) twice; declare every write in one builder`);
      updatesDecl = part as UpdatesDeclaration;
    } else if (kindOf(part) === "requires") requiresDecls.push(part as RequiresDeclaration);
    else if (kindOf(part) === "ensures") ensuresDecls.push(part as EnsuresDeclaration);
    else if (kindOf(part) === "footprint") {
      if (footprintDecl) throw new TypeError(`clauz3: ${impl.name || "tool"} declares footprint(...) twice; list every selector in one`);
      footprintDecl = part as FootprintDeclaration;
    } else throw new TypeError("clauz3: trusted(...) accepts only performs, updates, requires, ensures and footprint before the implementation");
  }
  const name = metadata?.tool ?? (impl.name || "tool");
  const parameters = metadata?.parameters ?? parameterNames(impl);
  // Whether the tool's library requires approval, decided once, where the tool is defined.
  const approval = approvalRequirementOf(metadata, definingFile());
  // Positions are resolved now, while the built-ins are the ones clauz3 captured; a name the tool
  // does not have is reported when the tool is called.
  const positions = (names: readonly string[]): Positions => {
    const at: number[] = [];
    let missing: string | undefined;
    for (const n of names) {
      const i = parameters.indexOf(n);
      if (i < 0) missing ??= n;
      at.push(i);
    }
    return { at, missing };
  };
  const builderAt = positions(performsDecl ? (metadata?.builderParameters ?? parameterNames(performsDecl.builder)) : []);
  const updatesAt = positions(updatesDecl ? (metadata?.updatesParameters ?? parameterNames(updatesDecl.builder)) : []);
  const requiresAt = requiresDecls.map((r, i) => positions(metadata?.requires[i] ?? parameterNames(r.predicate)));
  const ensuresAt = ensuresDecls.map((e, i) => positions(metadata?.ensures[i] ?? parameterNames(e.predicate).slice(1)));
  const pick = (p: Positions, values: readonly unknown[]): unknown[] => {
    if (p.missing !== undefined) throw new TypeError(`clauz3: ${name} has no parameter "${p.missing}"`);
    const out: unknown[] = [];
    for (let i = 0; i < p.at.length; i++) append(out, values[p.at[i]!]);
    return out;
  };

  // Every built-in below comes from ./intrinsics, and nothing is checked while a built-in differs
  // from what clauz3 captured at load (./integrity): agent code cannot bend the wrapper's checks.
  // An `async` implementation: a failed `requires` rejects the call's promise, as the function's
  // own argument checks would, and nothing is recorded. (A plain function returning a promise
  // cannot be told apart before it runs: its failed `requires` throws. The backstop's refusals
  // throw for every tool: they stop the program at the call, awaited or not.)
  const async = isAsyncFunction(impl);
  // A tool of one object of named arguments: known from the metadata; without it (tests, ts-node),
  // a tool of one parameter called with a plain object (the layer rules make the two agree).
  const objectForm = metadata ? metadata.objectParameter !== undefined : undefined;
  const footprintSpec = metadata?.footprint ?? (!performsDecl && footprintDecl ? { selectors: footprintDecl.selectors } : OPAQUE_SPEC);
  const tool = function (this: unknown, ...args: unknown[]): unknown {
    // Every recorder of the call's context sees it: a nested record() cannot hide a call from an
    // enclosing one, and a call no enforce run owns reaches every run in flight.
    const to = recipients();
    let values: unknown[];
    // Built-ins are checked before anything uses them (a replaced `startsWith` could restore itself
    // when called), and again after the checks when code of the caller's may have run during them.
    try {
      values = snapshotArguments(name, parameters, args);
      assertTracesWritable(name, to);
      assertIntrinsicsIntact(name);
      assertApproved(name, approval);
    } catch (error) {
      refuse(to, error);
      throw error;
    }
    let named: Record<string, unknown> = {};
    const object = objectForm ?? (parameters.length === 1 && isPlainRecord(values[0]));
    if (object) {
      try {
        named = namedArguments(name, metadata?.objectParameter ?? parameters[0] ?? "#1", metadata ? parameters : undefined, values[0]);
      } catch (error) {
        refuse(to, error);
        throw error;
      }
    } else for (let i = 0; i < parameters.length; i++) setField(named, parameters[i]!, values[i]);
    // Builders and predicates of an object tool take the object itself (destructured or whole).
    const declared = (p: Positions): unknown[] => (object ? [values[0]] : pick(p, values));
    for (let r = 0; r < requiresDecls.length; r++) {
      const decl = requiresDecls[r]!;
      if (ReflectApply(decl.predicate, undefined, declared(requiresAt[r]!)) !== true) {
        const error = new RequiresError(name, named, decl.message ?? sourceOf(decl.predicate));
        if (async) return rejected(error);
        throw error;
      }
    }
    const occurrences: Occurrence[] = [new ToolCall(tool, name, named)];
    if (performsDecl) {
      const built: unknown = ReflectApply(performsDecl.builder, undefined, declared(builderAt));
      const events: readonly unknown[] = ArrayIsArray(built) ? built : [built];
      for (let i = 0; i < events.length; i++) {
        const event = events[i];
        if (!isInstance(event, Event)) throw new TypeError(`clauz3: the performs builder of ${name} returned a non-event`);
        append(occurrences, ObjectFreeze(event as Event));
      }
    }
    // Fluent writes come after the call's events, in the builder's order (runtime/fluent.ts).
    const writes: FluentUpdate[] = [];
    if (updatesDecl) {
      const built: unknown = ReflectApply(updatesDecl.builder, undefined, declared(updatesAt));
      const list: readonly unknown[] = ArrayIsArray(built) ? built : [built];
      for (let i = 0; i < list.length; i++) {
        if (!isInstance(list[i], FluentUpdate)) throw new TypeError(`clauz3: the updates builder of ${name} returned something other than Fluent.set(key, value)`);
        append(writes, list[i] as FluentUpdate);
        append(occurrences, list[i] as FluentUpdate);
      }
    }
    ObjectFreeze(occurrences);
    // A failed call may or may not have changed what it writes: its keys become unknown.
    const failedWrites = (): void => {
      if (writes.length === 0) return;
      const unknown: Occurrence[] = [];
      for (let i = 0; i < writes.length; i++) append(unknown, new FluentUpdate(writes[i]!.fluent, writes[i]!.key, UNKNOWN_VALUE));
      ObjectFreeze(unknown);
      commitForeign(to, unknown);
      commit(to, unknown);
    };
    try {
      for (let r = 0; r < to.recorders.length; r++) {
        const recorder = to.recorders[r]!;
        const before = recorder.before;
        if (before) ReflectApply(before, recorder, [name, occurrences, to.traces[r]]);
      }
      // A check made while a built-in was changed (by a recorder of the caller's, or by a method of
      // an object it passed that a predicate called) decides nothing.
      if (opaqueArgumentSeen() || !onlyRuns(to)) assertIntrinsicsIntact(name);
      commitForeign(to, occurrences);
    } catch (error) {
      refuse(to, error);
      throw error;
    }
    commit(to, occurrences);
    // Among the run's calls in flight (./in-flight): an `async` implementation whose footprint
    // conflicts with one of them starts once they settled; its events are recorded already, in
    // submission order. A synchronous implementation cannot wait: it runs now.
    const admission = admit(footprintSpec, named);
    let result: unknown;
    try {
      const wait = async ? admission.wait : undefined;
      const start = (): unknown => admission.run(() => ReflectApply(impl, this, values));
      result = wait === undefined ? start() : promiseThen(wait, start);
    } catch (thrown) {
      admission.settle();
      // The call did not return: its run is incomplete even if the caller catches this.
      failedWrites();
      const error = asToolError(name, thrown);
      tell(to, "failed", [name, error]);
      throw error;
    }
    // The caller gets its own copy of the result (./result-copy), and `ensures` is checked on that copy.
    const deliver = (returned: unknown): unknown => {
      const value = resultCopy(returned);
      if (ensuresDecls.length === 0) return value;
      assertIntrinsicsIntact(name);
      for (let e = 0; e < ensuresDecls.length; e++) {
        const decl = ensuresDecls[e]!;
        const params = declared(ensuresAt[e]!);
        if (ReflectApply(decl.predicate, undefined, concat([value], params)) !== true) {
          throw new EnsuresError(name, named, value, decl.message ?? sourceOf(decl.predicate), firstBrokenElement(decl.predicate, value, params));
        }
      }
      if (opaqueArgumentSeen()) assertIntrinsicsIntact(name);
      return value;
    };
    if (!isPromise(result)) {
      admission.settle();
      return deliver(result);
    }
    // An async implementation: the call and its events are recorded now; ensures holds of the
    // resolved value; the runs wait for the call to settle before they end. The calls waiting for
    // it may start as soon as it settles, before its caller goes on.
    const settled = promiseThen(result, (value: unknown) => {
      admission.settle();
      return deliver(value);
    }, (thrown: unknown) => {
      admission.settle();
      failedWrites();
      const error = asToolError(name, thrown);
      tell(to, "failed", [name, error]);
      throw error;
    });
    tell(to, "pending", [name, settled]);
    return settled;
  } as unknown as TrustedTool<F>;
  Object.defineProperty(tool, "name", { value: impl.name });
  Object.defineProperty(tool, "length", { value: impl.length });
  Object.defineProperty(tool, TOOL, {
    value: Object.freeze({
      name,
      parameters: Object.freeze([...parameters]),
      performs: performsDecl,
      metadata,
      footprint: footprintSpec,
    }),
  });
  return tool;
}

/** The runtime information of a trusted tool, or undefined for any other value. */
export function toolInfo(value: unknown): ToolInfo | undefined {
  return typeof value === "function" ? (value as Partial<TrustedTool>)[TOOL] : undefined;
}

/**
 * The relation of one tool's calls; its items' fields are the tool's parameters by name:
 * `effect(grep).all((call) => call.pattern !== "")`. Pass a type argument to type the fields.
 */
export function effect<Fields extends Record<string, unknown> = Record<string, any>>(tool: AnyFunction): Relation<Readonly<Fields>> {
  const info = toolInfo(tool);
  if (!info) throw new TypeError("clauz3: effect(tool) expects a trusted tool");
  return new Relation<Readonly<Fields>>(Object.freeze({ kind: "effect" as const, tool, toolName: info.name }));
}
