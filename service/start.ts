/**
 * Starting the approval service: open the operator's layer (refused unless its lock pins it), the
 * store (migrated), the keyring (created 0600 on first use), then listen — on loopback unless the
 * operator names another host.
 */
import * as path from "node:path";
import { Z3Session } from "../core/prover/z3";
import type { BudgetOptions } from "../core/prover/limits";
import { DEFAULT_HOST, DEFAULT_PORT } from "./address";
import { Keyring } from "./keys";
import { openOperatorLayer, type OperatorLayer } from "./layer";
import { loadServicePolicy } from "./policy";
import { buildService } from "./server";
import { ApprovalStore } from "./store/store";

export interface StartOptions {
  /** The operator's checkout of the trusted libraries, with its clauz3.lock. */
  readonly layer: string;
  /** `postgres://…` or a SQLite file (default `.clauz3/approvals.sqlite` under `cwd`). */
  readonly db?: string;
  /** The signing keyring (default `.clauz3/approval-key.json`). */
  readonly key?: string;
  /** The reviewer tokens file (default `.clauz3/reviewers.json`). */
  readonly tokens?: string;
  /** Default 127.0.0.1 (loopback). */
  readonly host?: string;
  /** Default 7411; 0 picks a free port. */
  readonly port?: number;
  readonly bodyLimit?: number;
  readonly receiptTtlSeconds?: number;
  readonly solver?: BudgetOptions;
  /** The operator's approval policy file (docs/policies.md); invalid: `PolicyError`, before anything listens. */
  readonly policy?: string;
  readonly cwd?: string;
}


export interface RunningService {
  /** `http://host:port` */
  readonly url: string;
  readonly layer: OperatorLayer;
  close(): Promise<void>;
}

export async function startService(options: StartOptions): Promise<RunningService> {
  const cwd = options.cwd ?? process.cwd();
  const at = (f: string): string => path.resolve(cwd, f);
  // Z3's wasm compiles while the layer is read.
  Z3Session.get().catch(() => undefined);
  const layer = openOperatorLayer(at(options.layer));
  const policy = options.policy !== undefined ? loadServicePolicy(layer, at(options.policy), options.policy) : undefined;
  const db = options.db ?? at(".clauz3/approvals.sqlite");
  const store = await ApprovalStore.open(/^postgres(?:ql)?:\/\//.test(db) ? db : at(db.replace(/^sqlite:/, "")));
  try {
    const keyring = await Keyring.open(at(options.key ?? ".clauz3/approval-key.json"));
    await store.recordKeys(keyring.metadata());
    const app = buildService({ store, keyring, layer, tokensFile: at(options.tokens ?? ".clauz3/reviewers.json"), bodyLimit: options.bodyLimit, receiptTtlSeconds: options.receiptTtlSeconds, solver: options.solver, policy });
    const host = options.host ?? DEFAULT_HOST;
    await app.listen({ host, port: options.port ?? DEFAULT_PORT });
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : (options.port ?? DEFAULT_PORT);
    return {
      url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
      layer,
      close: async () => {
        await app.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
