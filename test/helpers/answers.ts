/**
 * The answers tests expect, whole: the Error body every refusal carries.
 */

/** The Error body: its code, its message and the status repeated. */
export function errorBody (code: string, message: string, status: number) {
  return { code, message, status }
}
