// getPet (deprecated): `GET /pets/{petId}` returns the Pet, 404 with an Error body when missing.
import type { Pet } from '../models.ts';
import type { Exchange } from '../result/exchange.ts';
import { findingOfProblems, problem, statusAsAsked } from './bodies.ts';
import { notingOtherMembers, readPet, sameAnimalProblems } from './pets.ts';
import { judgeNo5xx } from './bodies.ts';
import { defineCheck } from './define.ts';
import { describeSeen, eachCase, type Finding, fail, findingOf, pass, type Seen, skip } from './types.ts';
import { isImfFixdate, readDateForm } from '../http-date.ts';
import { decodedSegment, isZeroPadded, otherSpellingOf } from './pet-id-spelling.ts';
import { isAccepted } from '../status.ts';

const clause = 'Endpoints / getPet';
const suite = 'get-pet';

/**
 * The animal as listed. Codes: not-200; id-differs, name-differs, category-id-differs,
 * status-differs; readPet's (invalid-pet, empty-body, not-json, no-content-type, not-json-media-type).
 */
export function judgeFound(listed: Pet, seen: Seen): Finding {
  const expected = `200 with ${listed.id} as listed`;
  if (seen.status !== 200) return findingOf('not-200', [`getPet(${listed.id}) got ${seen.status}, not 200`], expected, describeSeen(seen));
  const { value, problems, others } = readPet(seen);
  if (!value) return findingOfProblems(problems, expected, describeSeen(seen));
  return notingOtherMembers(findingOfProblems([...sameAnimalProblems(listed, value), ...problems], expected, describeSeen(seen)), others);
}

/** Code: not-404; the Error body is errors.error-body's (statusAsAsked). */
export function judgeNotFound(id: bigint, seen: Seen): Finding {
  const expected = '404 with an Error body';
  if (seen.status !== 404) return findingOf('not-404', [`getPet(${id}) of a missing animal got ${seen.status}, not 404`], expected, describeSeen(seen));
  return statusAsAsked(`getPet(${id}) of a missing animal: 404`, seen);
}

/**
 * A petId that is no int64 ("petId | integer | int64") never gets 2xx. Another spelling of an int64 X
 * (`X.0`, `0x…`, `%20X`, `+X`, `0X`, `Xe0`) answered with animal X is a reading the interface leaves
 * open (it says nothing about how petId is written): passed here, judged by get-pet.canonical-id
 * (`should`). Codes: accepted (a 2xx for a petId that spells no int64), other-animal (a 2xx for
 * another spelling of X that is not animal X).
 */
export function judgeNonNumeric(raw: string, reason: string, seen: Seen): Finding {
  if (!isAccepted(seen)) return pass();
  const spelled = otherSpellingOf(raw);
  if (spelled === undefined) return findingOfProblems([problem('accepted', `GET /pets/${raw} (${reason}) got ${seen.status}: "${decodedSegment(raw)}" is no int64`)], '400 or 404', describeSeen(seen));
  const answered = readPet(seen).value;
  if (answered?.id === spelled) return pass(`GET /pets/${raw} (${reason}) got ${seen.status} with animal ${spelled}: read as another spelling of ${spelled}, which the interface leaves open (get-pet.canonical-id judges it)`);
  const got = answered ? `animal ${answered.id}` : 'no Pet';
  return findingOfProblems([problem('other-animal', `GET /pets/${raw} (${reason}: another spelling of ${spelled}) got ${seen.status} with ${got}, not animal ${spelled}`)], `400 or 404, or animal ${spelled}`, describeSeen(seen));
}

/** One petId sent in another way than the canonical decimal digits, and what it got. */
export interface SpelledLookup {
  raw: string;
  reason: string;
  seen: Seen;
}

/** get-pet.non-numeric over the other spellings of a known animal's id. */
export const judgeSpellings = eachCase(({ raw, reason, seen }: SpelledLookup) => judgeNonNumeric(raw, reason, seen), {
  none: skip('no animal to look up in other spellings: the store lists none, and writes are not allowed to create one'),
  all: (n) => pass(`${n} other spellings of a known id: none answered with another animal, none that is no int64 answered`),
});

