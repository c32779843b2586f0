/** The approval service's storage (docs/approval.md): SQLite by default, PostgreSQL for teams, one query layer. */
export { isPostgresUrl, openDatabase, redact, StoreOpenError, type OpenDatabase, type StoreKind } from "./connect";
export { MIGRATIONS, migrationProvider } from "./migrations";
export {
  ApprovalStore,
  StoreError,
  type DecideInput,
  type Decision,
  type KeyMetadata,
  type KeyStatus,
  type NewReceipt,
  type Redemption,
  type RequestStatus,
  type StoredDecision,
  type StoredReceipt,
  type StoredRequest,
  type StoreFailure,
} from "./store";
