/**
 * The client's import point of the knowledge contract: every knowledge screen and src/api/datasets.ts
 * import from here; the schemas themselves live in schemas/knowledge.ts (shared with the server).
 */
export * from '../../schemas/knowledge';
