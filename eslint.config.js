// neostandard: the Fastify team's style (as in fastify/demo), with TypeScript support.
import neostandard from 'neostandard'

export default neostandard({
  ts: true,
  ignores: ['generated/**', 'client/src/generated/**', 'client/dist/**', 'coverage/**', '.tap/**', 'test-results/**', 'data/**', 'dist/**']
})
