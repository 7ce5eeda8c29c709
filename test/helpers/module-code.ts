/**
 * A module's code run as the build's bundle runs the validators and serializers it wrote
 * (scripts/precompile.ts): in a scope of its own, with `require` resolving from here.
 */
import { createRequire } from 'node:module'

const requireHere = createRequire(import.meta.url)

/** The exports of the CommonJS module whose code is `code`. */
export function runModuleCode<T> (code: string): T {
  const module = { exports: {} as unknown }
  // eslint-disable-next-line no-new-func -- the module's code, as the build's bundle runs it
  new Function('require', 'module', 'exports', code)(requireHere, module, module.exports)
  return module.exports as T
}
