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
