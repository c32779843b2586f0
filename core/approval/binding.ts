/**
 * What a receipt for a request binds, computed from the request: its program digest, the digest of
 * its invocation, its guarantees' identity digests and its layer fingerprint. The service signs
 * this for the request it verified; `run` computes it from what it is about to run and verifies
 * the receipt against it.
 */
import { invocationDigest } from "./digests";
import { identityDigests } from "./identity";
import type { ExpectedBinding } from "./receipt";
import type { ApprovalRequest } from "./types";

export function bindingOf(request: ApprovalRequest): ExpectedBinding {
  return {
    program: request.program.digest,
    invocation: invocationDigest(request.program.target, request.inputs),
    guarantees: identityDigests(request.guarantees),
    layer: request.layer.fingerprint,
  };
}
