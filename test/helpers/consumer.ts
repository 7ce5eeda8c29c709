/**
 * A consumer's project, for the tests that install the packages as a consumer does
 * (client/test/consumer.test.ts, test/client.test.ts): its folder, npm and node run in it,
 * and a strict type-check of its TypeScript against what it installed.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { CHILD_ENV } from './process.ts'

export const run = promisify(execFile)

const root = new URL('../../', import.meta.url)

/**
 * What a consumer's commands run with: npm run's own variables (npm_config_*, npm_package_*)
 * would point the inner npm at this project instead of the consumer's.
 */
export const CONSUMER_ENV = Object.fromEntries(Object.entries(CHILD_ENV).filter(([name]) => !name.toLowerCase().startsWith('npm_')))

/** Runs npm in `cwd` as a consumer would, without the audit and funding notes. */
export function npm (args: string[], cwd: string | URL) {
  return run('npm', [...args, '--no-audit', '--no-fund'], { cwd, env: CONSUMER_ENV, maxBuffer: 16 * 1024 * 1024 })
}

/** A plain JavaScript (ESM) project, `app/` in `dir`, with an empty node_modules/. */
export function consumerProject (dir: string): string {
  const app = join(dir, 'app')
  mkdirSync(join(app, 'node_modules'), { recursive: true })
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
  return app
}

/**
 * `petstore-client` installed in the project at `app` as this repository's workspace has it:
 * a link to client/, whose build (client/dist/, `npm run build`) it runs. Cheaper than
 * installing a packed tarball, for the tests that run a guide's snippet rather than test the
 * package's contents.
 */
export function linkClient (app: string): void {
  symlinkSync(fileURLToPath(new URL('client', root)), join(app, 'node_modules', 'petstore-client'), 'dir')
}

/**
 * Type-checks `file` of the project at `app` with this repository's TypeScript, strict, with
 * the standard library and the DOM's types as a consumer's project has them; resolves with
 * what tsc prints, nothing when it passes. `options` changes compiler options for a project
 * of another kind (a bundler's, say); `strict` stays.
 */
export async function typeCheck (app: string, file: string, options: Record<string, unknown> = {}): Promise<string> {
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], types: [], ...options, strict: true, noEmit: true },
    files: [file]
  }))
  const tsc = new URL('node_modules/typescript/bin/tsc', root)
  const checked = await run(process.execPath, [tsc.pathname, '-p', app], { env: CONSUMER_ENV }).catch((error: { stdout: string }) => error)
  return checked.stdout
}
