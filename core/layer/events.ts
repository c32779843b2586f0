import type * as TS from "typescript";
import { report, type ReadContext } from "../context";
import type { EventClassModel, EventFieldModel } from "../model";
import { resolveDeclaration, runtimeExportOf } from "../runtime-symbols";
import { RESERVED_FIELD_NAMES } from "../rules";
import { spanOf } from "../span";
import { sameValueType, showValueType, valueTypeOf } from "../types";


/** Reads event classes on demand (a class's base is read first), memoised by declaration. */
export class EventReader {
  readonly byDeclaration = new Map<TS.Node, EventClassModel | null>();
  private readonly inProgress = new Set<TS.Node>();

  constructor(private readonly ctx: ReadContext, private readonly isTrusted: (file: TS.SourceFile) => boolean) {}

  /**
   * The base a class extends: "event-root" for `Event` itself, a class declaration, or undefined
   * when the class extends nothing we can resolve.
   */
  private baseOf(cls: TS.ClassLikeDeclaration): "event-root" | TS.ClassDeclaration | undefined {
    const { ts, checker } = this.ctx;
    const clause = cls.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword);
    const expr = clause?.types[0]?.expression;
    if (!expr) return undefined;
    const node = ts.isPropertyAccessExpression(expr) ? expr.name : expr;
    const symbol = checker.getSymbolAtLocation(node);
    if (runtimeExportOf(ts, checker, symbol) === "Event") return "event-root";
    const decl = resolveDeclaration(ts, checker, symbol);
    return decl && ts.isClassDeclaration(decl) ? decl : undefined;
  }

  /** Whether a class (declaration or expression) is an event class, without reporting anything. */
  isEventClass(cls: TS.ClassLikeDeclaration, seen = new Set<TS.Node>()): boolean {
    if (seen.has(cls)) return false;
    seen.add(cls);
    const base = this.baseOf(cls);
    if (base === "event-root") return true;
    return base !== undefined && this.isEventClass(base, seen);
  }

  /** The model of an event class declared in a trusted file, or null when it is not one. */
  read(cls: TS.ClassDeclaration): EventClassModel | null {
    const known = this.byDeclaration.get(cls);
    if (known !== undefined) return known;
    if (this.inProgress.has(cls) || !this.isTrusted(cls.getSourceFile())) return null;
    this.inProgress.add(cls);
    try {
      const model = this.readUncached(cls);
      this.byDeclaration.set(cls, model);
      return model;
    } finally {
      this.inProgress.delete(cls);
    }
  }

  private readUncached(cls: TS.ClassDeclaration): EventClassModel | null {
    const { ts } = this.ctx;
    const baseDecl = this.baseOf(cls);
    if (baseDecl === undefined) return null;
    let base: EventClassModel | undefined;
    if (baseDecl !== "event-root") {
      const b = this.read(baseDecl);
      if (!b) return null;
      base = b;
    }
    const file = cls.getSourceFile();
    const name = cls.name?.text ?? "default";
    const id = `${file.fileName}#${name}`;
    const clause = cls.heritageClauses!.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)!;
    const baseExpr = clause.types[0]!;
    if (!ts.isSourceFile(cls.parent)) {
      report(this.ctx, "eventClassForm", cls.name ?? cls, { problem: `Event class \`${name}\` is declared inside a function or block.` });
    }
    if (cls.typeParameters) {
      report(this.ctx, "eventClassForm", cls.typeParameters[0]!, { problem: `Event class \`${name}\` is generic; its fields must have fixed types.` });
    }
    if (baseExpr.typeArguments || !(ts.isIdentifier(baseExpr.expression) || ts.isPropertyAccessExpression(baseExpr.expression))) {
      report(this.ctx, "eventClassForm", baseExpr, { problem: `\`${name}\` must extend an event class by name.` });
    }
    const inherited = base?.fields ?? [];
    let fields: EventFieldModel[] = [...inherited];
    for (const member of cls.members) {
      if (ts.isConstructorDeclaration(member)) {
        fields = this.readConstructor(member, name, id, inherited);
      } else if (ts.isPropertyDeclaration(member)) {
        report(this.ctx, "eventFieldForm", member, { problem: `\`${member.name.getText()}\` is a class property, not a constructor parameter.` });
      } else if (!ts.isSemicolonClassElement(member)) {
        report(this.ctx, "eventClassForm", member, { problem: `Event class \`${name}\` declares \`${member.name?.getText() ?? "a member"}\`; an event holds only its fields.` });
      }
    }
    return { id, name, fileName: file.fileName, baseId: base?.id, fields, declaration: cls, span: spanOf(cls.name ?? cls) };
  }

  private readConstructor(ctor: TS.ConstructorDeclaration, className: string, id: string, inherited: readonly EventFieldModel[]): EventFieldModel[] {
    const { ts, checker } = this.ctx;
    const fields: EventFieldModel[] = [];
    const params = ctor.parameters;
    const problem = (node: TS.Node, text: string) => report(this.ctx, "eventFieldForm", node, { problem: text });
    params.forEach((param, i) => {
      const pname = ts.isIdentifier(param.name) ? param.name.text : param.name.getText();
      const mods = ts.getModifiers(param) ?? [];
      const isReadonly = mods.some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword);
      const hidden = mods.find((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword);
      if (!ts.isIdentifier(param.name)) return problem(param, `Field \`${pname}\` of \`${className}\` is destructured.`);
      if (param.dotDotDotToken || param.questionToken || param.initializer) {
        return problem(param, `Field \`${pname}\` of \`${className}\` is ${param.dotDotDotToken ? "variadic" : param.questionToken ? "optional" : "defaulted"}.`);
      }
      if (!param.type) return problem(param, `Field \`${pname}\` of \`${className}\` has no declared type.`);
      const type = valueTypeOf(this.ctx, checker.getTypeFromTypeNode(param.type));
      if (i < inherited.length) {
        if (mods.length > 0) return problem(param, `Inherited field \`${inherited[i]!.name}\` must be a plain parameter passed to \`super\`, not redeclared.`);
        if (!sameValueType(type, inherited[i]!.type)) {
          return problem(param, `Inherited field \`${inherited[i]!.name}\` is \`${showValueType(inherited[i]!.type)}\`, but this parameter is \`${showValueType(type)}\`.`);
        }
        fields.push(inherited[i]!);
        return;
      }
      if (RESERVED_FIELD_NAMES.has(pname)) {
        report(this.ctx, "reservedFieldName", param, { name: pname });
        return;
      }
      if (!isReadonly || hidden) {
        return problem(param, `Constructor parameter \`${pname}\` of \`${className}\` is not a public \`readonly\` field.`);
      }
      fields.push({ name: pname, type, typeText: param.type.getText(), declaredBy: id });
    });
    if (params.length < inherited.length) {
      problem(ctor, `\`${className}\` inherits ${inherited.length} field(s) (${inherited.map((f) => f.name).join(", ")}) but its constructor takes ${params.length}.`);
    }
    // The body must be exactly `super(<inherited parameters in order>)`.
    const stmts = ctor.body?.statements ?? ts.factory.createNodeArray();
    const first = stmts[0];
    const expected = params.slice(0, inherited.length).map((p) => (ts.isIdentifier(p.name) ? p.name.text : ""));
    const isSuperCall =
      first !== undefined &&
      ts.isExpressionStatement(first) &&
      ts.isCallExpression(first.expression) &&
      first.expression.expression.kind === ts.SyntaxKind.SuperKeyword;
    if (!isSuperCall) {
      problem(ctor.body ?? ctor, `The constructor of \`${className}\` must consist of \`super(${expected.join(", ")});\` only.`);
    } else {
      const call = (first as TS.ExpressionStatement).expression as TS.CallExpression;
      const args = call.arguments.map((a) => (ts.isIdentifier(a) ? a.text : "\0"));
      if (args.length !== expected.length || args.some((a, i) => a !== expected[i])) {
        problem(call, `Pass the inherited fields to super in order: \`super(${expected.join(", ")})\`.`);
      }
      for (const extra of stmts.slice(1)) problem(extra, `The constructor of \`${className}\` does more than call \`super\`.`);
    }
    return fields;
  }
}
