// Shared judgements of bodies: JSON media type, Error bodies, models. Each returns the problems it
// found, each a sentence with its kind (the code of the finding it leads); an empty list means the
// body is as the interface says.
import type { z } from 'zod';
import { tryParseJson } from '../json.ts';
import { ApiError } from '../models.ts';
import { describeSeen, type Finding, findingOf, pass, type Seen } from './types.ts';
import { isServerError } from '../status.ts';

/** One thing wrong with a response: the sentence for the reader, and its kind. */
export interface Problem {
  /** What kind of problem it is: the code of a finding it leads (see `Finding`). */
  code: string;
  text: string;
}

export const problem = (code: string, text: string): Problem => ({ code, text });

/** Joins the problems found in one response into a finding: the first names its kind; none is a pass. */
export function findingOfProblems(problems: readonly Problem[], expected: string, actual: string): Finding {
  const [first] = problems;
  return first ? findingOf(first.code, problems.map((p) => p.text), expected, actual) : pass();
}

/**
 * An error answer with the status its clause asks for (401, 404, 400, …): the operation's check
 * passes on it. Its Error body is errors.error-body's to judge, once over every error response of
 * the run: one cause, one failure (an Error body the server never sends is one failure, not one per
 * check that met it, as a malformed Pet is the Pet check's). The pass says what that check finds.
 */
export function statusAsAsked(said: string, seen: Seen): Finding {
  const problems = errorBodyProblems(seen);
  return pass(problems.length === 0 ? said : `${said}; its body is errors.error-body's to judge: ${problems.map((p) => p.text).join('; ')}`);
}

/**
 * A 5xx where a check expected another status is responses.no-5xx's failure first: that check,
 * judged over every response of the run, names it as the root (by the answers they share).
 */
export function serverError(seen: Seen, finding: Finding): Finding {
  return isServerError(seen) && finding.outcome === 'fail' ? { ...finding, explainedBy: 'responses.no-5xx' } : finding;
}

/** The same problems, each said of `what` (e.g. "limit=5: body is empty"). */
export function saidOf(what: string, problems: readonly Problem[]): Problem[] {
  return problems.map((p) => ({ ...p, text: `${what}: ${p.text}` }));
}

/** The same problems under codes of their own (e.g. "get-" for a getPet read after a POST). */
export function recoded(prefix: string, problems: readonly Problem[]): Problem[] {
  return problems.map((p) => ({ ...p, code: `${prefix}-${p.code}` }));
}

/** application/json, parameters such as charset allowed (RFC 9110 media types are case-insensitive). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  return contentType.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/**
 * Is the body JSON, labelled as such? A body that is empty or not JSON is the main problem, named
 * first (its code leads the finding); a wrong Content-Type comes after it.
 * Codes: empty-body, not-json, no-content-type, not-json-media-type.
 */
export function jsonProblems(seen: Seen): { problems: Problem[]; value?: unknown } {
  const type = seen.headers['content-type'];
  const media = isJsonMediaType(type) ? [] : [type === undefined ? problem('no-content-type', 'Content-Type is missing, not application/json') : problem('not-json-media-type', `Content-Type is "${type}", not application/json`)];
  if (seen.text.trim() === '') return { problems: [problem('empty-body', 'body is empty'), ...media] };
  const parsed = tryParseJson(seen.text);
  if (!parsed.ok) return { problems: [problem('not-json', `body is not JSON (${parsed.error})`), ...media] };
  return { problems: media, value: parsed.value };
}

export function modelProblems<T extends z.ZodType>(model: T, value: unknown, what: string): string[] {
  const result = model.safeParse(value);
  if (result.success) return [];
  return result.error.issues.slice(0, 5).map((i) => `${what}${i.path.length ? `.${i.path.join('.')}` : ''}: ${i.message}`);
}

/** Codes of an Error body's problems, apart from those of a Pet's or a page's body. */
const ERROR_BODY_CODES: Readonly<Record<string, string>> = {
  'empty-body': 'no-error-body',
  'not-json': 'error-body-not-json',
  'no-content-type': 'error-body-no-content-type',
  'not-json-media-type': 'error-body-not-json-media-type',
};

/**
 * An Error body (code, message, status) whose status equals the HTTP status. Codes: no-error-body,
 * error-body-not-json, invalid-error-body, error-status-mismatch, error-body-no-content-type,
 * error-body-not-json-media-type.
 */
export function errorBodyProblems(seen: Seen): Problem[] {
  const json = jsonProblems(seen);
  const problems = json.problems.map((p) => ({ ...p, code: ERROR_BODY_CODES[p.code] ?? p.code }));
  if (json.value === undefined) return problems;
  const shape = modelProblems(ApiError, json.value, 'Error');
  if (shape.length > 0) return [...shape.map((text) => problem('invalid-error-body', text)), ...problems];
  const status = (json.value as { status: number }).status;
  if (status !== seen.status) return [problem('error-status-mismatch', `Error.status is ${status} but the HTTP status is ${seen.status}`), ...problems];
  return problems;
}

/** Bad input is the client's fault: a 5xx for it breaks HTTP semantics (RFC 9110 §15.6). Code: server-error. */
export function judgeNo5xx(what: string, seen: Seen): Finding {
  return findingOfProblems(isServerError(seen) ? [problem('server-error', `${what}: got ${seen.status}`)] : [], 'a 4xx (or a clamped 200), not a 5xx', describeSeen(seen));
}
