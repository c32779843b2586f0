export declare function rulesTable(): string;
export declare function proofCodesTable(): string;
export declare function coverageCodesTable(): string;
