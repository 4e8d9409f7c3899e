/** How many runs a property gets: at least 10,000 under CI, fewer while iterating locally. */
export const propertyRuns = (local = 1_000): number => (process.env["CI"] ? Math.max(10_000, local) : local)
