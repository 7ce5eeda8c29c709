/**
 * The environment, validated once into a typed Config. Usable from scripts as well as the
 * server. A bad value stops the start with a message naming the variable.
 */
import envSchema from 'env-schema'
import type { JSONSchemaType } from 'ajv'
import { DEFAULT_BODY_LIMIT } from './app.ts'

interface Env {
  PORT: number
  HOST: string
  DATABASE_URL: string
  PETSTORE_API_KEYS: string
  LOG_LEVEL: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  BODY_LIMIT: number
  SQLITE_SYNCHRONOUS: 'FULL' | 'NORMAL'
}

const schema: JSONSchemaType<Env> = {
  type: 'object',
  required: [],
  properties: {
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 3000 },
    HOST: { type: 'string', minLength: 1, default: '127.0.0.1' },
    DATABASE_URL: { type: 'string', minLength: 1, default: './data/petstore.db' },
    PETSTORE_API_KEYS: { type: 'string', default: '' },
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    BODY_LIMIT: { type: 'integer', minimum: 1, maximum: 10 * 1024 * 1024, default: DEFAULT_BODY_LIMIT },
    SQLITE_SYNCHRONOUS: { type: 'string', enum: ['FULL', 'NORMAL'], default: 'FULL' }
  }
}

export interface Config {
  port: number
  host: string
  database: { url: string, sqliteSynchronous: 'FULL' | 'NORMAL' }
  apiKeys: string[]
  logLevel: Env['LOG_LEVEL']
  bodyLimit: number
}

// Shorter keys are guessable; the service's own keys are 47 characters.
const MIN_KEY_LENGTH = 16

export function loadConfig (env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema<Env>({ schema, data: env, dotenv: false })
  if (/^postgres(ql)?:/i.test(parsed.DATABASE_URL)) {
    throw new Error('DATABASE_URL: PostgreSQL is not supported by this version; use a SQLite file path')
  }
  const apiKeys = parsed.PETSTORE_API_KEYS.split(',').map((key) => key.trim()).filter((key) => key !== '')
  if (apiKeys.some((key) => key.length < MIN_KEY_LENGTH || /\s/.test(key))) {
    throw new Error(`PETSTORE_API_KEYS: each key must be at least ${MIN_KEY_LENGTH} characters without spaces`)
  }
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    database: { url: parsed.DATABASE_URL, sqliteSynchronous: parsed.SQLITE_SYNCHRONOUS },
    apiKeys,
    logLevel: parsed.LOG_LEVEL,
    bodyLimit: parsed.BODY_LIMIT
  }
}
