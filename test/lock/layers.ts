/** Two small trusted libraries the lock tests pin, change and leave unpinned. */
export const MAIL = {
  "tools/mail/trusted/events.ts": `import { Event } from "clauz3/events";
export class SendEmail extends Event { constructor(readonly to: string) { super(); } }
`,
  "tools/mail/trusted/effects.ts": `import { trusted } from "clauz3";
import { performs } from "clauz3/events";
import { SendEmail } from "./events";
/** Send one email. */
export const sendEmail = trusted(performs((to: string) => new SendEmail(to)), function sendEmail(to: string): void {});
`,
  "tools/mail/trusted/contracts.ts": `import { contract, type ContractSpec } from "clauz3/spec";
import { SendEmail } from "./events";
/** At most n emails. */
export const emailsAtMost = contract({ description: "At most {n} emails." }, (n: number): ContractSpec => SendEmail.count().atMost(n));
`,
};
export const LOG = {
  "tools/log/trusted/log.ts": `import { trusted } from "clauz3";
import { Event, performs } from "clauz3/events";
import { contract, type ContractSpec } from "clauz3/spec";
export class Log extends Event { constructor(readonly message: string) { super(); } }
/** Log a line. */
export const log = trusted(performs((message: string) => new Log(message)), function log(message: string): void {});
/** At most n lines. */
export const linesAtMost = contract({ description: "At most {n} lines." }, (n: number): ContractSpec => Log.count().atMost(n));
`,
};
