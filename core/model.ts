import type * as ts from "typescript";
import type { Selector } from "../runtime/footprint";

/** A position in a source file: 1-based line and column, plus the node's span. */
export interface Span {
  readonly fileName: string;
  readonly start: number;
  readonly length: number;
  readonly line: number;
  readonly column: number;
}

/** The value types clauz3 models for tool parameters, event fields and contract parameters. */
export type ValueType =
  | { readonly kind: "string" }
  | { readonly kind: "number" }
  | { readonly kind: "boolean" }
  | { readonly kind: "FilePath" }
  | { readonly kind: "DirectoryPath" }
  | { readonly kind: "void" }
  | { readonly kind: "array"; readonly element: ValueType }
  | { readonly kind: "record"; readonly name: string; readonly fields: readonly { readonly name: string; readonly type: ValueType }[] }
  /** `T | undefined` (only as a tool's result, see core/layer/object-parameter.ts). */
  | { readonly kind: "optional"; readonly inner: ValueType }
  | { readonly kind: "unsupported"; readonly text: string };

/** A parameter of a tool or contract as declared. */
export interface ParameterModel {
  readonly name: string;
  readonly type: ValueType;
  /** The declared type as written (for messages and the catalog). */
  readonly typeText: string;
  readonly optional: boolean;
  /** Source text of the default value, when there is one. */
  readonly defaultText: string | undefined;
  readonly rest: boolean;
  readonly node: ts.ParameterDeclaration;
}

export interface EventFieldModel {
  readonly name: string;
  readonly type: ValueType;
  readonly typeText: string;
  /** Id of the event class that declares the field. */
  readonly declaredBy: string;
}

/** An event class: a subclass of `Event`. Identity is the declaration (`id`), never the name. */
export interface EventClassModel {
  /** `<fileName>#<className>` */
  readonly id: string;
  readonly name: string;
  readonly fileName: string;
  /** Id of the base event class; undefined when it extends `Event` directly. */
  readonly baseId: string | undefined;
  /** All fields, inherited first, in constructor order. */
  readonly fields: readonly EventFieldModel[];
  readonly declaration: ts.ClassDeclaration;
  readonly span: Span;
}

/** One `new EventClass(...)` in a `performs` builder, with each field mapped to a tool parameter. */
export interface PerformedEventModel {
  readonly eventId: string;
  /** field name → tool parameter name */
  readonly fields: Readonly<Record<string, string>>;
  readonly node: ts.NewExpression;
}

/** The scalar types a fluent's keys and values take (`String`, `Number`, `Boolean` in the declaration). */
export type FluentScalar = "string" | "number" | "boolean";

/** A fluent: `export const Name = fluent("Name", { key, value, initial })` in a trusted module. */
export interface FluentModel {
  /** `<fileName>#<exportName>` */
  readonly id: string;
  readonly name: string;
  readonly fileName: string;
  readonly key: FluentScalar;
  readonly value: FluentScalar;
  readonly initial: string | number | boolean;
  readonly summary: string | undefined;
  readonly declaration: ts.VariableDeclaration;
  readonly span: Span;
}

/** One argument of `Fluent.set(key, value)` in an `updates` builder: a tool parameter or a literal. */
export type UpdateArgument = { readonly kind: "parameter"; readonly name: string } | { readonly kind: "literal"; readonly value: string | number | boolean };

/** One `Fluent.set(key, value)` an `updates` builder returns. */
export interface UpdateModel {
  readonly fluentId: string;
  readonly key: UpdateArgument;
  readonly value: UpdateArgument;
  readonly node: ts.CallExpression;
}

/** A `requires` or `ensures` declaration. */
export interface PredicateModel {
  /** Tool parameter names bound by the predicate's parameters (after the result, for ensures). */
  readonly parameters: readonly string[];
  /** For ensures: the name the predicate gives the result. */
  readonly resultName: string | undefined;
  readonly message: string | undefined;
  readonly fn: ts.ArrowFunction | ts.FunctionExpression;
  readonly node: ts.CallExpression;
}

/** The single object parameter of a tool of named arguments; its properties are the tool's `parameters`. */
export interface ObjectParameterModel {
  readonly name: string;
  /** The declared type as written (`{ to: string }`, `Message`). */
  readonly typeText: string;
  readonly node: ts.ParameterDeclaration;
}

