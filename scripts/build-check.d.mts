/** Types of ./build-check.mjs (plain JavaScript: `npm start` runs it before anything is built). */
export declare const CLIENT_RECORD: string;
export declare const SERVER_RECORD: string;
/** Why a part must be built again, or null when it is up to date. */
export declare function staleReason(root: string, part: 'client' | 'server'): string | null;
