/**
 * Every default setting, once: the Config of an environment that sets no variable, read as
 * ./config.ts reads any other (each variable's default is in ./schema.ts, the settings no
 * variable sets are in ./fixed.ts). `buildApp` (../app.ts) fills in what its options leave
 * out from here, so the app a test builds and the one production runs cannot quietly differ.
 */
import { configFrom, type Config } from './config.ts'
import { ENVIRONMENT, type Env } from './schema.ts'

/** Each variable's default, as validation fills it in where the variable is not set. */
const defaults = Object.fromEntries(Object.entries(ENVIRONMENT.properties)
  .flatMap(([name, schema]) => 'default' in schema ? [[name, schema.default]] : [])) as Env

export const DEFAULTS: Config = configFrom(defaults, {})