/**
 * A petId is written one way, its decimal digits: other spellings of an existing animal's id X
 * (`X.0`, `0x…`, `%20X`, `+X`, `Xe0`) get 400 or 404, not animal X; `0X` (decimal digits with a
 * leading zero, read as X by strict integer parsers too) may be either, and is said. The interface gives
 * petId as an int64 and says nothing of other spellings, and number coercion in validators reads
 * them as X: a `should`. Code: other-spelling-served. Spellings answered with another animal are
 * get-pet.non-numeric's.
 */
export function judgeCanonicalId(lookups: readonly SpelledLookup[]): Finding {
  const spelled = lookups.flatMap((l) => {
    const id = otherSpellingOf(l.raw);
    return id === undefined ? [] : [{ ...l, id }];
  });
  if (spelled.length === 0) return skip('no animal to look up in other spellings: the store lists none, and writes are not allowed to create one');
  const isServed = (l: (typeof spelled)[number]) => isAccepted(l.seen) && readPet(l.seen).value?.id === l.id;
  const served = spelled.filter((l) => !isZeroPadded(l.raw) && isServed(l));
  const padded = spelled.filter((l) => isZeroPadded(l.raw));
  const id = spelled[0]!.id;
  const paddedNote = padded.map((l) => `; /pets/${l.raw} (${l.reason}) ${isServed(l) ? `served animal ${id}` : `got ${l.seen.status}`}: decimal digits still, served and refused both accepted`).join('');
  if (served.length > 0) {
    const where = served.map((l) => `/pets/${l.raw} (${l.reason})`).join(', ');
    return fail(
      'other-spelling-served',
      `animal ${id} is also served at ${where}: read as a number coercion reads them; a petId is written one way, as the decimal digits of the int64`,
      `400 or 404 for every other spelling of ${id}`,
      served.map((l) => `${l.seen.status} with animal ${id} at /pets/${l.raw}`).join('; '),
    );
  }
  return pass(`no other spelling of ${id} was answered with animal ${id}: ${spelled.filter((l) => !isZeroPadded(l.raw)).map((l) => `/pets/${l.raw} ${l.seen.status}`).join(', ')}${paddedNote}`);
}

export function describeDeprecation(seen: Seen): Finding {
  const d = seen.headers.deprecation;
  const s = seen.headers.sunset;
  const link = /deprecation|sunset/i.test(seen.headers.link ?? '');
  if (d === undefined && s === undefined) return pass('no Deprecation or Sunset header');
  return pass(`Deprecation: ${d ?? 'absent'}; Sunset: ${s ?? 'absent'}${link ? '; Link names a deprecation or sunset resource' : ''}`);
}

/** When getPet goes away: "announced for removal on 5 December 2030" (Versioning). */
const REMOVAL = { year: 2030, month: 11, day: 5, text: '5 December 2030' } as const;
/** The time zones a date may be meant in: UTC−12 to UTC+14, in hours. */
const ZONES = { west: -12, east: 14 } as const;
const HOUR_MS = 3_600_000;
/** Where an RFC 850 date's two-digit year is placed: near the removal, not near today (the judges stay pure). */
const NEAR_REMOVAL_MS = Date.UTC(REMOVAL.year, REMOVAL.month, REMOVAL.day);

/** "UTC+0", "UTC+14", "UTC−3": an offset in whole hours. */
const zoneName = (hours: number) => `UTC${hours >= 0 ? '+' : '−'}${Math.abs(hours)}`;

/**
 * The whole-hour zones (UTC−12 to UTC+14) in which the instant `ms` falls on 5 December 2030, as
 * the first and last of them; undefined when it falls on that day in none.
 */
export function removalDayZones(ms: number): { west: number; east: number } | undefined {
  const zones: number[] = [];
  for (let h = ZONES.west; h <= ZONES.east; h++) {
    const local = new Date(ms + h * HOUR_MS);
    if (local.getUTCFullYear() === REMOVAL.year && local.getUTCMonth() === REMOVAL.month && local.getUTCDate() === REMOVAL.day) zones.push(h);
  }
  return zones.length === 0 ? undefined : { west: zones[0]!, east: zones.at(-1)! };
}

/**
 * A Sunset header (RFC 8594: when the resource is expected to stop answering) states the removal
 * date the interface gives: it must name 5 December 2030, in some time zone (UTC−12 to UTC+14: a
 * date written for the end of the day in one zone is the next day's in UTC). Its form is
 * get-pet.deprecation-form's; one that names no date cannot be judged here. Code: sunset-wrong-date.
 */
