/**
 * `clauz3 approval-service --layer <dir> [--host 127.0.0.1] [--port 7411] [--db URL] [--key file]
 * [--tokens file] [--body-limit bytes] [--receipt-ttl seconds]`: the approval service (HTTP API and
 * the reviewers' page, docs/approval.md). It prints one line when it listens and runs until SIGINT
 * or SIGTERM (then exit 0). `clauz3 approval-service token add <reviewer>` issues a reviewer token
 * (printed once, only its hash is kept), `token revoke <reviewer>` withdraws that reviewer's tokens.
 * A configuration error (a layer without a valid lock, a keyring others can read, a database it
 * cannot open, a port in use) is one line on stderr and exit 2, never a stack trace.
 */
import * as path from "node:path";
import type { Command } from "commander";
import { PolicyError } from "../../core/policy";
import { DEFAULT_HOST, DEFAULT_PORT } from "../../service/address";
import type { RunningService } from "../../service/start";
import { issueReviewerToken, revokeReviewer, TokenFileError } from "../../service/tokens";
import { action, type CliContext } from "../command";
import { helpAfter } from "../format/help";
import { CliError, EXIT, type Io } from "../io";

interface Options {
  readonly layer?: string;
  readonly host?: string;
  readonly port?: string;
  readonly db?: string;
  readonly key?: string;
  readonly tokens?: string;
  readonly bodyLimit?: string;
  readonly receiptTtl?: string;
  readonly policy?: string;
}

const NAME = "clauz3 approval-service";
const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);
export const DEFAULT_TOKENS = ".clauz3/reviewers.json";

function usage(message: string): CliError {
  return new CliError(`${NAME}: ${message}`, EXIT.usage);
}

function wholeNumber(option: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw usage(`${option} must be a whole number, not ${JSON.stringify(value)}`);
  return Number(value);
}

/**
 * The modules that start the service (Fastify, the store's drivers, the operator's layer), loaded
 * only when it starts: every other command would otherwise spend about half a second loading them.
 */
async function serviceModules() {
  const [start, keys, layer, connect] = await Promise.all([import("../../service/start"), import("../../service/keys"), import("../../service/layer"), import("../../service/store/connect")]);
  const errors: StartErrors = [keys.KeyFileError, layer.LayerConfigError, connect.StoreOpenError];
  return { startService: start.startService, errors };
}

/** The configuration errors `startService` throws besides a policy's and a tokens file's. */
type StartErrors = readonly (new (...args: never[]) => Error)[];

/** A configuration error met while starting (or a listen error) as one line and exit 2; anything else is rethrown. */
function configurationError(error: unknown, startErrors: StartErrors = []): CliError | undefined {
  const code = (error as { code?: unknown }).code;
  if (error instanceof PolicyError) return usage(`--policy ${error.message}`);
  if (error instanceof TokenFileError || startErrors.some((kind) => error instanceof kind)) return usage((error as Error).message);
  if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL") return usage(`--host/--port: ${(error as Error).message}`);
  return undefined;
}

/** Resolves on the first SIGINT or SIGTERM. */
function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

async function serve(io: Io, opts: Options): Promise<number> {
  if (opts.layer === undefined) throw usage("--layer <dir> is required: the operator's checkout of the trusted libraries, with its clauz3.lock");
  const host = opts.host ?? DEFAULT_HOST;
  const port = wholeNumber("--port", opts.port);
  if (port !== undefined && port > 65535) throw usage(`--port must be at most 65535, not ${port}`);
  const options = {
    layer: opts.layer,
    db: opts.db,
    key: opts.key,
    tokens: opts.tokens,
    host,
    port,
    bodyLimit: wholeNumber("--body-limit", opts.bodyLimit),
    receiptTtlSeconds: wholeNumber("--receipt-ttl", opts.receiptTtl),
    policy: opts.policy,
    cwd: io.cwd,
  };
  const { startService, errors } = await serviceModules();
  let service: RunningService;
  try {
    service = await startService(options);
  } catch (error) {
    throw configurationError(error, errors) ?? error;
  }
  if (!LOOPBACK.has(host)) io.stderr(`${NAME}: listening on ${host}, not loopback: put TLS in front of it, tokens and session cookies travel in the clear\n`);
  io.stdout(`clauz3 approval service listening on ${service.url} (layer ${service.layer.dir}, fingerprint ${service.layer.fingerprint}); reviewers sign in at ${service.url}/review\n`);
  await stopSignal();
  await service.close();
  return EXIT.ok;
}

