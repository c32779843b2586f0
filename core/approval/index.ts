/** Approval requests and receipts (docs/approval.md): what `clauz3 run` submits, what the service signs, what the runtime verifies. */
export { bindingOf } from "./binding";
export { canonicalJson, digestOf, jsonProblem } from "./canonical";
export { INVOCATION_FORMAT, invocationDigest, LAYER_FORMAT, layerFingerprint, PROGRAM_FORMAT, programDigest } from "./digests";
export { IDENTITY_FORMAT, identityDigest, identityDigests } from "./identity";
export { buildRequest, requestLayerOf, sourceOf, type RequestInput } from "./request";
export { APPROVAL_REQUEST_VERSION, ApprovalRequestError, type ApprovalRequest, type LayerLibrary, type ProgramSource, type RequestLayer, type RequestProgram } from "./types";
export { approvalRequestSchema, validateRequest } from "./validate";
export { KeySetError, parseKeySet, readKeySetFile, type PublicJwk, type PublicKeySet } from "./keyset";
export {
  RECEIPT_TYPE,
  RECEIPT_VERSION,
  ReceiptError,
  receiptClaims,
  signReceipt,
  verifyReceipt,
  type ApprovalDecision,
  type ExpectedBinding,
  type IssueInput,
  type ReceiptClaims,
  type ReceiptFailure,
  type ReceiptSigner,
} from "./receipt";
