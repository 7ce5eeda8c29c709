/**
 * `npm run lint:deps`: the rules of .dependency-cruiser.js, run on a small tree shaped like
 * src/, refuse each import that breaks one, naming the rule, and pass those the layers
 * allow. (CI runs them on src/ itself.)
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import t from 'tap'
import { CHILD_ENV } from '../helpers/process.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** Each file's imports, one line each, so that a file is a list of arrows. */
const importing = (...paths: string[]) => paths.map((path) => `import '${path}'\n`).join('')

t.test('an import that breaks a rule is refused, naming it; the layers\' own imports pass', async (t) => {
  const tree = t.testdir({
    'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowImportingTsExtensions: true, noEmit: true } }),
    src: {
      'app.ts': importing('./features/handlers.ts', './config/defaults.ts', './server.ts'),
      'server.ts': '',
      'client.ts': importing('./http/errors.ts'),
      config: {
        'defaults.ts': '',
        'logger.ts': importing('../tracing/context.ts')
      },
      tracing: {
        'context.ts': importing('../config/defaults.ts'),
        'sdk.ts': importing('../features/webhooks/attempt.ts')
      },
      database: {
        'connect.ts': importing('../config/defaults.ts', '../tracing/context.ts', './version.ts'),
        'version.ts': importing('./changes.ts'),
        'changes.ts': importing('./connect.ts'),
        'errors.ts': '',
        'plugin.ts': importing('../http/errors.ts')
      },
      http: {
        'errors.ts': '',
        'error-handler.ts': importing('../database/errors.ts', './errors.ts'),
        // A type's import counts as much as a value's.
        'log.ts': 'import type { Pet } from \'../features/pets/repository.ts\'\nexport type Logged = Pet\n'
      },
      contract: {
        'wiring.ts': importing('../http/errors.ts', '../database/errors.ts')
      },
      features: {
        'handlers.ts': importing('./pets/handlers.ts', './pets/repository.ts'),
        pets: {
          'handlers.ts': importing('./repository.ts', '../../contract/wiring.ts'),
          'repository.ts': importing('../events/outbox.ts', '../../database/errors.ts') + 'export type Pet = object\n'
        },
        orders: {
          'repository.ts': importing('../events/outbox.ts', '../pets/repository.ts', '../pets/handlers.ts')
        },
        events: {
          'outbox.ts': importing('../webhooks/subscribers.ts')
        },
        webhooks: {
          'attempt.ts': '',
          'subscribers.ts': ''
        },
        'api-keys': {
          'auth.ts': importing('../pets/repository.ts', '../../http/errors.ts')
        },
        health: {
          'routes.ts': importing('../../app.ts')
        }
      }
    }
  })
  const depcruise = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs')
  const run = promisify(execFile)(process.execPath, [depcruise, '--config', join(root, '.dependency-cruiser.js'), 'src'], { cwd: tree, env: CHILD_ENV })
  const { code, stdout } = await run.then(({ stdout }) => ({ code: 0, stdout }), (error: { code: number, stdout: string }) => error)
  // As CI prints them, before their count: each on one line here (a circle takes several there).
  const [listed] = stdout.trim().split('\n\n')
  const violations = listed!.split(/\n(?= {2}\S)/).map((entry) => entry.trim().split(/\s*\n\s*/).join(' '))
  t.same(violations.sort(), [
    'error app-never-imports-server: src/app.ts → src/server.ts',
    'error client-imports-nothing: src/client.ts → src/http/errors.ts',
    'error config-imports-nothing: src/config/logger.ts → src/tracing/context.ts',
    'error contract-imports-only-below: src/contract/wiring.ts → src/database/errors.ts',
    'error database-imports-only-below: src/database/plugin.ts → src/http/errors.ts',
    'error features-imports-only-below: src/features/health/routes.ts → src/app.ts',
    'error handler-map-imports-handlers: src/features/handlers.ts → src/features/pets/repository.ts',
    'error http-imports-only-below: src/http/log.ts → src/features/pets/repository.ts',
    'error no-circular: src/database/changes.ts → src/database/connect.ts → src/database/version.ts → src/database/changes.ts',
    'error no-cross-feature: src/features/api-keys/auth.ts → src/features/pets/repository.ts',
    'error no-cross-feature: src/features/orders/repository.ts → src/features/pets/handlers.ts',
    'error tracing-imports-only-below: src/tracing/sdk.ts → src/features/webhooks/attempt.ts'
  ].sort())
  t.match(stdout, /\nx 12 dependency violations \(12 errors, 0 warnings\)\./)
  t.equal(code, 12, 'a failure: the number of violations')
})
