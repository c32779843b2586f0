export declare function rulesTable(): string;
export declare function proofCodesTable(): string;