function tokensFile(io: Io, command: Command): string {
  const { tokens } = command.optsWithGlobals<{ tokens?: string }>();
  return path.resolve(io.cwd, tokens ?? DEFAULT_TOKENS);
}

function tokenAction(io: Io, command: Command, work: (file: string) => number): number {
  try {
    return work(tokensFile(io, command));
  } catch (error) {
    throw configurationError(error) ?? error;
  }
}

export default function register(program: Command, context: CliContext): void {
  const { io } = context;
  const service = program
    .command("approval-service")
    .description("run the approval service: the HTTP API clauz3 run submits to and the reviewers' page (docs/approval.md)")
    .option("--layer <dir>", "the operator's checkout of the trusted libraries, with its clauz3.lock (required)")
    .option("--host <host>", `the address to listen on (default ${DEFAULT_HOST}, loopback)`)
    .option("--port <port>", `the port (default ${DEFAULT_PORT}; 0 picks a free one)`)
    .option("--db <url>", "postgres://… or a SQLite file (default .clauz3/approvals.sqlite)")
    .option("--key <file>", "the operator's signing keyring, created 0600 when absent (default .clauz3/approval-key.json)")
    .option("--tokens <file>", `the reviewer tokens file (default ${DEFAULT_TOKENS})`)
    .option("--body-limit <bytes>", "the largest request body accepted (default 2 MiB)")
    .option("--receipt-ttl <seconds>", "how long an approval's receipt is valid (default 600)")
    .option("--policy <file>", "an approval policy that decides requests before a person does (docs/policies.md)")
    .addHelpText("after", helpAfter([
      ["clauz3 approval-service --layer ~/operator-layer", "serve on http://127.0.0.1:7411 (reviewers sign in at /review)"],
      ["clauz3 approval-service --layer ../layer --db postgres://u@db/approvals", "a team's shared service on PostgreSQL"],
      ["clauz3 approval-service token add alice", "issue a reviewer token for alice (printed once)"],
      ["clauz3 approval-service token revoke alice", "withdraw every token of alice"],
    ]))
    .action(action(context, (opts: Options) => serve(io, opts)));

  const token = service.command("token").description("issue and revoke reviewer tokens (stored hashed in the --tokens file, mode 0600)");
  token
    .command("add <reviewer>")
    .description("issue a token for <reviewer> and print it (it is shown only this once)")
    .action(
      action(context, (reviewer: string, _opts: unknown, command: Command) =>
        tokenAction(io, command, (file) => {
          const issued = issueReviewerToken(file, reviewer);
          io.stdout(`${issued}\n`);
          io.stderr(`${NAME}: issued a token for ${reviewer} (recorded hashed in ${file}); hand it to ${reviewer}, it is not shown again\n`);
          return EXIT.ok;
        }),
      ),
    );
  token
    .command("revoke <reviewer>")
    .description("withdraw every token of <reviewer> (takes effect at once, no restart)")
    .action(
      action(context, (reviewer: string, _opts: unknown, command: Command) =>
        tokenAction(io, command, (file) => {
          const withdrawn = revokeReviewer(file, reviewer);
          if (withdrawn === 0) throw usage(`${file} has no token for ${reviewer}`);
          io.stdout(`withdrew ${withdrawn} token${withdrawn === 1 ? "" : "s"} of ${reviewer}\n`);
          return EXIT.ok;
        }),
      ),
    );
}
