/**
 * What a receipt binds of each guarantee: a digest of the identity `describe` computed for it
 * (core/describe), over the fields that decide what was approved — the library and its manifest
 * (title and badge are its declarations), the resolved symbol and qualified name, the bound
 * parameters with defaults expanded, the template digest and renderer version, the sentence shown,
 * and the source digests of the contract's file and every trusted file it imports. Display-only
 * fields (where the guarantee is written, the expression as spelled, the documentation, whose
 * digest the sources already carry) are left out, so moving a guarantee within the program keeps
 * its identity while changing any contract byte does not.
 */
import type { GuaranteeIdentity } from "../describe";
import { digestOf } from "./canonical";

export const IDENTITY_FORMAT = "clauz3-guarantee-identity/1";

/** The digest (64 hex digits) of one guarantee's identity. */
export function identityDigest(g: GuaranteeIdentity): string {
  return digestOf(IDENTITY_FORMAT, {
    library: { id: g.library.id, domain: g.library.domain, version: g.library.version, manifestSha256: g.library.manifestSha256 },
    symbol: g.symbol,
    qualifiedName: g.qualifiedName,
    parameters: g.parameters.map((p) => ({ name: p.name, type: p.type, value: p.value, defaulted: p.defaulted })),
    templateSha256: g.templateSha256,
    rendererVersion: g.rendererVersion,
    sentence: g.sentence,
    sentenceSource: g.sentenceSource,
    sources: g.sources.map((s) => ({ file: s.file, sha256: s.sha256 })),
  });
}

/** The identity digests of a program's guarantees, in the order the program lists them. */
export function identityDigests(guarantees: readonly GuaranteeIdentity[]): string[] {
  return guarantees.map(identityDigest);
}
