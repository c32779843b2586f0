/** Types of slow-programs.mjs (a plain module shared with bench/tsserver.mjs). */
export declare const BILLING_LAYER: Record<string, string>;
export declare function slowProgram(n?: number): string;
export declare function trivialProgram(n?: number): string;
