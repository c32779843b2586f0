/**
 * The differential tester on integers as Int terms (profile `integers`): budget loops over
 * `wholes()` (integral amounts an `ensures` declares), `tally()` (a small integer that may be -0)
 * added to literals at the edge of 2^53, divided into and scaled; the prover must agree with real
 * runs. The re-opened hole `integer-bound-in-doubles` is found by test/fuzz/holes.test.ts.
 */
import { PROFILES } from "../../fuzz/profiles";
import { profileSuite } from "../helpers/profiles";

profileSuite("integers in the differential tester", { weights: PROFILES.integers, kind: "ints", ops: ["budget", "edge", "scaled", "signed", "remainder", "rounded"], wellTyped: 60, count: 40, seed: 610_000, programs: "integer programs" });
