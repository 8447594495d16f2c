import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidNewPet, invalidNewPetBoundaries, type InvalidNewPetCase } from '../../../lib/generators/invalid-new-pet.ts';
import { parseJson, stringifyJson, tryParseJson } from '../../../lib/json.ts';
import { INT64_MAX, INT64_MIN, NewPet, PET_STATUSES, type PetStatus } from '../../../lib/models.ts';

const SEED = 7_031_977;
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** True when the case cannot be read as a NewPet. */
function isInvalid(c: InvalidNewPetCase): boolean {
  if (c.body === undefined) return true;
  const parsed = tryParseJson(c.body);
  if (!parsed.ok) return true;
  if (!isPlainObject(parsed.value)) return true;
  return !NewPet.safeParse(parsed.value).success;
}

/** Every category the brief asks for, by the label the generator gives it. */
const EXPECTED_REASONS = [
  'name missing',
  'categoryId missing',
  'name and categoryId missing',
  'name is a number',
  'name is a boolean',
  'name is an array',
  'name is an object',
  'name is null',
  'categoryId is a string',
  'categoryId is a numeric string',
  'categoryId is a boolean',
  'categoryId is an array',
  'categoryId is an object',
  'categoryId is null',
  'categoryId has a fraction',
  'categoryId above int64',
  'categoryId below int64',
  'categoryId above int64 in exponent notation',
  'status is a number',
  'status is a boolean',
  'status is null',
  'status is an array',
  'status is the empty string',
  'status is whitespace only',
  'status is a PetStatus in another case',
  'status is a PetStatus with whitespace at its ends',
  'status not in PetStatus',
  'malformed JSON: truncated',
  'malformed JSON: trailing comma',
  'malformed JSON: single quotes',
  'malformed JSON: unquoted keys',
  'malformed JSON: NaN',
  'malformed JSON: Infinity',
  'malformed JSON: comment',
  'malformed JSON: invalid number literal',
  'malformed JSON: unescaped control character in string',
  'malformed JSON: invalid escape in string',
  'malformed JSON: data after the object',
  'empty body',
  'whitespace-only body',
  'no body',
  'no body, Content-Type application/json',
  'string instead of object',
  'number instead of object',
  'boolean instead of object',
  'null instead of object',
  'array instead of object',
];

const VALID_VALUE = { name: 'x', categoryId: 1, status: 'available' } as const;

