/**
 * Why a start failed, in one line for whoever runs the service: the usual causes (the port
 * taken, a port that needs privileges, a database that cannot be opened) said with what to
 * change, rather than a stack trace from deep inside Node.
 */
export function startFailure (error: unknown, { host, port }: { host: string, port: number }): string {
  const { code, syscall } = error as NodeJS.ErrnoException
  if (syscall === 'listen') {
    if (code === 'EADDRINUSE') return `port ${port} on ${host} is already in use; stop what holds it, or set PORT to another`
    if (code === 'EACCES') return `not allowed to listen on port ${port}; ports below 1024 need privileges, set PORT to 1024 or above`
    if (code === 'EADDRNOTAVAIL') return `${host} is not an address of this machine; set HOST to one that is, or to 0.0.0.0`
  }
  return error instanceof Error ? error.message : String(error)
}
