// Shared judgements of bodies: JSON media type, Error bodies, models. Each returns the problems it
// found as sentences; an empty list means the body is as the interface says.
import type { z } from 'zod';
import { tryParseJson } from '../json.ts';
import { ApiError } from '../models.ts';
import { describeSeen, type Finding, findingOf, type Seen } from './types.ts';

/** application/json, parameters such as charset allowed (RFC 9110 media types are case-insensitive). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  return contentType.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

export function jsonProblems(seen: Seen): { problems: string[]; value?: unknown } {
  const problems: string[] = [];
  if (!isJsonMediaType(seen.headers['content-type'])) {
    problems.push(`Content-Type is ${seen.headers['content-type'] === undefined ? 'missing' : `"${seen.headers['content-type']}"`}, not application/json`);
  }
  if (seen.text.trim() === '') return { problems: [...problems, 'body is empty'] };
  const parsed = tryParseJson(seen.text);
  if (!parsed.ok) return { problems: [...problems, `body is not JSON (${parsed.error})`] };
  return { problems, value: parsed.value };
}

export function modelProblems<T extends z.ZodType>(model: T, value: unknown, what: string): string[] {
  const result = model.safeParse(value);
  if (result.success) return [];
  return result.error.issues.slice(0, 5).map((i) => `${what}${i.path.length ? `.${i.path.join('.')}` : ''}: ${i.message}`);
}

/** An Error body (code, message, status) whose status equals the HTTP status. */
export function errorBodyProblems(seen: Seen): string[] {
  const { problems, value } = jsonProblems(seen);
  if (value === undefined) return problems;
  const shape = modelProblems(ApiError, value, 'Error');
  if (shape.length > 0) return [...problems, ...shape];
  const status = (value as { status: number }).status;
  if (status !== seen.status) problems.push(`Error.status is ${status} but the HTTP status is ${seen.status}`);
  return problems;
}

/** Bad input is the client's fault: a 5xx for it breaks HTTP semantics (RFC 9110 §15.6). */
export function judgeNo5xx(what: string, seen: Seen): Finding {
  return findingOf(seen.status >= 500 ? [`${what}: got ${seen.status}`] : [], 'a 4xx (or a clamped 200), not a 5xx', describeSeen(seen));
}
