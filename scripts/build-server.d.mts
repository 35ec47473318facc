/** Types of ./build-server.mjs (plain JavaScript: `npm start` runs it before anything is built). */
export declare const SERVER_OUT: string;
/** Builds the server into `root/dist-server`; answers the build's duration in ms and its files' total size in bytes. */
export declare function buildServer(root: string): Promise<{ ms: number; bytes: number }>;
