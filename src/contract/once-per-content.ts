/**
 * A schema compiler that compiles each distinct schema once. Operations share many of
 * their schemas (an If-None-Match header, an empty query, a path id, the Error body under
 * several statuses), each built as a new object, and Fastify asks for a compilation per
 * route, part and status: at start the service's 37 validators were 12 schemas, and its 111
 * serializers 5. What is shared must keep nothing between calls that a caller could see
 * (a validator's `errors` are the last call's, read at once).
 */
export function oncePerContent<Route, Compiled> (contentOf: (route: Route) => string, compile: (route: Route) => Compiled): (route: Route) => Compiled {
  const compiled = new Map<string, Compiled>()
  return (route) => {
    const content = contentOf(route)
    let found = compiled.get(content)
    if (found === undefined) compiled.set(content, found = compile(route))
    return found
  }
}
