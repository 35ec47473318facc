/** Package name → the chain of source files from src/server/main.ts to the module importing it statically. */
export function startImports(root: string): Promise<Map<string, string[]>>;
