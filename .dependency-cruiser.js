// What each folder of src/ may import: `npm run lint:deps` checks it, and CI fails on any
// import that breaks a rule. The folders' READMEs say the same in words, and
// docs/development.md#the-layers draws the layers.

/**
 * The layers, bottom up, and what each may import besides its own files; an import never
 * runs back up.
 * - config/: the settings and their defaults, which every layer may read; imports nothing.
 * - tracing/: loaded before the service (preload.ts), so it imports no more than config/.
 * - database/: knows no HTTP and no feature.
 * - http/: the envelope every answer shares; knows the database's errors (an outage is a
 *   503), no feature.
 * - contract/: the document wired into routes, over the envelope; never the database.
 * - features/: one folder each, over all of the above; another feature's files only where
 *   CROSS_FEATURE names them.
 * - app.ts builds all of it and server.ts runs it: the top, which may import anything.
 */
const LAYERS = {
  config: [],
  tracing: ['config'],
  database: ['config', 'tracing'],
  http: ['config', 'tracing', 'database'],
  contract: ['config', 'tracing', 'http'],
  features: ['config', 'tracing', 'database', 'http', 'contract']
}

/** The files of another feature each feature may import, and why (src/features/README.md). */
const CROSS_FEATURE = {
  // The outbox: a change's events are written in its transaction.
  pets: ['events/outbox.ts'],
  categories: ['events/outbox.ts'],
  // The outbox too; and an order moves its pet, whose `pet.updated` event shows the pet as
  // getPet does (toPet).
  orders: ['events/outbox.ts', 'pets/repository.ts'],
  // The outbox writes its events' deliveries in the same transaction.
  events: ['webhooks/subscribers.ts'],
  // The dispatcher sends each event as the feed shows it, to the endpoints subscribed to
  // the event types the service emits.
  webhooks: ['events/repository.ts', 'events/types.ts'],
  // The event stream publishes each event as the feed shows it.
  'event-stream': ['events/repository.ts']
}

const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const inFolders = (names) => `^src/(${names.join('|')})/`

const forbidden = [
  {
    name: 'no-circular',
    comment: 'Files that import each other in a circle: move what they share into a file of its own.',
    severity: 'error',
    from: { path: '^src/' },
    to: { circular: true }
  },
  ...Object.entries(LAYERS).map(([layer, below]) => ({
    name: below.length === 0 ? `${layer}-imports-nothing` : `${layer}-imports-only-below`,
    comment: below.length === 0
      ? `src/${layer}/ imports nothing of the rest of src/.`
      : `src/${layer}/ imports only ${below.map((name) => `${name}/`).join(', ')} of the rest of src/.`,
    severity: 'error',
    from: { path: `^src/${layer}/` },
    to: { path: '^src/', pathNot: inFolders([layer, ...below]) }
  })),
  {
    name: 'no-cross-feature',
    comment: 'A feature imports no file of another feature (but those CROSS_FEATURE in .dependency-cruiser.js names).',
    severity: 'error',
    from: { path: '^src/features/([^/]+)/', pathNot: inFolders(Object.keys(CROSS_FEATURE).map((name) => `features/${name}`)) },
    to: { path: '^src/features/', pathNot: '^src/features/$1/' }
  },
  ...Object.entries(CROSS_FEATURE).map(([feature, files]) => ({
    name: 'no-cross-feature',
    comment: `src/features/${feature}/ imports of another feature only ${files.join(', ')} (CROSS_FEATURE in .dependency-cruiser.js).`,
    severity: 'error',
    from: { path: `^src/features/${feature}/` },
    to: { path: '^src/features/', pathNot: [`^src/features/${feature}/`, ...files.map((file) => `^src/features/${escaped(file)}$`)] }
  })),
  {
    name: 'handler-map-imports-handlers',
    comment: 'src/features/handlers.ts, the map the document is wired from, imports of the features only their handlers.ts.',
    severity: 'error',
    from: { path: '^src/features/handlers\\.ts$' },
    to: { path: '^src/features/', pathNot: '^src/features/[^/]+/handlers\\.ts$' }
  },
  {
    name: 'app-never-imports-server',
    comment: 'server.ts runs the app that app.ts builds, never the other way.',
    severity: 'error',
    from: { path: '^src/app\\.ts$' },
    to: { path: '^src/server\\.ts$' }
  },
  {
    name: 'client-imports-nothing',
    comment: 'src/client.ts re-exports the petstore-client package, and nothing of the service.',
    severity: 'error',
    from: { path: '^src/client\\.ts$' },
    to: { path: '^src/' }
  }
]

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden,
  options: {
    includeOnly: '^src/',
    // Type-only imports count: a file that names another's types knows that file.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' }
  }
}
