/**
 * The differential tester on idiomatic TypeScript (profile `idioms`, fuzz/idioms.ts): the prover
 * must agree with real runs.
 */
import { PROFILES } from "../../fuzz/profiles";
import { IDIOMS_OPS } from "../../fuzz/idioms";
import { profileSuite } from "../helpers/profiles";

profileSuite("idioms in the differential tester", { weights: PROFILES.idioms, kind: "idioms", ops: [...IDIOMS_OPS], wellTyped: 60, count: 30, seed: 1_190_000, programs: "idiom programs" });
