/**
 * The differential tester on Sets, Maps, `JSON.stringify` and in-place array changes (profile
 * `collections`, fuzz/collections.ts): the prover must agree with real runs, and refuse the
 * shapes it does not model (de-duplication across a loop over an array of unknown length,
 * inconsistent comparators, holes, numbers that may be NaN in a sort).
 */
import { PROFILES } from "../../fuzz/profiles";
import { COLLECTIONS_OPS } from "../../fuzz/collections";
import { profileSuite } from "../helpers/profiles";

profileSuite("Sets, Maps, JSON and in-place array changes in the differential tester", { weights: PROFILES.collections, kind: "collections", ops: [...COLLECTIONS_OPS], wellTyped: 80, count: 40, seed: 930_000, programs: "programs with collections" });
