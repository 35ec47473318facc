/** The languages the code sandbox runs (ids as in Dify's `code_language`, so imports keep them). */
export const CODE_LANGUAGES = ['javascript', 'python3'] as const;
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];
