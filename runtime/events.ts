/** `clauz3/events`: event classes and the `performs` declaration. */
export { Event } from "./event";
export type { EventClass } from "./event";
export { performs, footprint, effect } from "./tool";
export type { PerformsDeclaration, Performed, FootprintDeclaration } from "./tool";
export type { Access, Selector, FootprintSpec } from "./footprint";
export { fluent, updates, Fluent, FluentUpdate, FinalState } from "./fluent";
export type { FluentEntry, FluentTag, TagValue, Updated, UpdatesDeclaration } from "./fluent";