describe('invalidNewPet', () => {
  it('generates only cases that are not a valid NewPet', () => {
    fc.assert(
      fc.property(invalidNewPet(), (c) => {
        expect(isInvalid(c), `${c.reason}: ${c.body}`).toBe(true);
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('labels every case, sends application/json with every body, and never a lone surrogate', () => {
    fc.assert(
      fc.property(invalidNewPet({ namePrefix: 'cf-' }), (c) => {
        expect(c.reason.length).toBeGreaterThan(0);
        if (c.body !== undefined) {
          expect(c.contentType).toBe('application/json');
          expect(LONE_SURROGATE.test(c.body)).toBe(false);
          expect(Buffer.byteLength(c.body)).toBeLessThan(16 * 1024);
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('breaks exactly one rule: repairing the named field makes the body a valid NewPet', () => {
    fc.assert(
      fc.property(invalidNewPet(), (c) => {
        const field = /^(name|categoryId|status) (is |has |above |below |not in )/.exec(c.reason)?.[1] as keyof typeof VALID_VALUE | undefined;
        const missing = /^(name|categoryId)( and (categoryId))? missing$/.exec(c.reason);
        if (field === undefined && missing === null) return;
        const parsed = tryParseJson(c.body ?? '');
        expect(parsed.ok).toBe(true);
        const value = { ...(parsed as { value: Record<string, unknown> }).value };
        if (field !== undefined) {
          expect(field in value).toBe(true);
          value[field] = VALID_VALUE[field];
        } else {
          for (const key of [missing![1], missing![3]]) {
            if (key === undefined) continue;
            expect(key in value).toBe(false);
            value[key] = VALID_VALUE[key as 'name' | 'categoryId'];
          }
        }
        expect(NewPet.safeParse(value).success, `${c.reason}: ${c.body}`).toBe(true);
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('labels a PetStatus in another case apart from strings that are no PetStatus in any case', () => {
    fc.assert(
      fc.property(invalidNewPet(), (c) => {
        if (!c.reason.startsWith('status ') || !c.reason.includes('PetStatus')) return;
        const status = (tryParseJson(c.body!) as { value: { status: string } }).value.status;
        const folded = status.toUpperCase().toLowerCase();
        expect(PET_STATUSES.includes(status as PetStatus)).toBe(false);
        expect(PET_STATUSES.includes(folded as PetStatus), `${c.reason}: ${status}`).toBe(c.reason === 'status is a PetStatus in another case');
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  it('writes categoryIds beyond int64 in exponent notation whose value is beyond int64 (or beyond a double)', () => {
    fc.assert(
      fc.property(invalidNewPet(), (c) => {
        if (c.reason !== 'categoryId above int64 in exponent notation') return;
        const literal = /"categoryId":([0-9.eE+]+)[,}]/.exec(c.body!)?.[1];
        expect(literal).toMatch(/e/i);
        expect(Number(literal) > Number(INT64_MAX)).toBe(true);
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  it('writes fractions that are not integral (never 1.0 or 1e3) and out-of-range integers as plain digits', () => {
    fc.assert(
      fc.property(invalidNewPet(), (c) => {
        if (c.reason === 'categoryId has a fraction') {
          const categoryId = (tryParseJson(c.body!) as { value: { categoryId: unknown } }).value.categoryId;
          expect(typeof categoryId).toBe('number');
          expect(Number.isInteger(categoryId)).toBe(false);
        }
        if (c.reason === 'categoryId above int64' || c.reason === 'categoryId below int64') {
          const literal = /"categoryId":(-?[0-9]+)[,}]/.exec(c.body!)?.[1];
          expect(literal).toBeDefined();
          const value = BigInt(literal!);
          expect(value > INT64_MAX || value < INT64_MIN).toBe(true);
        }
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  describe('coverage (fixed seed, 3,000 samples)', () => {
    const samples = fc.sample(invalidNewPet(), { seed: SEED, numRuns: 3000 });
    const reasons = new Set(samples.map((c) => c.reason));
    const bodies = new Set(samples.map((c) => c.body));

    it.each(EXPECTED_REASONS)('"%s" appears', (reason) => {
      expect(reasons).toContain(reason);
    });

    it('gives no label outside the expected list', () => {
      expect([...reasons].filter((r) => !EXPECTED_REASONS.includes(r))).toEqual([]);
    });

    it.each([
      ['numeric string categoryId "12"', /"categoryId":"12"/],
      ['fraction 1.5', /"categoryId":1\.5[,}]/],
      ['fraction -0.25', /"categoryId":-0\.25[,}]/],
      ['fraction 1e-3', /"categoryId":1e-3[,}]/],
      ['2^63', /"categoryId":9223372036854775808[,}]/],
      ['-2^63 - 1', /"categoryId":-9223372036854775809[,}]/],
      ['10^30', /"categoryId":1000000000000000000000000000000[,}]/],
      ['status "Available"', /"status":"Available"/],
      ['status "adopted"', /"status":"adopted"/],
      ['a padded status', /"status":"( |\\t|\\n)+(available|pending|sold)"/],
      ['status "sold" in another case', /"status":"(?!sold")[sSſ][oO][lL][dD]"/],
      ['categoryId 1e400', /"categoryId":1e400[,}]/],
      ['status ""', /"status":""/],
      ['a valid pet inside an array', /^\[\{.*\}\]$/s],
    ])('includes %s', (_, pattern) => {
      expect([...bodies].some((b) => b !== undefined && pattern.test(b))).toBe(true);
    });

    it.each(['"x"', '1', 'null', '[]', '', '{}'])('includes the body %j', (body) => {
      expect(bodies).toContain(body);
    });

    it('includes no body at all', () => {
      expect(bodies).toContain(undefined);
    });
  });
});

/** Reasons whose cases all describe a NewPet to a lenient reader, and those some of whose cases do. */
const ALWAYS_READ = ['categoryId is a numeric string', 'status is null', 'status is a PetStatus in another case', 'status is a PetStatus with whitespace at its ends', 'name is a number', 'malformed JSON: trailing comma', 'malformed JSON: single quotes', 'malformed JSON: unquoted keys', 'malformed JSON: comment', 'malformed JSON: unescaped control character in string', 'malformed JSON: data after the object'];
const SOMETIMES_READ = ['malformed JSON: invalid number literal', 'string instead of object'];

describe('readings: the NewPets a lenient reader takes an invalid body for', () => {
  const samples = fc.sample(invalidNewPet({ namePrefix: 'cf-' }), { seed: SEED, numRuns: 3000 });

  it('are given for the spellings that still describe a NewPet, and for nothing else', () => {
    for (const c of samples) {
      const read = ALWAYS_READ.includes(c.reason) ? true : SOMETIMES_READ.includes(c.reason) ? undefined : false;
      if (read !== undefined) expect({ reason: c.reason, body: c.body, read: c.readings !== undefined }).toEqual({ reason: c.reason, body: c.body, read });
    }
    for (const reason of [...ALWAYS_READ, ...SOMETIMES_READ]) expect(samples.some((c) => c.reason === reason && c.readings), reason).toBe(true);
  });

  it('are coerced where they read a value of another type or outside the enum (the interface calls it invalid), not where they read what it does not describe', () => {
    const COERCED = ['categoryId is a numeric string', 'status is a PetStatus in another case', 'status is a PetStatus with whitespace at its ends', 'name is a number', 'string instead of object'];
    for (const c of samples) {
      const expected = c.readings === undefined ? undefined : COERCED.includes(c.reason) ? true : undefined;
      expect({ reason: c.reason, body: c.body, coerced: c.coerced }).toEqual({ reason: c.reason, body: c.body, coerced: expected });
    }
    for (const reason of COERCED) expect(samples.some((c) => c.reason === reason && c.coerced), reason).toBe(true);
    for (const reason of ['status is null', 'malformed JSON: trailing comma', 'malformed JSON: data after the object']) expect(samples.some((c) => c.reason === reason && c.readings && !c.coerced), reason).toBe(true);
  });

  it('are each a valid NewPet, and differ from the body only in the field it spells (a field case)', () => {
    for (const c of samples.filter((s) => s.readings)) {
      for (const reading of c.readings!) expect(NewPet.safeParse(reading).success, `${c.reason}: ${c.body}`).toBe(true);
      const field = /^(name|categoryId|status) /.exec(c.reason)?.[1];
      if (!field) continue;
      const sent = parseJson(c.body!) as Record<string, unknown>;
      for (const reading of c.readings!) {
        for (const other of ['name', 'categoryId', 'status'].filter((f) => f !== field)) {
          expect(String(reading[other as keyof NewPet] ?? ''), `${c.reason}: ${c.body}`).toBe(String(sent[other] ?? ''));
        }
      }
    }
  });

  it.each<[string, RegExp, Partial<NewPet> | 'no status']>([
    ['a numeric string as its integer', /"categoryId":"9007199254740993"/, { categoryId: 9007199254740993n }],
    ['a status in another case as that status', /"status":"ſold"/, { status: 'sold' }],
    ['a padded status as that status', /"status":" +pending"/, { status: 'pending' }],
    ['a null status as none', /"status":null/, 'no status'],
  ])('read %s', (_, pattern, expected) => {
    const c = samples.find((s) => s.body !== undefined && pattern.test(s.body) && s.readings);
    expect(c, String(pattern)).toBeDefined();
    if (expected === 'no status') expect(c!.readings![0]).not.toHaveProperty('status');
    else expect(c!.readings![0]).toMatchObject(expected);
  });

  it('read a number for a name as its text, as written and as languages write it', () => {
    const c = samples.find((s) => s.reason === 'name is a number' && /"name":1e3/.test(s.body!));
    expect(c?.readings?.map((r) => r.name)).toEqual(['1e3', '1000', '1000.0']);
  });

  it('read JSON5 spellings as the NewPet they spell, and a NewPet JSON-encoded twice as that NewPet', () => {
    const single = samples.find((s) => s.reason === 'malformed JSON: single quotes')!;
    const [, name, id] = /['"]name['"]:['"]([A-Za-z]+)['"],['"]categoryId['"]:(-?[0-9]+)/.exec(single.body!)!;
    expect(single.readings).toEqual([{ name, categoryId: BigInt(id!) }]);
    const hex = samples.find((s) => s.reason === 'malformed JSON: invalid number literal' && s.body!.includes(':0x10'));
    expect(hex?.readings?.[0]?.categoryId).toBe(16n);
    expect(samples.find((s) => s.reason === 'malformed JSON: invalid number literal' && s.body!.includes(':.5'))?.readings).toBeUndefined();
    const twice = samples.find((s) => s.reason === 'string instead of object' && s.readings)!;
    expect(NewPet.parse(parseJson(parseJson(twice.body!) as string))).toEqual(twice.readings![0]);
    for (const after of samples.filter((s) => s.reason === 'malformed JSON: data after the object')) expect(after.body!.startsWith(stringifyJson(after.readings![0]))).toBe(true);
  });
});

describe('invalidNewPetBoundaries: sent on every run', () => {
  const cases = invalidNewPetBoundaries({ namePrefix: 'cf-' });
  const valueOf = (c: InvalidNewPetCase, field: string) => (parseJson(c.body!) as Record<string, unknown>)[field];

  it('are each invalid, labelled with a reason the generator gives, and named with the prefix', () => {
    for (const c of cases) {
      expect(isInvalid(c), c.body).toBe(true);
      expect(EXPECTED_REASONS).toContain(c.reason);
      expect(c.contentType).toBe('application/json');
    }
  });

  it.each<[string, unknown, string, 'none' | Partial<NewPet> | 'no status']>([
    ['status', '', 'status is the empty string', 'none'],
    ['status', ' ', 'status is whitespace only', 'none'],
    ['status', '\t \n', 'status is whitespace only', 'none'],
    ['status', 'Available', 'status is a PetStatus in another case', { status: 'available' }],
    ['status', 'AVAILABLE', 'status is a PetStatus in another case', { status: 'available' }],
    ['status', ' available', 'status is a PetStatus with whitespace at its ends', { status: 'available' }],
    ['status', null, 'status is null', 'no status'],
    ['categoryId', '', 'categoryId is a string', 'none'],
    ['categoryId', ' ', 'categoryId is a string', 'none'],
    ['categoryId', '12', 'categoryId is a numeric string', { categoryId: 12n }],
    ['categoryId', null, 'categoryId is null', 'none'],
    ['categoryId', INT64_MAX + 1n, 'categoryId above int64', 'none'],
    ['categoryId', INT64_MIN - 1n, 'categoryId below int64', 'none'],
    ['name', null, 'name is null', 'none'],
    ['name', 42, 'name is a number', { name: '42' }],
  ])('%s %s (%s)', (field, value, reason, reading) => {
    const c = cases.find((x) => x.reason === reason && Object.is(valueOf(x, field), value));
    expect(c, `${field} ${String(value)}`).toBeDefined();
    if (reading === 'none') expect(c!.readings).toBeUndefined();
    else if (reading === 'no status') expect(c!.readings).toEqual([{ name: 'cf-invalid status', categoryId: 12n }]);
    else expect(c!.readings).toEqual([{ name: `cf-invalid ${field}`, categoryId: 12n, ...reading }]);
    // Every reading but the null status coerces a value the interface calls invalid.
    expect(c!.coerced).toBe(reading === 'none' || reading === 'no status' ? undefined : true);
  });

  it('are exactly those fifteen', () => {
    expect(cases).toHaveLength(15);
  });
});
