/**
 * The differential tester on issue 10's array methods and builders (profile `arrays`): the
 * generator writes `at`, `indexOf`/`lastIndexOf`, `includes`, `slice`, `flatMap`,
 * `Object.keys/values/entries`, `Array.from` and patterns in `for…of` heads, with indices drawn
 * from the corner values; the prover must agree with real runs.
 */
import { PROFILES } from "../../fuzz/profiles";
import { ARRAYS_OPS } from "../../fuzz/ir";
import { profileSuite } from "../helpers/profiles";

profileSuite("array methods in the differential tester", { weights: PROFILES.arrays, kind: "arrays", ops: [...ARRAYS_OPS], wellTyped: 80, count: 40, seed: 520_000, programs: "array programs" });
