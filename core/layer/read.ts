import * as crypto from "node:crypto";
import * as fs from "node:fs";
import type * as TS from "typescript";
import { report, type Clauz3Options, type Finding, type ReadContext, type TypeScript } from "../context";
import { formatMessage, RULES } from "../rules";
import type { ApprovalDeclarationModel, ContractModel, EventClassModel, FluentModel, LayerFileModel, LayerModel, ToolModel } from "../model";
import { runtimeExportAt, runtimeModuleOf } from "../runtime-symbols";
import { checkAgentFile } from "./agent";
import { domainOf, isProjectSource, isTrustedFile } from "./classify";
import { readContract } from "./contracts";
import { EventReader } from "./events";
import { readFluent } from "./fluents";
import { readTool } from "./tools";
import { checkFootprint } from "../footprint/check";
import { manifestEventAccess } from "../footprint/derive";

/** The trusted layer of a program and every rule violation found while reading it. */
export interface LayerResult {
  readonly model: LayerModel;
  readonly findings: readonly Finding[];
  /** Files of the program that are agent source (not trusted, not declarations, not dependencies). */
  readonly agentFiles: readonly TS.SourceFile[];
  readonly isTrusted: (file: TS.SourceFile) => boolean;
}

/** SHA-256 of a file's bytes on disk, or of its text when it exists only in memory. */
export function sha256Of(file: TS.SourceFile): string {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file.fileName);
  } catch {
    bytes = Buffer.from(file.text, "utf8");
  }
  return crypto.createHash("sha256").update(bytes).digest("hex");
}

/** The finding that stands for an internal failure on a file: fail closed, never a silent pass. */
export function internalErrorFinding(file: TS.SourceFile, error: unknown): Finding {
  const detail = error instanceof Error ? error.message : String(error);
  return { rule: "internalError", file, start: 0, length: 0, message: formatMessage(RULES.internalError, { file: file.fileName, detail }) };
}

/** Whether clauz3 reads a file at all: project sources, not declaration files, dependencies or clauz3's own runtime. */
export function isLayerCandidate(file: TS.SourceFile): boolean {
  return isProjectSource(file.fileName, file.isDeclarationFile) && runtimeModuleOf(file.fileName) === undefined;
}

/**
 * Read a program's trusted layer and check every trusted-layer rule. Never throws: an internal
 * failure on a file becomes an `internal-error` finding on that file (fail closed, never a silent pass).
 */
