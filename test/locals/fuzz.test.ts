/**
 * The differential tester on arrays the program builds (profile `locals`): pushes under
 * conditions in loops over literal arrays, then joins, loops, counts, pop/shift/unshift, spreads
 * and sums, and the refused shapes (aliases, pushes in loops over arrays of unknown length); the
 * prover must agree with real runs.
 */
import { PROFILES } from "../../fuzz/profiles";
import { LOCALS_OPS } from "../../fuzz/ir";
import { profileSuite } from "../helpers/profiles";

profileSuite("arrays the program builds in the differential tester", { weights: PROFILES.locals, kind: "locals", ops: [...LOCALS_OPS], wellTyped: 80, count: 40, seed: 830_000, programs: "programs that build arrays" });