export function judgeSunsetDate(seen: Seen): Finding {
  const sunset = seen.headers.sunset;
  if (sunset === undefined) return skip('no Sunset header on getPet: the interface requires none (get-pet.deprecation records what was sent)');
  const read = readDateForm(sunset, NEAR_REMOVAL_MS);
  if (!read) return skip(`Sunset "${sunset}" is not a date this harness can read, so names no removal date (get-pet.deprecation-form judges its form)`);
  const utc = new Date(read.ms).toISOString().slice(0, 10);
  const zones = removalDayZones(read.ms);
  if (!zones) {
    return fail(
      'sunset-wrong-date',
      `getPet's Sunset "${sunset}" names ${utc} (UTC), not ${REMOVAL.text}, the removal date the interface announces, in any time zone from UTC−12 to UTC+14`,
      `Sunset naming ${REMOVAL.text} (e.g. Thu, 05 Dec 2030 00:00:00 GMT), in some time zone from UTC−12 to UTC+14`,
      `Sunset: ${sunset}`,
    );
  }
  const range = zones.west === zones.east ? `in ${zoneName(zones.west)} only` : `in every zone from ${zoneName(zones.west)} to ${zoneName(zones.east)}`;
  const where = zones.west <= 0 && zones.east >= 0 ? `in UTC (${range})` : `${range}, not in UTC (${utc})`;
  return pass(`Sunset "${sunset}" names ${REMOVAL.text} ${where}; any time zone from UTC−12 to UTC+14 is accepted`);
}

/** RFC 9745: `@` and an integer of at most 15 digits (a structured-field Date, seconds since 1970). */
const SF_DATE = /^@-?[0-9]{1,15}$/;

/** Which form a Deprecation header takes, or undefined for none of the defensible ones. */
function formOfDeprecation(value: string): string | undefined {
  const v = value.trim();
  if (SF_DATE.test(v)) return 'RFC 9745 (a structured-field Date)';
  if (v === 'true') return "the earlier draft's `true`";
  if (isImfFixdate(v)) return "an earlier draft's IMF-fixdate";
  return undefined;
}

/**
 * Deprecation and Sunset, when sent, are well formed: Deprecation as RFC 9745 has it (`@` and an
 * integer), or as earlier drafts did (`true`, an IMF-fixdate), each accepted and named; Sunset an
 * HTTP-date in the IMF-fixdate form senders write (RFC 8594, RFC 9110 §5.6.7). Codes:
 * deprecation-malformed, sunset-malformed.
 */
export function judgeDeprecationForm(seen: Seen): Finding {
  const d = seen.headers.deprecation;
  const s = seen.headers.sunset;
  if (d === undefined && s === undefined) return skip('no Deprecation or Sunset header on getPet: the interface requires neither (get-pet.deprecation records that)');
  const dForm = d === undefined ? undefined : formOfDeprecation(d);
  if (d !== undefined && !dForm) {
    return fail('deprecation-malformed', `getPet's Deprecation "${d}" is neither RFC 9745's form (@ and a Unix time in seconds, e.g. @1735689600) nor an earlier draft's (true, or an IMF-fixdate)`, 'Deprecation: @<seconds> (RFC 9745), or true', `Deprecation: ${d}`);
  }
  if (s !== undefined && !isImfFixdate(s)) {
    const read = readDateForm(s, NEAR_REMOVAL_MS);
    const why = read ? `a date in the ${read.form} form, not the IMF-fixdate a sender writes` : 'not an HTTP-date';
    return fail('sunset-malformed', `getPet's Sunset "${s}" is ${why} (RFC 8594: Sunset is an HTTP-date; RFC 9110 §5.6.7)`, 'Sunset: an IMF-fixdate, e.g. Thu, 05 Dec 2030 00:00:00 GMT', `Sunset: ${s}`);
  }
  return pass([d !== undefined ? `Deprecation "${d}": ${dForm}` : 'no Deprecation', s !== undefined ? `Sunset "${s}": an IMF-fixdate` : 'no Sunset'].join('; '));
}

