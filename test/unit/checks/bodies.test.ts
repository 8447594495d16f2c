// lib/checks/bodies.ts: the JSON media type, Error bodies, and "no 5xx for bad input".
import { describe, expect, it } from 'vitest';
import { errorBodyProblems, findingOfProblems, isJsonMediaType, jsonProblems, judgeNo5xx, modelProblems, problem, recoded, saidOf } from '../../../lib/checks/bodies.ts';
import type { Finding, Seen } from '../../../lib/checks/types.ts';
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
    expect(problems).toEqual([{ code: 'not-json-media-type', text: 'Content-Type is "text/plain", not application/json' }]);
  });

  it('names a missing Content-Type apart from a wrong one', () => {
    expect(jsonProblems(seen(200, '[]', {})).problems).toEqual([{ code: 'no-content-type', text: 'Content-Type is missing, not application/json' }]);
  });

  it('names a body that is empty or not JSON first: it is the main problem, the Content-Type after it', () => {
    expect(jsonProblems(seen(401, '', {})).problems.map((p) => p.code)).toEqual(['empty-body', 'no-content-type']);
    expect(jsonProblems(seen(401, 'Unauthorized', { 'content-type': 'text/plain' })).problems.map((p) => p.code)).toEqual(['not-json', 'not-json-media-type']);
    expect(jsonProblems(seen(401, '{"a":')).problems.map((p) => p.code)).toEqual(['not-json']);
  });
});

describe('findingOfProblems', () => {
  it('passes without problems', () => {
    expect(findingOfProblems([], 'e', 'a')).toEqual({ outcome: 'pass' });
  });

  it('joins every problem into one failure whose code is the first problem\'s', () => {
    const finding = findingOfProblems([problem('name-not-echoed', 'name "a" is not the "b" sent'), problem('status-not-echoed', 'status absent is not the "sold" sent')], 'as sent', '201');
    expect(finding).toEqual({ outcome: 'fail', code: 'name-not-echoed', message: 'name "a" is not the "b" sent; status absent is not the "sold" sent', expected: 'as sent', actual: '201' });
  });

  it('says each problem of a subject, or files it under codes of its own, keeping the other half', () => {
    expect(saidOf('limit=5', [problem('empty-body', 'body is empty')])).toEqual([{ code: 'empty-body', text: 'limit=5: body is empty' }]);
    expect(recoded('get', [problem('empty-body', 'body is empty')])).toEqual([{ code: 'get-empty-body', text: 'body is empty' }]);
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
  // codes: every problem's code, in order (the first leads a finding); mentions: what the texts name.
  it.each<{ title: string; seen: Seen; codes: string[]; mentions?: string[] }>([
    { title: 'a valid Error body has no problems', seen: seen(404, errorBody(404)), codes: [] },
    { title: 'a charset parameter is fine', seen: seen(400, errorBody(400), { 'content-type': 'application/json; charset=utf-8' }), codes: [] },
    { title: 'extra fields beside code, message, status are fine', seen: seen(401, errorBody(401, { details: ['x'], traceId: 'abc' })), codes: [] },
    { title: 'Error.status other than the HTTP status is named with both', seen: seen(404, errorBody(400)), codes: ['error-status-mismatch'], mentions: ['Error.status is 400', 'HTTP status is 404'] },
    { title: 'code missing is named', seen: seen(400, { message: 'm', status: 400 }), codes: ['invalid-error-body'], mentions: ['Error.code'] },
    { title: 'code not a string is named', seen: seen(400, errorBody(400, { code: 42 })), codes: ['invalid-error-body'], mentions: ['Error.code'] },
    { title: 'message missing is named', seen: seen(400, { code: 'c', status: 400 }), codes: ['invalid-error-body'], mentions: ['Error.message'] },
    { title: 'message not a string is named', seen: seen(400, errorBody(400, { message: 7 })), codes: ['invalid-error-body'], mentions: ['Error.message'] },
    { title: 'status missing is named', seen: seen(400, { code: 'c', message: 'm' }), codes: ['invalid-error-body'], mentions: ['Error.status'] },
    { title: 'status as a string is named', seen: seen(400, errorBody(400, { status: '400' })), codes: ['invalid-error-body'], mentions: ['Error.status'] },
    { title: 'status with a fraction is named', seen: seen(400, '{"code":"c","message":"m","status":400.5}'), codes: ['invalid-error-body'], mentions: ['Error.status'] },
    { title: 'an array is not an Error', seen: seen(400, [errorBody(400)]), codes: ['invalid-error-body'], mentions: ['Error'] },
    { title: 'a body that is not JSON is named', seen: seen(400, 'Bad Request'), codes: ['error-body-not-json'], mentions: ["got 'B' at position 0"] },
    { title: 'an empty body is named', seen: seen(401, ''), codes: ['no-error-body'] },
    { title: 'a whitespace-only body is empty', seen: seen(401, ' \r\n'), codes: ['no-error-body'] },
    { title: 'the right body as text/plain names the Content-Type', seen: seen(400, errorBody(400), { 'content-type': 'text/plain' }), codes: ['error-body-not-json-media-type'], mentions: ['Content-Type is "text/plain"'] },
    { title: 'the right body without Content-Type names it missing', seen: seen(400, errorBody(400), {}), codes: ['error-body-no-content-type'] },
    { title: 'the right body as application/problem+json names the Content-Type', seen: seen(400, errorBody(400), { 'content-type': 'application/problem+json' }), codes: ['error-body-not-json-media-type'], mentions: ['application/problem+json'] },
    { title: 'an empty text/plain body names both, the body first', seen: seen(401, '', { 'content-type': 'text/plain' }), codes: ['no-error-body', 'error-body-not-json-media-type'], mentions: ['text/plain'] },
    { title: 'an Error without status as text/plain names both, the body first', seen: seen(400, { code: 'c', message: 'm' }, { 'content-type': 'text/plain' }), codes: ['invalid-error-body', 'error-body-not-json-media-type'], mentions: ['Error.status', 'text/plain'] },
    { title: 'a wrong Error.status without Content-Type names both, the body first', seen: seen(404, errorBody(400), {}), codes: ['error-status-mismatch', 'error-body-no-content-type'], mentions: ['Error.status is 400', 'HTTP status is 404'] },
  ])('$title', ({ seen: s, codes, mentions = [] }) => {
    const problems = errorBodyProblems(s);
    expect(problems.map((p) => p.code)).toEqual(codes);
    for (const m of mentions) expect(problems.map((p) => p.text).join('; ')).toContain(m);
  });

  it('gives the body\'s codes apart from those of a Pet or a page', () => {
    expect(errorBodyProblems(seen(401, '', {})).map((p) => p.code)).toEqual(['no-error-body', 'error-body-no-content-type']);
    expect(errorBodyProblems(seen(400, 'Bad Request', { 'content-type': 'text/html' })).map((p) => p.code)).toEqual(['error-body-not-json', 'error-body-not-json-media-type']);
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
    const finding: Finding = judgeNo5xx('limit=abc', seen(status, status === 200 ? [] : errorBody(status)));
    expectFinding(finding, outcome, mentions);
    if (outcome === 'fail') expect(finding).toMatchObject({ outcome: 'fail', code: 'server-error' });
  });
});
