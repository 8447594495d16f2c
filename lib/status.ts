// What an answer's status says, read in one place for the checks, the drivers, the load and the
// reports.

/** An accepted answer: a 2xx, the server did what was asked. Takes a status or anything with one (absent: no answer came). */
export function isAccepted(answer: number | undefined | { readonly status?: number }): boolean {
  const status = typeof answer === 'object' ? answer.status : answer;
  return status !== undefined && status >= 200 && status < 300;
}

/** A server error: a 5xx, never an answer the interface allows (responses.no-5xx). */
export function isServerError(answer: number | undefined | { readonly status?: number }): boolean {
  const status = typeof answer === 'object' ? answer.status : answer;
  return status !== undefined && status >= 500;
}
