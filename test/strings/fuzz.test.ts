/**
 * The differential tester on issue 10's strings and conversions (profile `strings`): the
 * generator writes `String`, `Number`, `toFixed`, `toLowerCase`/`toUpperCase`, `trim`/
 * `trimStart`/`trimEnd`, `split`, `replace`/`replaceAll`, `slice`/`substring` and `Math`'s
 * roundings over corner texts and numbers; the prover must
 * agree with real runs.
 */
import { PROFILES } from "../../fuzz/profiles";
import { STRINGS_OPS } from "../../fuzz/strings";
import { profileSuite } from "../helpers/profiles";

profileSuite("strings and conversions in the differential tester", { weights: PROFILES.strings, kind: "strings", ops: [...STRINGS_OPS], wellTyped: 80, count: 40, seed: 530_000, programs: "string programs" });
