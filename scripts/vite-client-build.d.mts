/** Types of ./vite-client-build.mjs (plain JavaScript: Vite loads vite.config.ts's imports as they are). */
import type { Plugin } from 'vite';
export interface CompressedFile {
  file: string;
  raw: number;
  br: number;
  gz: number;
}
export declare function compressFile(file: string): Promise<CompressedFile>;
export declare function weftClientBuild(): Plugin;
