/**
 * The functions the build wrote as code (./precompiled.ts), each made by calling it: none in
 * the sources. The bundle holds the build's in this module's place (scripts/bundle.ts).
 */
export const PRECOMPILED: ReadonlyMap<string, () => unknown> = new Map()
