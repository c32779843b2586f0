import type { Event } from "./event";
import type { FluentUpdate } from "./fluent";

/**
 * One call of a trusted tool as it was recorded: the relation `effect(tool)` ranges over these.
 * Fields are the tool's parameters, by name.
 */
export class ToolCall {
  readonly tool: Function;
  readonly toolName: string;
  readonly fields: Readonly<Record<string, unknown>>;
  constructor(tool: Function, toolName: string, fields: Record<string, unknown>) {
    this.tool = tool;
    this.toolName = toolName;
    this.fields = Object.freeze({ ...fields });
    Object.freeze(this);
  }
  toJSON(): Record<string, unknown> {
    return { effect: this.toolName, ...this.fields };
  }
  toString(): string {
    const args = Object.entries(this.fields).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(", ");
    return `${this.toolName}(${args})`;
  }
}

/** What a recorder holds: performed events, the tool calls that performed them, and their fluent writes. */
export type Occurrence = Event | ToolCall | FluentUpdate;
