/** The fluent test layer: doors that lock, feature flags, a config file's last write. */
import { trusted, ensures } from "clauz3";
import { Event, fluent, performs, updates } from "clauz3/events";
import { contract, type ContractSpec } from "clauz3/spec";

export class DoorEvent extends Event { constructor(readonly door: string) { super(); } }

/** Whether a door is locked. */
export const Locked = fluent("Locked", { key: String, value: Boolean, initial: false });
/** Whether a feature flag is on. */
export const Flag = fluent("Flag", { key: String, value: Boolean, initial: false });
/** The text last written to a file. */
export const FileText = fluent("FileText", { key: String, value: String, initial: "" });
/** A counter's value. */
export const Level = fluent("Level", { key: Number, value: Number, initial: 0 });

export const lock = trusted(performs((door: string) => new DoorEvent(door)), updates((door: string) => Locked.set(door, true)), function lock(door: string): void {});
export const unlock = trusted(updates((door: string) => Locked.set(door, false)), function unlock(door: string): void {});
export const setFlag = trusted(updates((name: string, on: boolean) => Flag.set(name, on)), function setFlag(name: string, on: boolean): void {});
export const writeFile = trusted(updates((path: string, text: string) => FileText.set(path, text)), function writeFile(path: string, text: string): void {});
export const lockAll = trusted(updates(({ door }) => [Locked.set(door, true), Locked.set("hall", true)]), function lockAll(req: { door: string }): void {});
export const setLevel = trusted(updates((at: number, level: number) => Level.set(at, level)), function setLevel(at: number, level: number): void {});
export const listDoors = trusted(ensures((r: string[]) => r.length >= 0), function listDoors(): string[] { return []; });
export const approvedText = trusted(function approvedText(): string { return "approved"; });

export const lockedAtEnd = contract({ description: "Door {door} is locked when the program finishes." }, (door: string): ContractSpec => Locked.final.at(door).equals(true));
export const noFlagLeftOn = contract({ description: "No feature flag is left on when the program finishes." }, (): ContractSpec => Flag.final.all((e) => e.value === false));
export const lastWriteIs = contract({ description: "The last write to {path} is {text}." }, (path: string, text: string): ContractSpec => FileText.final.at(path).equals(text));
export const everyDoorLocked = contract({ description: "Every door the program touched is locked when it finishes." }, (): ContractSpec => Locked.final.all((e) => e.value));
export const levelAtMost = contract({ description: "Every level the program set ends at most {n}." }, (n: number): ContractSpec => Level.final.all((e) => e.value <= n));
