/**
 * Which guarantee arguments may be remembered. A remembered rule keeps its arguments in the
 * database and lists them on the rules page, and matches them byte for byte; so an argument is not
 * eligible when remembering it would store a secret, when a reviewer cannot be expected to have
 * read all of it, or when what is stored is not what the reviewer saw:
 *
 * - **secret-looking**: the parameter's name says it holds a credential (secret, password, token,
 *   API or private key, credential, authorization, bearer), or the value looks like one (a PEM private key, a JWT, provider key
 *   prefixes such as `sk-`, `ghp_`, `AKIA`, `xoxb-`, 32 or more hex digits, or a 32-character run of
 *   letters and digits mixing upper case, lower case and digits);
 * - **free text**: a string with a line break or longer than 200 characters;
 * - **invisible characters**: format or control characters (bidi overrides, zero-width spaces),
 *   which the page shows as markers but a person does not read as text.
 *
 * A request with any ineligible argument can still be approved once; "Approve and remember" is not
 * offered for it, and the API refuses it (409 `not-rememberable`) naming each argument.
 */
import type { JsonValue } from "../../core/describe";
import type { ApprovalRequest } from "../../core/approval/types";

export type IneligibleReason = "secret-name" | "secret-value" | "free-text" | "invisible-characters";

export interface IneligibleArgument {
  readonly guarantee: number;
  readonly call: string;
  /** The parameter, with the element's index for array arguments (`files[2]`). */
  readonly argument: string;
  readonly reason: IneligibleReason;
  /** Why, as a sentence fragment for the page and the API. */
  readonly explanation: string;
}

export const FREE_TEXT_LIMIT = 200;

const SECRET_NAME = /secret|passw|pwd|token|api[-_]?key|private[-_]?key|credential|^auth$|authori[sz]ation|bearer/i;
const SECRET_VALUES: readonly RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\./,
  /\b(?:sk|rk|pk)[-_](?:live[-_]|test[-_])?[A-Za-z0-9_-]{16,}/,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/,
  /\bAKIA[0-9A-Z]{16}\b/,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/,
  /\b[0-9a-fA-F]{32,}\b/,
];
const MIXED_RUN = /[A-Za-z0-9_+=-]{32,}/g;
const HIDDEN = /[\p{Cf}\p{Zl}\p{Zp}\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;

function looksSecret(value: string): boolean {
  if (SECRET_VALUES.some((re) => re.test(value))) return true;
  for (const run of value.match(MIXED_RUN) ?? []) if (/[a-z]/.test(run) && /[A-Z]/.test(run) && /[0-9]/.test(run)) return true;
  return false;
}

function stringProblem(value: string): { reason: IneligibleReason; explanation: string } | undefined {
  if (HIDDEN.test(value)) return { reason: "invisible-characters", explanation: "it contains invisible or control characters" };
  if (looksSecret(value)) return { reason: "secret-value", explanation: "its value looks like a secret (a key or token), which a rule would store and list" };
  if (/[\n\r]/.test(value)) return { reason: "free-text", explanation: "it is free text (it has a line break)" };
  if (value.length > FREE_TEXT_LIMIT) return { reason: "free-text", explanation: `it is free text (longer than ${FREE_TEXT_LIMIT} characters)` };
  return undefined;
}

function visit(value: JsonValue, at: string, found: (at: string, p: { reason: IneligibleReason; explanation: string }) => void): void {
  if (typeof value === "string") {
    const p = stringProblem(value);
    if (p) found(at, p);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => visit(v, `${at}[${i}]`, found));
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) visit(v, `${at}.${k}`, found);
  }
}

/** Every argument of `request`'s guarantees that may not be remembered (empty: the request may be). */
export function ineligibleArguments(request: ApprovalRequest): IneligibleArgument[] {
  const out: IneligibleArgument[] = [];
  request.guarantees.forEach((g, guarantee) => {
    for (const p of g.parameters) {
      const secretName = SECRET_NAME.test(p.name) && JSON.stringify(p.value) !== "[]" && typeof p.value !== "boolean" && typeof p.value !== "number";
      if (secretName) {
        out.push({ guarantee, call: g.call, argument: p.name, reason: "secret-name", explanation: "its parameter's name says it holds a secret" });
        continue;
      }
      visit(p.value, p.name, (argument, problem) => out.push({ guarantee, call: g.call, argument, ...problem }));
    }
  });
  return out;
}
