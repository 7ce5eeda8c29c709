/**
 * What `Number()` would take for an integer but a query or path parameter must refuse:
 * integers are decimal digits only (URL-encoded as a query string carries them).
 */
export const NOT_DECIMAL_DIGITS = ['Infinity', '-Infinity', '1e400', '1e1', '0x10', '%2B5', '+5', '%205', '5%20', '5.0'] as const
