export declare const CONVY_VERSION: string;
