/** Tables of the tools area. Re-exported from ./schema, so drizzle-kit and the services see one schema. */
export {};
