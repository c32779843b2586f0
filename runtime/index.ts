/** `clauz3`: what trusted layers and agent programs import at run time. */
export { trusted, requires, ensures, toolInfo } from "./tool";
export { requireApproval } from "./approval";
export type { TrustedTool, ToolInfo, ToolMetadata, ToolDeclaration, RequiresDeclaration, EnsuresDeclaration } from "./tool";
export { FilePath, DirectoryPath } from "./paths";
export { record, traceMark } from "./recorder";
export type { Recorder, TraceMark } from "./recorder";
export { enforce } from "./backstop";
export type { Enforced, EnforceOptions } from "./backstop";
export { check } from "./check";
export { Clauz3Error, RequiresError, EnsuresError, ToolFailedError, GuaranteeViolationError, IncompleteRunError, IntrinsicsChangedError, ArgumentError, RecorderError } from "./errors";
export type { ViolationPhase, Incompleteness } from "./errors";
export { ToolCall } from "./occurrence";
export type { Occurrence } from "./occurrence";
export { runBatch, footprintOfCall } from "./scheduler";
export type { BatchCall, BatchResult, BatchOptions } from "./scheduler";
export { resolveFootprint, canonicalPath, conflicts, commutes, overlaps, isMutating } from "./footprint";
export type { Access, Selector, FootprintSpec, Footprint, Resource } from "./footprint";
