/**
 * The approval service as a process, until `clauz3 approval-service` lands in the CLI:
 *
 *     node dist/service/main.js --layer <checkout> [--db URL] [--key file] [--tokens file]
 *                               [--host 127.0.0.1] [--port 7411] [--body-limit bytes] [--receipt-ttl seconds]
 *
 * Prints one line when it listens (`clauz3 approval service listening on http://…`); SIGINT or
 * SIGTERM closes it. A configuration error is one line on stderr and exit 2, never a stack trace.
 */
import { parseArgs } from "node:util";
import { KeyFileError } from "./keys";
import { LayerConfigError } from "./layer";
import { DEFAULT_HOST, startService } from "./start";
import { StoreOpenError } from "./store/connect";

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number, not ${JSON.stringify(value)}`);
  return Number(value);
}

class UsageError extends Error {}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      layer: { type: "string" },
      db: { type: "string" },
      key: { type: "string" },
      tokens: { type: "string" },
      host: { type: "string" },
      port: { type: "string" },
      "body-limit": { type: "string" },
      "receipt-ttl": { type: "string" },
    },
    strict: true,
  });
  if (values.layer === undefined) throw new UsageError("--layer <dir> is required: the operator's checkout of the trusted libraries, with its clauz3.lock");
  const host = values.host ?? DEFAULT_HOST;
  const service = await startService({
    layer: values.layer,
    db: values.db,
    key: values.key,
    tokens: values.tokens,
    host,
    port: integer("port", values.port),
    bodyLimit: integer("body-limit", values["body-limit"]),
    receiptTtlSeconds: integer("receipt-ttl", values["receipt-ttl"]),
  });
  if (!LOOPBACK.has(host)) process.stderr.write(`clauz3 approval service: listening on ${host}, not loopback: put TLS in front of it, tokens travel in headers\n`);
  process.stdout.write(`clauz3 approval service listening on ${service.url} (layer ${service.layer.dir}, fingerprint ${service.layer.fingerprint})\n`);
  const stop = (): void => {
    service.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  const code = (error as { code?: unknown }).code;
  const known =
    error instanceof UsageError ||
    error instanceof LayerConfigError ||
    error instanceof KeyFileError ||
    error instanceof StoreOpenError ||
    (typeof code === "string" && (code.startsWith("ERR_PARSE_ARGS") || code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL"));
  process.stderr.write(`clauz3 approval service: ${known ? (error as Error).message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(known ? 2 : 1);
});
