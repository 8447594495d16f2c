// The request target as the handler reads it: the path name and the query parameters, as the
// WHATWG URL parser makes them of the target against a placeholder origin.

/** What the handler reads of a request target. */
export interface Target {
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
}

const BASE = 'http://reference.invalid';

/**
 * Targets the URL parser would leave as they are: a path of one leading `/` (not `//`) and
 * characters it never changes, without `.` (no dot segment) or `%` (no encoded one); then
 * optionally `?` and a query of characters it never encodes, without `?` (the URLSearchParams
 * constructor would drop a leading one) or `#`. For these the path name is the path as sent and the
 * parameters are those of the query as sent, which skips the cost of building a URL on every request.
 */
const UNCHANGED = /^\/(?![/])[A-Za-z0-9\-_~!$&()*+,;=:@/]*(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@/%]*)?$/;

/** The target read as `new URL(target, origin)` reads it; undefined when that throws. */
export function parseTarget(target: string | undefined): Target | undefined {
  const text = target ?? '/';
  if (UNCHANGED.test(text)) {
    const query = text.indexOf('?');
    if (query === -1) return { pathname: text, searchParams: new URLSearchParams() };
    return { pathname: text.slice(0, query), searchParams: new URLSearchParams(text.slice(query + 1)) };
  }
  try {
    return new URL(text, BASE);
  } catch {
    return undefined;
  }
}
