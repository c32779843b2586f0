// A small layer for the module-load tests (not under a `trusted` folder: it is test scaffolding,
// imported only after vi.resetModules(), so each test gets a fresh clauz3 runtime).
import { trusted } from "clauz3";
import { Event, performs } from "clauz3/events";
import { contract, type ContractSpec } from "clauz3/spec";

export class Send extends Event {
  constructor(readonly to: string, readonly amount: number) { super(); }
}

/** What the tool's implementation did, in order. */
export const sent: string[] = [];

export const send = trusted(
  performs((to: string, amount: number) => new Send(to, amount)),
  function send(to: string, amount: number): void {
    sent.push(`${to}:${amount}`);
  },
);

export const neverSendTo = contract(function neverSendTo(to: string): ContractSpec {
  return Send.all((s) => s.to !== to);
});

export const atMostSends = contract(function atMostSends(n: number): ContractSpec {
  return Send.count().atMost(n);
});

export const spendAtMost = contract(function spendAtMost(n: number): ContractSpec {
  return Send.sum((s) => s.amount).atMost(n);
});
