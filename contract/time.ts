/**
 * Lengths of time in milliseconds, shared by the server, the studio and the tests (no zod here, so the studio
 * can load it with its entry). Calendar days in a time zone are not always this long: these are for durations.
 */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