/** One selector of a declared `footprint(...)`. */
export interface DeclaredSelectorModel {
  readonly selector: Selector;
  readonly node: ts.ObjectLiteralExpression;
}

/** A trusted tool: `export const name = trusted(...declarations, implementation)`. */
export interface ToolModel {
  /** `<fileName>#<exportName>` */
  readonly id: string;
  readonly name: string;
  /** `<domain>.<name>` */
  readonly qualifiedName: string;
  readonly domain: string;
  readonly fileName: string;
  /**
   * The tool's parameters by name. For a tool of one object of named arguments these are the
   * object's properties (see `objectParameter`), so everything downstream (events, `effect`,
   * describe, catalog) treats them exactly like positional parameters.
   */
  readonly parameters: readonly ParameterModel[];
  /** Set when the tool takes a single object of named arguments: `function send(msg: { to: string })`. */
  readonly objectParameter: ObjectParameterModel | undefined;
  /** The result once awaited: `T` for a tool returning `Promise<T>` (see `async`). */
  readonly returnType: ValueType;
  /** The implementation returns a `Promise` (is `async`): callers `await` it, `returnType` is what it resolves to. */
  readonly async: boolean;
  readonly performs:
    | { readonly builderParameters: readonly string[]; readonly events: readonly PerformedEventModel[]; readonly node: ts.CallExpression }
    | undefined;
  /** The fluent writes of `updates(builder)`, in the builder's order (after the call's events). */
  readonly updates?: { readonly builderParameters: readonly string[]; readonly writes: readonly UpdateModel[]; readonly node: ts.CallExpression } | undefined;
  readonly requires: readonly PredicateModel[];
  readonly ensures: readonly PredicateModel[];
  /** The declared `footprint(...)`, each selector with the node it was read from (core/footprint/read.ts). */
  readonly footprint?: { readonly selectors: readonly DeclaredSelectorModel[]; readonly node: ts.CallExpression };
  /** First JSDoc paragraph and the whole JSDoc text. */
  readonly summary: string | undefined;
  readonly documentation: string | undefined;
  readonly call: ts.CallExpression;
  readonly implementation: ts.FunctionExpression | ts.ArrowFunction;
  readonly declaration: ts.VariableDeclaration;
  readonly span: Span;
}

/** A contract: `export const name = contract(options?, body)`. */
export interface ContractModel {
  readonly id: string;
  readonly name: string;
  readonly qualifiedName: string;
  readonly domain: string;
  readonly fileName: string;
  readonly parameters: readonly ParameterModel[];
  /** The description template, when the contract has one. */
  readonly template: { readonly text: string; readonly node: ts.Node } | undefined;
  readonly summary: string | undefined;
  readonly documentation: string | undefined;
  readonly body: ts.ArrowFunction | ts.FunctionExpression;
  readonly call: ts.CallExpression;
  readonly declaration: ts.VariableDeclaration;
  readonly span: Span;
}

/** A source file of a trusted layer. */
export interface LayerFileModel {
  readonly fileName: string;
  readonly domain: string;
  /** SHA-256 of the file's bytes on disk (of its text when it has no file). */
  readonly sha256: string;
}

/** What core/layer reads from a program: the trusted layer's events, tools and contracts. */
export interface LayerModel {
  readonly events: ReadonlyMap<string, EventClassModel>;
  readonly tools: ReadonlyMap<string, ToolModel>;
  readonly contracts: ReadonlyMap<string, ContractModel>;
  readonly files: ReadonlyMap<string, LayerFileModel>;
  /** Look-ups by declaration node (the identity the prover resolves symbols to). */
  readonly eventByDeclaration: ReadonlyMap<ts.Node, EventClassModel>;
  readonly toolByDeclaration: ReadonlyMap<ts.Node, ToolModel>;
  readonly contractByDeclaration: ReadonlyMap<ts.Node, ContractModel>;
  /** Fluents of the layer (absent: none read), and by declaration node. */
  readonly fluents?: ReadonlyMap<string, FluentModel>;
  readonly fluentByDeclaration?: ReadonlyMap<ts.Node, FluentModel>;
  /** `requireApproval("<library>")` statements of trusted modules, by file name (absent: none read). */
  readonly approvals?: ReadonlyMap<string, ApprovalDeclarationModel>;
}

/** A trusted module's `requireApproval("<library>")` (runtime/approval.ts). */
export interface ApprovalDeclarationModel {
  readonly library: string;
  readonly call: ts.CallExpression;
}
