/**
 * Workspace page size maximum (spec 9: the project list asks for 1000). Apart from ./workspace.ts,
 * which needs zod: the console's first load reads the number without loading zod (issue 28).
 */
export const WORKSPACE_PAGE_MAX = 1000;
