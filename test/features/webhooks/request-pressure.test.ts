/**
 * Whether the API's requests keep the service busy, which slows the deliveries' pace: a
 * loop kept busy by requests is; one kept busy by anything else, or a quiet one, is not.
 * The loop is a test's own, whose busy and idle time the test sets, so what it shows does
 * not hang on how busy the machine is; one test reads Node's own loop.
 */
import type { EventLoopUtilization } from 'node:perf_hooks'
import t from 'tap'
import { RequestPressure, type LoopClock } from '../../../src/features/webhooks/request-pressure.ts'

/** An event loop whose time passes only when the test says, busy or idle. */
class TestLoop implements LoopClock {
  #active = 0
  #idle = 0

  now (): number {
    return this.#active + this.#idle
  }

  eventLoopUtilization (later?: EventLoopUtilization, earlier?: EventLoopUtilization): EventLoopUtilization {
    const at = later ?? { active: this.#active, idle: this.#idle, utilization: 0 }
    const active = at.active - (earlier?.active ?? 0)
    const idle = at.idle - (earlier?.idle ?? 0)
    return { active, idle, utilization: active + idle === 0 ? 0 : active / (active + idle) }
  }

  busyFor (ms: number): void {
    this.#active += ms
  }

  idleFor (ms: number): void {
    this.#idle += ms
  }
}

t.test('a busy event loop with requests answered is busy', async (t) => {
  const loop = new TestLoop()
  const pressure = new RequestPressure(loop)
  loop.busyFor(150)
  pressure.answered()
  t.equal(pressure.busy(), true)
})

t.test('a busy event loop with no request answered is not: deliveries alone go at full speed', async (t) => {
  const loop = new TestLoop()
  const pressure = new RequestPressure(loop)
  loop.busyFor(150)
  t.equal(pressure.busy(), false)
})

t.test('requests answered on a quiet event loop are not', async (t) => {
  const loop = new TestLoop()
  const pressure = new RequestPressure(loop)
  loop.idleFor(150)
  pressure.answered()
  t.equal(pressure.busy(), false)
})

t.test('a loop busy for less than most of a window is not', async (t) => {
  const loop = new TestLoop()
  const pressure = new RequestPressure(loop)
  loop.busyFor(70)
  loop.idleFor(40)
  pressure.answered()
  t.equal(pressure.busy(), false)
})

t.test('busy lasts while requests are answered, and ends a window after the last one', async (t) => {
  const loop = new TestLoop()
  const pressure = new RequestPressure(loop)
  loop.busyFor(150)
  pressure.answered()
  t.equal(pressure.busy(), true)
  loop.busyFor(50)
  t.equal(pressure.busy(), true, 'the window is not over: what it saw holds')
  loop.busyFor(60)
  t.equal(pressure.busy(), false, 'no request answered in the last window')
})

t.test('a window looks again: a loop gone quiet is no longer busy', async (t) => {
  const loop = new TestLoop()
  const pressure = new RequestPressure(loop)
  loop.busyFor(150)
  pressure.answered()
  t.equal(pressure.busy(), true)
  loop.idleFor(150)
  pressure.answered()
  t.equal(pressure.busy(), false)
})

t.test("Node's own event loop, kept busy while requests are answered, is busy", async (t) => {
  const pressure = new RequestPressure()
  // Node 24 counts no utilization before the loop's first turn, which this file's top runs in.
  await new Promise((resolve) => setImmediate(resolve))
  for (const start = performance.now(); performance.now() - start < 150;);
  pressure.answered()
  t.equal(pressure.busy(), true)
})