export function readLayer(ts: TypeScript, program: TS.Program, options: Clauz3Options = {}): LayerResult {
  const checker = program.getTypeChecker();
  const findings: Finding[] = [];
  const ctx = { ts, program, checker, findings, options };
  const projectDir = program.getCurrentDirectory();
  const trustedCache = new Map<string, boolean>();
  const isTrusted = (file: TS.SourceFile): boolean => {
    let t = trustedCache.get(file.fileName);
    if (t === undefined) {
      t = isProjectSource(file.fileName, file.isDeclarationFile) && isTrustedFile(file.fileName, projectDir, options);
      trustedCache.set(file.fileName, t);
    }
    return t;
  };
  const eventReader = new EventReader(ctx, isTrusted);
  const tools = new Map<string, ToolModel>();
  const fluents = new Map<string, FluentModel>();
  const fluentByDeclaration = new Map<TS.Node, FluentModel>();
  const contracts = new Map<string, ContractModel>();
  const files = new Map<string, LayerFileModel>();
  const agentFiles: TS.SourceFile[] = [];
  const approvals = new Map<string, ApprovalDeclarationModel>();
  /** Trusted files in which a `trusted(...)` was already met (a `requireApproval` after it is too late). */
  const toolSeen = new Set<string>();

  const guarded = (file: TS.SourceFile, work: () => void): void => {
    try {
      work();
    } catch (error) {
      findings.push(internalErrorFinding(file, error));
    }
  };

  // clauz3's own runtime (reached through tsconfig `paths` in this repository) is neither layer nor agent source.
  const sources = program.getSourceFiles().filter(isLayerCandidate);
  const trustedFiles = sources.filter(isTrusted);
  // Events first: tools in any file may construct events declared in any other.
  for (const file of trustedFiles) {
    guarded(file, () => {
      // The digest is read only when asked for (identity, catalog): builds never pay for it.
      let digest: string | undefined;
      files.set(file.fileName, { fileName: file.fileName, domain: domainOf(file.fileName), get sha256() { return (digest ??= sha256Of(file)); } });
      const visit = (node: TS.Node): void => {
        if (ts.isClassDeclaration(node)) eventReader.read(node);
        else if (ts.isCallExpression(node) && runtimeExportAt(ts, checker, node.expression) === "fluent") {
          const f = readFluent(ctx, node);
          if (f) {
            fluents.set(f.id, f);
            fluentByDeclaration.set(f.declaration, f);
          }
        } else if (ts.isClassExpression(node) && eventReader.isEventClass(node)) {
          report(ctx, "eventClassForm", node, { problem: "Event classes must be declared with `class Name extends Base` at module top level, not as expressions." });
        }
        ts.forEachChild(node, visit);
      };
      visit(file);
    });
  }
  for (const file of trustedFiles) {
    guarded(file, () => {
      const visit = (node: TS.Node): void => {
        if (ts.isCallExpression(node)) {
          const which = runtimeExportAt(ts, checker, node.expression);
          if (which === "trusted") {
            const tool = readTool(ctx, eventReader, node, fluentByDeclaration);
            if (tool) tools.set(tool.id, tool);
            toolSeen.add(file.fileName);
          } else if (which === "requireApproval") {
            const declared = readApprovalDeclaration(ctx, node, toolSeen.has(file.fileName), approvals.has(file.fileName));
            if (declared !== undefined) approvals.set(file.fileName, { library: declared, call: node });
          } else if (which === "contract") {
            const c = readContract(ctx, node);
            if (c) contracts.set(c.id, c);
          } else if (which === "performs" || which === "updates" || which === "requires" || which === "ensures" || which === "footprint") {
            const parent = node.parent;
            const inTrusted = ts.isCallExpression(parent) && runtimeExportAt(ts, checker, parent.expression) === "trusted" && parent.arguments.includes(node);
            if (!inTrusted) report(ctx, "toolForm", node, { problem: `\`${which}(...)\` is only allowed as an argument of \`trusted(...)\`.` });
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(file);
    });
  }
  for (const file of sources) {
    if (isTrusted(file)) continue;
    agentFiles.push(file);
    guarded(file, () => checkAgentFile(ctx, eventReader, file));
  }

  const events = new Map<string, EventClassModel>();
  const eventByDeclaration = new Map<TS.Node, EventClassModel>();
  for (const [decl, model] of eventReader.byDeclaration) {
    if (!model) continue;
    events.set(model.id, model);
    eventByDeclaration.set(decl, model);
  }
  // Footprints are checked against events once every event class is known (core/footprint/check.ts).
  const accessOf = manifestEventAccess();
  for (const tool of tools.values()) guarded(tool.call.getSourceFile(), () => checkFootprint(ctx, { events }, tool, accessOf));
  const model: LayerModel = {
    events,
    tools,
    contracts,
    files,
    eventByDeclaration,
    toolByDeclaration: new Map([...tools.values()].map((t) => [t.declaration, t])),
    contractByDeclaration: new Map([...contracts.values()].map((c) => [c.declaration, c])),
    fluents,
    fluentByDeclaration,
    approvals,
  };
  return { model, findings, agentFiles, isTrusted };
}

/**
 * `requireApproval("<library>")`: a top-level statement with a string literal, before the module's
 * first tool (the runtime reads it when each tool is defined), once. The library it names is
 * returned when the form is right; the gate compares it with the manifest (core/gate/approval.ts).
 */
function readApprovalDeclaration(ctx: ReadContext, call: TS.CallExpression, afterTool: boolean, again: boolean): string | undefined {
  const { ts } = ctx;
  const arg = call.arguments[0];
  const library = arg !== undefined && ts.isStringLiteral(arg) ? arg.text : "<library id>";
  const statement = call.parent;
  const problem =
    !ts.isExpressionStatement(statement) || !ts.isSourceFile(statement.parent) ? "`requireApproval(...)` is a statement of its own at the top level of a trusted module."
    : call.arguments.length !== 1 || arg === undefined || !ts.isStringLiteral(arg) || arg.text === "" ? "`requireApproval(...)` takes one string literal: the library's identifier."
    : afterTool ? "`requireApproval(...)` comes after a tool of this module: tools defined before it run without an approval."
    : again ? "`requireApproval(...)` is declared twice in this module."
    : undefined;
  if (problem) {
    report(ctx, "approvalDeclaration", call, { problem, library });
    return undefined;
  }
  return library;
}
