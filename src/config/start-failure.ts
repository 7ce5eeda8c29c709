/**
 * Why a start failed, in one line for whoever runs the service: the usual causes (a port
 * taken, a port that needs privileges, an address not of this machine, a database that
 * cannot be opened) said with what to change, rather than a stack trace from inside Node.
 */
interface ListenError extends NodeJS.ErrnoException { address?: string, port?: number }

/** `portSetting` names the variable that chose the port the failed listen was on. */
export function startFailure (error: unknown, portSetting = 'PORT'): string {
  const { code, syscall, address, port } = error as ListenError
  if (syscall === 'listen') {
    if (code === 'EADDRINUSE') return `port ${port} on ${address} is already in use; stop what holds it, or set ${portSetting} to another`
    if (code === 'EACCES') return `not allowed to listen on port ${port}; ports below 1024 need privileges, set ${portSetting} to 1024 or above`
    if (code === 'EADDRNOTAVAIL') return `${address} is not an address of this machine; set HOST to one that is, or to 0.0.0.0`
  }
  return error instanceof Error ? error.message : String(error)
}
