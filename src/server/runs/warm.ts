/** Placeholder: filled after measuring. */
export async function warmRuns(): Promise<void> {}
