// lib/checks/get-pet.ts, what getPet's deprecation headers state: a Sunset names 5 December 2030
// (any time zone from UTC−12 to UTC+14), a Deprecation is RFC 9745's or an earlier draft's form,
// and absent headers are not judged (get-pet.deprecation records them).
import { describe, expect, it } from 'vitest';
import { deprecationForm, judgeDeprecationForm, judgeSunsetDate, removalDayZones, sunsetDate } from '../../../lib/checks/get-pet.ts';
import type { Finding, Seen } from '../../../lib/checks/types.ts';
import type { Exchange } from '../../../lib/result/exchange.ts';
import { errorBody, expectFinding, type Outcome, pet, seen } from './_seen.ts';

type Case = { title: string; headers: Record<string, string>; outcome: Outcome; code?: string; mentions?: string[] };

const answer = (headers: Record<string, string>): Seen => seen(404, errorBody(404), { 'content-type': 'application/json', ...headers });

function expectJudged(finding: Finding, { outcome, code, mentions }: Omit<Case, 'title' | 'headers'>): void {
  expectFinding(finding, outcome, mentions);
  if (outcome === 'fail') expect(finding).toMatchObject({ outcome: 'fail', code: code ?? '(the case names no code)' });
}

describe('get-pet.sunset-date (must)', () => {
  it('is a must of the Versioning clause: the interface states the date', () => {
    expect(sunsetDate).toMatchObject({ severity: 'must', clause: 'Versioning', suite: 'get-pet' });
  });

  it.each<Case>([
    { title: 'midnight UTC of 5 December 2030 passes, saying UTC', headers: { sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }, outcome: 'pass', mentions: ['names 5 December 2030 in UTC', 'UTC−12 to UTC+14 is accepted'] },
    { title: 'the last second of the day passes (variation sunset-end-of-day)', headers: { sunset: 'Thu, 05 Dec 2030 23:59:59 GMT' }, outcome: 'pass', mentions: ['in UTC (in every zone from UTC−12 to UTC+0)'] },
    { title: 'the end of 5 December in UTC+14, 4 December in UTC, passes saying which zones', headers: { sunset: 'Wed, 04 Dec 2030 10:00:00 GMT' }, outcome: 'pass', mentions: ['in UTC+14 only, not in UTC (2030-12-04)'] },
    { title: 'the end of 5 December in UTC−12, 6 December in UTC, passes', headers: { sunset: 'Fri, 06 Dec 2030 11:59:59 GMT' }, outcome: 'pass', mentions: ['in UTC−12 only, not in UTC (2030-12-06)'] },
    { title: 'an obsolete HTTP-date form is read for its date (its form is the should check\'s)', headers: { sunset: 'Thursday, 05-Dec-30 12:00:00 GMT' }, outcome: 'pass' },
    { title: 'another year fails, quoting the header', headers: { sunset: 'Sat, 05 Dec 2026 00:00:00 GMT' }, outcome: 'fail', code: 'sunset-wrong-date', mentions: ['"Sat, 05 Dec 2026 00:00:00 GMT" names 2026-12-05 (UTC), not 5 December 2030'] },
    { title: 'a day before UTC+14 can reach fails', headers: { sunset: 'Wed, 04 Dec 2030 09:59:59 GMT' }, outcome: 'fail', code: 'sunset-wrong-date', mentions: ['2030-12-04'] },
    { title: 'a day after UTC−12 can reach fails', headers: { sunset: 'Fri, 06 Dec 2030 12:00:00 GMT' }, outcome: 'fail', code: 'sunset-wrong-date', mentions: ['2030-12-06'] },
    { title: 'ISO 8601 naming the wrong day fails too', headers: { sunset: '2031-12-05T00:00:00Z' }, outcome: 'fail', code: 'sunset-wrong-date', mentions: ['2031-12-05'] },
    { title: 'no Sunset: nothing stated, skipped', headers: { deprecation: 'true' }, outcome: 'skip', mentions: ['no Sunset header', 'get-pet.deprecation records'] },
    { title: 'a Sunset that is no date: skipped, its form judged elsewhere', headers: { sunset: 'soon' }, outcome: 'skip', mentions: ['"soon" is not a date', 'get-pet.deprecation-form'] },
  ])('$title', ({ headers, ...expected }) => expectJudged(judgeSunsetDate(answer(headers)), expected));

  it('judges any answer of getPet, a 200 included', () => {
    expectFinding(judgeSunsetDate(seen(200, pet(1), { sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' })), 'pass');
  });

  it('over every getPet answer of the suite: the first wrong Sunset fails with its exchange; answers without one are left out', () => {
    const right = answer({ sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' });
    const exchange = { seq: 9 } as unknown as Exchange;
    const wrong = { ...answer({ sunset: 'Sat, 05 Dec 2026 00:00:00 GMT' }), exchange };
    expect(sunsetDate.judge([right, answer({}), wrong])).toMatchObject({ outcome: 'fail', code: 'sunset-wrong-date', exchanges: [exchange] });
    expectFinding(sunsetDate.judge([right, answer({}), right]), 'pass', ['(2 getPet answers judged)']);
    expectFinding(sunsetDate.judge([answer({}), answer({ sunset: 'soon' })]), 'skip', ['"soon" is not a date']);
    expectFinding(sunsetDate.judge([answer({}), answer({})]), 'skip', ['no Sunset header']);
    expectFinding(sunsetDate.judge([]), 'skip', ['no getPet answer']);
  });

  it('removalDayZones: the zones in which an instant is 5 December 2030', () => {
    expect(removalDayZones(Date.UTC(2030, 11, 5, 0, 0, 0))).toEqual({ west: 0, east: 14 });
    expect(removalDayZones(Date.UTC(2030, 11, 5, 12, 0, 0))).toEqual({ west: -12, east: 11 });
    expect(removalDayZones(Date.UTC(2030, 11, 6, 12, 0, 0))).toBeUndefined();
  });
});

describe('get-pet.deprecation-form (should)', () => {
  it('is a should: the forms come from RFC 9745 and RFC 8594, not from the interface', () => {
    expect(deprecationForm).toMatchObject({ severity: 'should', clause: 'Versioning', suite: 'get-pet' });
  });

  it.each<Case>([
    { title: "the earlier draft's true passes, named", headers: { deprecation: 'true', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }, outcome: 'pass', mentions: ["Deprecation \"true\": the earlier draft's `true`", 'an IMF-fixdate'] },
    { title: 'RFC 9745 @seconds passes, named (variation deprecation-date-form)', headers: { deprecation: '@1735689600' }, outcome: 'pass', mentions: ['RFC 9745', 'no Sunset'] },
    { title: 'a negative sf-date passes (a date before 1970 is still an sf-date)', headers: { deprecation: '@-1' }, outcome: 'pass' },
    { title: "an earlier draft's IMF-fixdate passes, named", headers: { deprecation: 'Wed, 01 Jan 2025 00:00:00 GMT' }, outcome: 'pass', mentions: ["an earlier draft's IMF-fixdate"] },
    { title: 'Deprecation: yes fails, quoting it', headers: { deprecation: 'yes' }, outcome: 'fail', code: 'deprecation-malformed', mentions: ['Deprecation "yes"', 'RFC 9745'] },
    { title: '@ with a fraction fails (an sf-date is an integer)', headers: { deprecation: '@1735689600.5' }, outcome: 'fail', code: 'deprecation-malformed' },
    { title: 'True in another case fails (a token is case-sensitive)', headers: { deprecation: 'True' }, outcome: 'fail', code: 'deprecation-malformed' },
    { title: 'a bare Unix time without @ fails', headers: { deprecation: '1735689600' }, outcome: 'fail', code: 'deprecation-malformed' },
    { title: 'a Sunset in ISO 8601 fails, naming its form', headers: { deprecation: 'true', sunset: '2030-12-05T00:00:00Z' }, outcome: 'fail', code: 'sunset-malformed', mentions: ['iso-8601 form, not the IMF-fixdate'] },
    { title: 'a Sunset in the obsolete RFC 850 form fails (senders write IMF-fixdate)', headers: { sunset: 'Thursday, 05-Dec-30 00:00:00 GMT' }, outcome: 'fail', code: 'sunset-malformed', mentions: ['rfc850-date'] },
    { title: 'a Sunset that is no date fails', headers: { sunset: 'soon' }, outcome: 'fail', code: 'sunset-malformed', mentions: ['"soon" is not an HTTP-date'] },
    { title: 'neither header: skipped (the interface requires neither)', headers: {}, outcome: 'skip', mentions: ['no Deprecation or Sunset header'] },
  ])('$title', ({ headers, ...expected }) => expectJudged(judgeDeprecationForm(answer(headers)), expected));

  it('over every getPet answer: a malformed Deprecation on any of them fails', () => {
    expect(deprecationForm.judge([answer({ deprecation: 'true' }), answer({ deprecation: 'yes' })])).toMatchObject({ outcome: 'fail', code: 'deprecation-malformed' });
    expectFinding(deprecationForm.judge([answer({ deprecation: 'true' }), answer({ deprecation: '@1735689600' })]), 'pass', ["the earlier draft's `true`", '(2 getPet answers judged)']);
  });
});
