import type * as TS from "typescript";

/**
 * Thrown deep inside the prover (or guarantee reader) when a construct leaves the modelled subset.
 * Always carries the exact node and what to write instead; turned into a diagnostic at one boundary.
 */
export class Refusal extends Error {
  constructor(
    readonly node: TS.Node,
    readonly reason: string,
    readonly instead: string,
  ) {
    super(`${reason} ${instead}`);
    this.name = "Refusal";
  }
}
