export declare const GENERATORS: Record<string, () => string>;
export declare function docFiles(): string[];
export declare function regenerate(file: string, text: string): string;
export declare function generatedFiles(): { file: string; blocks: string[]; current: boolean; expected: string }[];
