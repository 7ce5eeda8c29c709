/**
 * Waits until `condition` holds, checking often, and fails only past a generous ceiling:
 * tests wait for what they expect instead of racing a clock on a busy machine.
 */
export async function until (condition: () => boolean | Promise<boolean>, what: string, ceilingMs = 20_000): Promise<void> {
  const start = Date.now()
  while (!await condition()) {
    if (Date.now() - start > ceilingMs) throw new Error(`timed out after ${ceilingMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
