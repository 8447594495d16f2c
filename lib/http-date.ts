// HTTP-date (RFC 9110 §5.6.7), read in one place: the rate-limit vocabulary reads Date and
// Retry-After through it, the getPet checks Sunset (RFC 8594) and a Deprecation written as a date.
// Pure: the moment "now" is a parameter (it places an RFC 850 two-digit year), never a clock.

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY = '(?:mon|tue|wed|thu|fri|sat|sun)';
const LONG_DAY = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)';
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '([0-9]{2}):([0-9]{2}):([0-9]{2})';
const IMF_FIXDATE = new RegExp(`^${DAY}, ([0-9]{2}) ${MONTH} ([0-9]{4}) ${TIME} GMT$`, 'i');
const RFC850_DATE = new RegExp(`^${LONG_DAY}, ([0-9]{2})-${MONTH}-([0-9]{2}) ${TIME} GMT$`, 'i');
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} ([0-9]{2}| [0-9]) ${TIME} ([0-9]{4})$`, 'i');
/** IMF-fixdate exactly as a sender must write it (the grammar is case-sensitive). */
const IMF_FIXDATE_EXACT = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$/;
/** ISO 8601 with a zone: not an HTTP-date, but unambiguous. */
const ISO_8601 = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$/;

export type DateForm = 'imf-fixdate' | 'rfc850-date' | 'asctime-date' | 'iso-8601';

/**
 * A date in one of the three HTTP-date forms (all UTC), or ISO 8601 with a zone, as epoch ms and
 * its form; undefined for anything else. Not Date.parse: it reads asctime in local time and turns
 * junk such as "a 5" or "1.5" into a date. `nearMs` places an RFC 850 two-digit year.
 */
export function readDateForm(text: string, nearMs: number): { ms: number; form: DateForm } | undefined {
  const value = text.trim();
  let parts: [string, string, string, string, string, string] | undefined; // day, month, year, h, m, s
  let form: DateForm | undefined;
  let m = IMF_FIXDATE.exec(value);
  if (m) [parts, form] = [[m[1]!, m[2]!, m[3]!, m[4]!, m[5]!, m[6]!], 'imf-fixdate'];
  else if ((m = RFC850_DATE.exec(value))) {
    // Two-digit year: the one within 50 years of now (RFC 9110 §5.6.7).
    const nearYear = new Date(nearMs).getUTCFullYear();
    let year = Math.floor(nearYear / 100) * 100 + Number(m[3]);
    if (year > nearYear + 50) year -= 100;
    else if (year < nearYear - 50) year += 100;
    [parts, form] = [[m[1]!, m[2]!, String(year), m[4]!, m[5]!, m[6]!], 'rfc850-date'];
  } else if ((m = ASCTIME_DATE.exec(value))) [parts, form] = [[m[2]!.trim(), m[1]!, m[6]!, m[3]!, m[4]!, m[5]!], 'asctime-date'];
  else if ((m = ISO_8601.exec(value))) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) || !validDay(Number(m[1]), Number(m[2]) - 1, Number(m[3])) ? undefined : { ms, form: 'iso-8601' };
  }
  if (!parts || !form) return undefined;
  const [day, month, year, hour, minute, second] = parts.map((p, i) => (i === 1 ? MONTHS.indexOf(p.toLowerCase()) : Number(p)));
  if (!validDay(year!, month!, day!) || hour! > 23 || minute! > 59 || second! > 60) return undefined;
  return { ms: Date.UTC(year!, month!, day!, hour, minute, second), form };
}

function validDay(year: number, month: number, day: number): boolean {
  return month >= 0 && month < 12 && day >= 1 && day <= new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** An HTTP-date (any of its three forms) as epoch ms; undefined for anything else, ISO 8601 included. */
export function readHttpDate(text: string, nearMs: number): number | undefined {
  const read = readDateForm(text, nearMs);
  return read && read.form !== 'iso-8601' ? read.ms : undefined;
}

/** IMF-fixdate exactly as a sender must write it ("Thu, 05 Dec 2030 00:00:00 GMT"): the form RFC 9110 has senders generate. */
export function isImfFixdate(text: string): boolean {
  return IMF_FIXDATE_EXACT.test(text.trim()) && readDateForm(text, 0) !== undefined;
}
