// What an answer's status says, read in one place for the checks, the drivers, the load and the
// reports.

type Answer = number | undefined | { readonly status?: number };

const statusOf = (answer: Answer) => (typeof answer === 'object' ? answer.status : answer);

/** An accepted answer: a 2xx, the server did what was asked. Takes a status or anything with one (absent: no answer came). */
export function isAccepted(answer: Answer): boolean {
  const status = statusOf(answer);
  return status !== undefined && status >= 200 && status < 300;
}

/** A server error: a 5xx, never an answer the interface allows (responses.no-5xx). */
export function isServerError(answer: Answer): boolean {
  const status = statusOf(answer);
  return status !== undefined && status >= 500;
}

/**
 * The methods the interface's operations use (GET, POST), and HEAD, which every general-purpose
 * server MUST support where it supports GET (RFC 9110 §9.1). Methods are case-sensitive (§9.1).
 */
const INTERFACE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST']);

/**
 * A 501 to a method no operation of the interface has (PUT, PATCH, DELETE, OPTIONS, PROPFIND, a
 * made-up one): HTTP's own answer to a method the server does not recognise or implement (RFC 9110
 * §9.1, §15.6.2), on which the interface, listing no operation for it, says nothing. A 501 to GET,
 * HEAD or POST is no such answer: a server error like any other 5xx.
 */
export function isNotImplementedMethod(method: string, answer: Answer): boolean {
  return statusOf(answer) === 501 && !INTERFACE_METHODS.has(method);
}

/** A server error the interface allows nowhere: a 5xx, but a 501 to a method no operation has (isNotImplementedMethod). */
export function isServerErrorTo(method: string, answer: Answer): boolean {
  return isServerError(answer) && !isNotImplementedMethod(method, answer);
}
