// lib/checks/bodies.ts: the JSON media type, Error bodies, and "no 5xx for bad input".
import { describe, expect, it } from 'vitest';
import { errorBodyProblems, isJsonMediaType, jsonProblems, judgeNo5xx, modelProblems } from '../../../lib/checks/bodies.ts';
import type { Seen } from '../../../lib/checks/types.ts';
import { Pet } from '../../../lib/models.ts';
import { errorBody, expectFinding, type Outcome, seen } from './_seen.ts';

describe('isJsonMediaType', () => {
  it.each<{ title: string; contentType: string | undefined; json: boolean }>([
    { title: 'application/json is JSON', contentType: 'application/json', json: true },
    { title: 'a charset parameter is allowed', contentType: 'application/json; charset=utf-8', json: true },
    { title: 'the type is case-insensitive', contentType: 'Application/JSON', json: true },
    { title: 'upper-case type and charset', contentType: 'APPLICATION/JSON; CHARSET=UTF-8', json: true },
    { title: 'whitespace before the semicolon is allowed', contentType: 'application/json ; charset=UTF-8', json: true },
    { title: 'surrounding whitespace is allowed', contentType: '  application/json  ', json: true },
    { title: 'application/problem+json is another media type', contentType: 'application/problem+json', json: false },
    { title: 'text/plain is not JSON', contentType: 'text/plain', json: false },
    { title: 'text/json is not application/json', contentType: 'text/json', json: false },
    { title: 'application/jsonx is not application/json', contentType: 'application/jsonx', json: false },
    { title: 'an empty Content-Type is not JSON', contentType: '', json: false },
    { title: 'a missing Content-Type is not JSON', contentType: undefined, json: false },
  ])('$title', ({ contentType, json }) => {
    expect(isJsonMediaType(contentType)).toBe(json);
  });
});

describe('jsonProblems', () => {
  it('parses integers above 2^53 without losing digits', () => {
    const { problems, value } = jsonProblems(seen(200, '{"id":9007199254740993}'));
    expect(problems).toEqual([]);
    expect(value).toEqual({ id: 9007199254740993n });
  });

  it('still returns the value when only the Content-Type is wrong', () => {
    const { problems, value } = jsonProblems(seen(200, '[]', { 'content-type': 'text/plain' }));
    expect(value).toEqual([]);
    expect(problems).toEqual(['Content-Type is "text/plain", not application/json']);
  });
});

describe('modelProblems', () => {
  it('names the path of the field at fault', () => {
    const problems = modelProblems(Pet, { id: 1, name: 'Rex' }, 'Pet');
    expect(problems.some((p) => p.startsWith('Pet.categoryId'))).toBe(true);
  });

  it('is empty for a valid value', () => {
    expect(modelProblems(Pet, { id: 1n, name: 'Rex', categoryId: 2 }, 'Pet')).toEqual([]);
  });
});

describe('errorBodyProblems', () => {
  it.each<{ title: string; seen: Seen; mentions: string[] }>([
    { title: 'a valid Error body has no problems', seen: seen(404, errorBody(404)), mentions: [] },
    { title: 'a charset parameter is fine', seen: seen(400, errorBody(400), { 'content-type': 'application/json; charset=utf-8' }), mentions: [] },
    { title: 'extra fields beside code, message, status are fine', seen: seen(401, errorBody(401, { details: ['x'], traceId: 'abc' })), mentions: [] },
    { title: 'Error.status other than the HTTP status is named with both', seen: seen(404, errorBody(400)), mentions: ['Error.status is 400', 'HTTP status is 404'] },
    { title: 'code missing is named', seen: seen(400, { message: 'm', status: 400 }), mentions: ['Error.code'] },
    { title: 'code not a string is named', seen: seen(400, errorBody(400, { code: 42 })), mentions: ['Error.code'] },
    { title: 'message missing is named', seen: seen(400, { code: 'c', status: 400 }), mentions: ['Error.message'] },
    { title: 'message not a string is named', seen: seen(400, errorBody(400, { message: 7 })), mentions: ['Error.message'] },
    { title: 'status missing is named', seen: seen(400, { code: 'c', message: 'm' }), mentions: ['Error.status'] },
    { title: 'status as a string is named', seen: seen(400, errorBody(400, { status: '400' })), mentions: ['Error.status'] },
    { title: 'status with a fraction is named', seen: seen(400, '{"code":"c","message":"m","status":400.5}'), mentions: ['Error.status'] },
    { title: 'an array is not an Error', seen: seen(400, [errorBody(400)]), mentions: ['Error'] },
    { title: 'a body that is not JSON is named', seen: seen(400, 'Bad Request'), mentions: ['not JSON'] },
    { title: 'an empty body is named', seen: seen(401, ''), mentions: ['body is empty'] },
    { title: 'a whitespace-only body is empty', seen: seen(401, ' \r\n'), mentions: ['body is empty'] },
    { title: 'the right body as text/plain names the Content-Type', seen: seen(400, errorBody(400), { 'content-type': 'text/plain' }), mentions: ['Content-Type is "text/plain"'] },
    { title: 'the right body without Content-Type names it missing', seen: seen(400, errorBody(400), {}), mentions: ['Content-Type is missing'] },
    { title: 'the right body as application/problem+json names the Content-Type', seen: seen(400, errorBody(400), { 'content-type': 'application/problem+json' }), mentions: ['application/problem+json'] },
    { title: 'an empty text/plain body names both', seen: seen(401, '', { 'content-type': 'text/plain' }), mentions: ['Content-Type', 'body is empty'] },
  ])('$title', ({ seen: s, mentions }) => {
    const problems = errorBodyProblems(s);
    if (mentions.length === 0) expect(problems).toEqual([]);
    else {
      expect(problems.length).toBeGreaterThan(0);
      for (const m of mentions) expect(problems.join('; ')).toContain(m);
    }
  });
});

describe('judgeNo5xx', () => {
  it.each<{ title: string; status: number; outcome: Outcome; mentions?: string[] }>([
    { title: 'a 400 passes', status: 400, outcome: 'pass' },
    { title: 'a 404 passes', status: 404, outcome: 'pass' },
    { title: 'a clamped 200 passes', status: 200, outcome: 'pass' },
    { title: 'a 500 fails and names it', status: 500, outcome: 'fail', mentions: ['limit=abc', '500'] },
    { title: 'a 503 fails and names it', status: 503, outcome: 'fail', mentions: ['503'] },
  ])('$title', ({ status, outcome, mentions }) => {
    const finding = judgeNo5xx('limit=abc', seen(status, status === 200 ? [] : errorBody(status)));
    expectFinding(finding, outcome, mentions);
  });
});
