import { Refusal } from "../../refusal";

/**
 * A refusal of state carried across the iterations of a loop over an array of unknown length (a
 * counter, a Map or an array filled in the loop, a `reduce`): the prover still looks for a
 * violation among runs with short arrays, unrolled exactly (prove.ts), and reports one it finds.
 */
export class CarriedStateRefusal extends Refusal {}
