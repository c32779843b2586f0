/** Types of tsserver-client.mjs (a plain module shared with bench/tsserver.mjs). */
export declare const ROOT: string;
export declare const SOURCE: "clauz3";
export declare const FS_HEADER: string;
export declare function distIsStale(): boolean;
export declare function ensureBuilt(log?: (line: string) => void): void;
export declare function tsconfigText(options?: { plugin?: boolean; pluginOptions?: Record<string, unknown>; include?: string[] }): string;
export declare function makeProject(options?: { files?: Record<string, string>; stdlib?: string[]; plugin?: boolean; pluginOptions?: Record<string, unknown>; prefix?: string; lock?: boolean }): string;
export declare function removeProject(dir: string): void;
export declare function locate(text: string, needle: string, occurrence?: number): { line: number; offset: number };

export interface ProtocolDiagnostic {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code: number;
  category: string;
  source?: string;
  relatedInformation?: { span: { start: { line: number; offset: number }; end: { line: number; offset: number }; file: string }; message: string; category: string; code: number }[];
}
export interface DiagnosticsView {
  semantic: ProtocolDiagnostic[];
  suggestion: ProtocolDiagnostic[];
  syntax: ProtocolDiagnostic[];
}
export interface GeterrResult {
  syntax: Map<string, ProtocolDiagnostic[]>;
  semantic: Map<string, ProtocolDiagnostic[]>;
  suggestion: Map<string, ProtocolDiagnostic[]>;
}
export interface ProtocolEvent {
  type: "event";
  event: string;
  body: any;
}

export declare class Tsserver {
  constructor(project: string, options?: { env?: Record<string, string>; logFile?: string; verbose?: boolean });
  readonly project: string;
  readonly logFile: string;
  readonly events: ProtocolEvent[];
  request(command: string, args: unknown): Promise<any>;
  waitForEvent(match: (e: ProtocolEvent) => boolean, timeoutMs?: number): Promise<ProtocolEvent>;
  configure(): Promise<void>;
  open(file: string, text?: string): Promise<string>;
  replace(file: string, oldText: string, newText: string): Promise<void>;
  geterr(files: string[]): Promise<GeterrResult>;
  quickinfo(file: string, line: number, offset: number): Promise<any>;
  pollDiagnostics(file: string, done: (view: DiagnosticsView) => boolean, options?: { budgetMs?: number; intervalMs?: number }): Promise<DiagnosticsView>;
  close(): Promise<void>;
}
export declare function ours(diagnostics: readonly ProtocolDiagnostic[]): ProtocolDiagnostic[];
