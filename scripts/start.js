// @ts-check
/**
 * What `npm start` runs (`MALLOC_ARENA_MAX=2 exec node OPTIONS scripts/start.js`): the build in dist/, never
 * one older than the sources beside it. When they changed since `npm run build`, or it never
 * ran, the build is made again first, or, where it cannot be (no dev dependencies), the start
 * stops with exit 1 and a line naming `npm run build` (scripts/lib/fresh-build.js).
 *
 * The check and the service are one process, the one npm starts and passes its signals on
 * to: the built server is imported here rather than started as a child. When nothing
 * changed, the check reads no file whose size and times are those the build recorded.
 *
 * Plain JavaScript: it runs before any build exists.
 */
import { ensureFreshBuild } from './lib/fresh-build.js'

try {
  await ensureFreshBuild()
} catch (error) {
  console.error(`Cannot start: ${/** @type {Error} */ (error).message}`)
  process.exit(1)
}

// Tracing, when the OTEL_* variables ask for it, starts before the service loads, so that its
// instrumentations see the modules they patch (src/tracing/preload.ts); otherwise it loads nothing.
await import(new URL('../dist/src/tracing/preload.js', import.meta.url).href)
// A computed specifier: the bundle is no module for tsc to check.
await import(new URL('../dist/server.js', import.meta.url).href)
