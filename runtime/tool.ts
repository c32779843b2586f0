import { DECLARATION, METADATA_KEY, TOOL } from "./brand";
import { EnsuresError, RequiresError } from "./errors";
import { Event, freezeEvent } from "./event";
import { ToolCall, type Occurrence } from "./occurrence";
import { parameterNames } from "./params";
import { activeRecorders } from "./recorder";
import { Relation } from "./relation";

type AnyFunction = (...args: any[]) => any;

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

/** Event metadata the `clauz3/plugin` transformer emits into built JavaScript, as data. */
export interface ToolMetadata {
  /** Library-qualified tool name, e.g. `filesystem.copy`. */
  readonly tool: string;
  /** The tool's parameter names, in order. */
  readonly parameters: readonly string[];
  /** The `performs` builder's parameters (tool parameter names, in the builder's order). */
  readonly builderParameters: readonly string[];
  /** Each event the builder constructs: its class name and, per field, the tool parameter. */
  readonly events: readonly { readonly event: string; readonly fields: Readonly<Record<string, string>> }[];
  /** Parameters of each `requires` predicate, in declaration order. */
  readonly requires: readonly (readonly string[])[];
  /** Tool parameters of each `ensures` predicate after the result, in declaration order. */
  readonly ensures: readonly (readonly string[])[];
}

/** The argument the transformer injects: `{ __clauz3_metadata: {...} }`. */
export interface MetadataArgument {
  readonly [METADATA_KEY]: ToolMetadata;
}

/** Anything `trusted(...)` accepts before the implementation. */
export type ToolDeclaration = PerformsDeclaration | RequiresDeclaration | EnsuresDeclaration | MetadataArgument;

/** What the runtime knows about a trusted tool. */
export interface ToolInfo {
  readonly name: string;
  readonly parameters: readonly string[];
  readonly performs: PerformsDeclaration | undefined;
  readonly metadata: ToolMetadata | undefined;
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
  const requiresDecls: RequiresDeclaration[] = [];
  const ensuresDecls: EnsuresDeclaration[] = [];
  for (const part of parts.slice(0, -1)) {
    if (isMetadata(part)) metadata = part[METADATA_KEY];
    else if (kindOf(part) === "performs") {
      if (performsDecl) throw new TypeError(`clauz3: ${impl.name || "tool"} declares performs(...) twice; declare every event in one builder`);
      performsDecl = part as PerformsDeclaration;
    } else if (kindOf(part) === "requires") requiresDecls.push(part as RequiresDeclaration);
    else if (kindOf(part) === "ensures") ensuresDecls.push(part as EnsuresDeclaration);
    else throw new TypeError("clauz3: trusted(...) accepts only performs, requires and ensures before the implementation");
  }
  const name = metadata?.tool ?? (impl.name || "tool");
  const parameters = metadata?.parameters ?? parameterNames(impl);
  const builderParams = performsDecl ? (metadata?.builderParameters ?? parameterNames(performsDecl.builder)) : [];
  const requiresParams = requiresDecls.map((r, i) => metadata?.requires[i] ?? parameterNames(r.predicate));
  const ensuresParams = ensuresDecls.map((e, i) => metadata?.ensures[i] ?? parameterNames(e.predicate).slice(1));
  const indexOf = (param: string): number => {
    const i = parameters.indexOf(param);
    if (i < 0) throw new TypeError(`clauz3: ${name} has no parameter "${param}"`);
    return i;
  };
  const pick = (names: readonly string[], args: unknown[]): unknown[] => names.map((n) => args[indexOf(n)]);

  const tool = function (this: unknown, ...args: unknown[]): unknown {
    const named: Record<string, unknown> = {};
    parameters.forEach((p, i) => (named[p] = args[i]));
    requiresDecls.forEach((r, i) => {
      if (r.predicate(...pick(requiresParams[i]!, args)) !== true) {
        throw new RequiresError(name, named, r.message ?? Function.prototype.toString.call(r.predicate));
      }
    });
    const occurrences: Occurrence[] = [new ToolCall(tool, name, named)];
    if (performsDecl) {
      const built = performsDecl.builder(...pick(builderParams, args));
      for (const event of Array.isArray(built) ? built : [built]) {
        if (!(event instanceof Event)) throw new TypeError(`clauz3: the performs builder of ${name} returned a non-event`);
        occurrences.push(freezeEvent(event));
      }
    }
    // Every enclosing recorder sees the call: a nested record() must not hide it from an enforce().
    const recorders = activeRecorders();
    for (const recorder of recorders) recorder.before?.(name, occurrences, recorder.trace);
    for (const recorder of recorders) recorder.trace.push(...occurrences);
    const result = impl.apply(this, args);
    const check = (value: unknown): unknown => {
      ensuresDecls.forEach((e, i) => {
        if (e.predicate(value, ...pick(ensuresParams[i]!, args)) !== true) {
          throw new EnsuresError(name, named, value, e.message ?? Function.prototype.toString.call(e.predicate));
        }
      });
      return value;
    };
    if (ensuresDecls.length > 0 && result instanceof Promise) return result.then(check);
    return ensuresDecls.length > 0 ? check(result) : result;
  } as unknown as TrustedTool<F>;
  Object.defineProperty(tool, "name", { value: impl.name });
  Object.defineProperty(tool, "length", { value: impl.length });
  Object.defineProperty(tool, TOOL, {
    value: Object.freeze({ name, parameters: Object.freeze([...parameters]), performs: performsDecl, metadata }),
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
