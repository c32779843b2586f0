// An agent module that spends at load: its whole-run guarantees must count what it spent then.
import { atMostSends, send, spendAtMost } from "./layer";

send("bob@example.com", 7);

export const guarantees = [spendAtMost(10), atMostSends(2)];
export function main(amount: number): void {
  send("carol@example.com", amount);
}
