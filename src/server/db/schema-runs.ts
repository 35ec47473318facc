/** Tables of the runs area. Re-exported from ./schema, so drizzle-kit and the services see one schema. */
export {};