export const found = defineCheck({ id: 'get-pet.found', clause, suite, title: 'getPet returns an existing animal exactly as listPets shows it', severity: 'must', judge: eachCase(({ listed, seen }: { listed: Pet; seen: Seen }) => judgeFound(listed, seen), {
    none: skip('the store lists no animal, and writes are not allowed to create one'),
    all: (n) => pass(`${n} animals came back as listed`),
  }) });
export const notFound = defineCheck({ id: 'get-pet.not-found', clause, suite, title: 'An id that does not exist gets 404 with an Error body', severity: 'must', judge: judgeNotFound });
export const nonNumeric = defineCheck({ id: 'get-pet.non-numeric', clause, suite, title: 'A petId that is no int64 never gets 2xx (400 and 404 both legal); another spelling of an id never gets another animal', severity: 'must', judge: judgeNonNumeric });
export const canonicalId = defineCheck({ id: 'get-pet.canonical-id', clause, suite, title: 'A petId is written one way: other spellings of an existing id (7.0, 0x7, %207, +7, 7e0) get 400 or 404, not that animal (07 may be either)', severity: 'should', standard: 'RFC 8259 §6: an integer is written as decimal digits without fraction, exponent, leading plus or zero padding', judge: judgeCanonicalId });
export const nonNumericNo5xx = defineCheck({ id: 'get-pet.non-numeric-no-5xx', explainedBy: ['responses.no-5xx'], clause, suite, title: 'A non-numeric petId never gets a 5xx', severity: 'should', standard: 'RFC 9110 §15.5 and §15.6: a request the server cannot read is a client error (4xx), not a server error', judge: judgeNo5xx });
export const deprecation = defineCheck({ id: 'get-pet.deprecation', clause: 'Versioning', suite, title: 'How the deprecation of getPet is announced (Deprecation, Sunset headers), recorded', severity: 'info', judge: describeDeprecation });

/** A getPet answer, with the exchange that recorded it when there is one (the suite's answers carry theirs). */
export type GetPetAnswer = Seen & { exchange?: Exchange };

/**
 * Judges every getPet answer of the suite with `one`, those that `carries` the headers judged:
 * the first failure decides, with its exchange as evidence. None carrying them: the skip `one`
 * gives; some carrying them but none judgeable: the skip of the first of those.
 */
function everyAnswer(one: (seen: Seen) => Finding, carries: (seen: Seen) => boolean): (answers: readonly GetPetAnswer[]) => Finding {
  return (answers) => {
    let first: Finding | undefined;
    let judged = 0;
    for (const answer of answers) {
      const finding = one(answer);
      if (finding.outcome === 'fail') return answer.exchange ? { ...finding, exchanges: [answer.exchange] } : finding;
      if (finding.outcome === 'pass') judged += 1;
      if (finding.outcome === 'pass' || carries(answer)) first ??= finding;
    }
    if (!first) return answers.length > 0 ? one(answers[0]!) : skip('no getPet answer was recorded');
    return judged > 1 && first.outcome === 'pass' ? pass(`${first.message} (${judged} getPet answers judged)`) : first;
  };
}

const carriesSunset = (seen: Seen) => seen.headers.sunset !== undefined;
const carriesEither = (seen: Seen) => seen.headers.sunset !== undefined || seen.headers.deprecation !== undefined;

export const sunsetDate = defineCheck({ id: 'get-pet.sunset-date', clause: 'Versioning', suite, title: 'A Sunset header on getPet names 5 December 2030, the announced removal (any time zone from UTC−12 to UTC+14)', severity: 'must', judge: everyAnswer(judgeSunsetDate, carriesSunset) });
export const deprecationForm = defineCheck({ id: 'get-pet.deprecation-form', clause: 'Versioning', suite, title: "Deprecation and Sunset on getPet are well formed: Deprecation as RFC 9745 (@<seconds>) or an earlier draft (true), Sunset an IMF-fixdate", severity: 'should', standard: 'RFC 9745 §2 (Deprecation: an @-date, or `true` in its drafts) and RFC 8594 §3 (Sunset: an HTTP-date)', judge: everyAnswer(judgeDeprecationForm, carriesEither) });

export const GET_PET_CHECKS = [found, notFound, nonNumeric, canonicalId, nonNumericNo5xx, deprecation, sunsetDate, deprecationForm] as const;
