/**
 * The differential tester on state carried across iterations (profile `loopstate`): budgets,
 * counters, found flags and `break` over arrays of unknown length, with off-by-one and
 * missing-update twins; every proof must hold in real runs and every counterexample replay.
 */
import { PROFILES } from "../../fuzz/profiles";
import { LOOPSTATE_OPS } from "../../fuzz/ir";
import { profileSuite } from "../helpers/profiles";

profileSuite("state carried across iterations in the differential tester", { weights: PROFILES.loopstate, kind: "loopstate", ops: [...LOOPSTATE_OPS], wellTyped: 80, count: 30, seed: 930_000, programs: "programs with loop-carried state" });
