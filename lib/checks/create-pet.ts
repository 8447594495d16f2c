// createPet: `POST /pets` with a NewPet; 201 with the Pet; 400 with an Error body for bad input.
import { tryParseJson } from '../json.ts';
import type { NewPet, Pet } from '../models.ts';
import { findingOfProblems, type Problem, problem, recoded, saidOf, serverError, statusAsAsked } from './bodies.ts';
import { echoProblems, notingOtherMembers, readPet, readPets, sameAnimalProblems } from './pets.ts';
import { defineCheck } from './define.ts';
import { describeSeen, type EachCase, explainedBy, fail, type Finding, findingOf, pass, type Seen, skip } from './types.ts';
import { isAccepted, isServerError } from '../status.ts';

const clause = 'Endpoints / createPet';
const petClause = 'Resources and their fields / Pet';
const suite = 'create-pet';

/**
 * 201 and a Pet. Returns the Pet for the checks that follow. Codes: not-201, and readPet's
 * (invalid-pet, empty-body, not-json, no-content-type, not-json-media-type).
 */
export function judgeCreated(seen: Seen): { finding: Finding; pet?: Pet } {
  const expected = '201 with a Pet (name, categoryId, optional status, int64 id), application/json';
  if (seen.status !== 201) return { finding: findingOf('not-201', [`got ${seen.status}, not 201`], expected, describeSeen(seen)) };
  const { value, problems } = readPet(seen);
  const finding = findingOfProblems(problems, expected, describeSeen(seen));
  return value ? { finding, pet: value } : { finding };
}

/**
 * The Pet as sent. Codes: name-not-echoed, category-id-not-echoed, status-not-echoed; with no Pet to
 * compare, the code of judgeCreated's failure (not-201, invalid-pet, …).
 */
export function judgeEcho(sent: NewPet, seen: Seen): Finding {
  const expected = `the Pet as sent: ${describeNewPet(sent)}`;
  const { finding, pet } = judgeCreated(seen);
  if (!pet) return fail(finding.outcome === 'fail' ? finding.code : 'not-created', `no created Pet came back to compare: ${finding.outcome === 'fail' ? finding.message : seen.status}`, expected, describeSeen(seen));
  return notingOtherMembers(findingOfProblems(echoProblems(sent, pet), expected, describeSeen(seen)), readPet(seen).others);
}

/** Code: id-taken. */
export function judgeNewId(pet: Pet, idsBefore: ReadonlySet<bigint>): Finding {
  return findingOf('id-taken', idsBefore.has(pet.id) ? [`id ${pet.id} was already taken by another animal`] : [], 'an id not seen before', `id ${pet.id}`);
}

/**
 * getPet returns the animal created. Codes: get-not-200; id-differs, name-differs,
 * category-id-differs, status-differs; and readPet's of the getPet response, as get-… (get-invalid-pet,
 * get-empty-body, …), apart from those of the POST (the suite judges it with judgeCreated first).
 */
export function judgePersisted(createdPet: Pet, seen: Seen): Finding {
  const expected = `200 with the Pet created: ${describePet(createdPet)}`;
  if (seen.status !== 200) return findingOf('get-not-200', [`getPet(${createdPet.id}) got ${seen.status}, not 200`], expected, describeSeen(seen));
  const { value, problems, others } = readPet(seen);
  if (!value) return findingOfProblems(recoded('get', problems), expected, describeSeen(seen));
  // A 201 without status (none was sent: "not shown") says nothing the getPet status can contradict.
  const compared = createdPet.status === undefined ? { ...createdPet, status: value.status } : createdPet;
  return notingOtherMembers(findingOfProblems([...sameAnimalProblems(compared, value), ...recoded('get', problems)], expected, describeSeen(seen)), others);
}

/**
 * An invalid NewPet as the checks need it: the rule it breaks, and the NewPets a lenient reader
 * takes it for when it still describes one (see invalidNewPet: "12" for 12, "Available" for
 * available, a NewPet in single quotes), with whether that reading coerces a value the interface
 * calls invalid.
 */
export interface InvalidCase {
  /** e.g. "categoryId is a numeric string". */
  reason: string;
  /** The Content-Type sent; absent: none was sent. */
  contentType?: string;
  /** The body sent, for messages; absent: not known (or none was sent). */
  body?: string | undefined;
  readings?: readonly NewPet[];
  /**
   * True when the readings coerce a value of another type or outside the enum ("12" for 12,
   * "SOLD" for sold, 42 for "42", the NewPet JSON-encoded twice): values the interface calls
   * invalid, so creating a reading fails create-pet.invalid-rejected. Otherwise the readings read
   * what the interface does not describe (JSON5, a null status as none): create-pet.lenient-input's.
   */
  coerced?: boolean;
}

/** The reading of an invalid NewPet that the created Pet is (name, categoryId and any status as read), if any. */
export function readingCreated(c: InvalidCase, pet: Pet): NewPet | undefined {
  return c.readings?.find((reading) => echoProblems(reading, pet).length === 0);
}

/** A body quoted short, for a message. */
const quoted = (body: string | undefined) => (body === undefined ? 'no body' : JSON.stringify(body.length > 70 ? `${body.slice(0, 70)}…` : body));

/** The field an invalid case's reason is about ("categoryId is a numeric string": categoryId), if one. */
const fieldOfReason = (reason: string): 'name' | 'categoryId' | 'status' | undefined => /^(name|categoryId|status) /.exec(reason)?.[1] as 'name' | 'categoryId' | 'status' | undefined;

/** A field's value as written in a body (its JSON text, the generator writes `"field":value`), if found. */
function writtenValue(body: string | undefined, field: string): string | undefined {
  return body === undefined ? undefined : new RegExp(`"${field}"\\s*:\\s*("(?:[^"\\\\]|\\\\.)*"|[^,}\\s]+)`).exec(body)?.[1];
}

/**
 * What a coerced reading created: the value as written and as stored ("categoryId is a numeric
 * string, written "12": got 201, created pet 7 with categoryId 12"), or the body and the Pet.
 */
function coercedMessage(c: InvalidCase, seen: Seen, pet: Pet): string {
  const field = fieldOfReason(c.reason);
  const written = field && writtenValue(c.body, field);
  if (field === undefined) return `${c.reason} (${quoted(c.body)}): got ${seen.status}, created ${describePet(pet)}`;
  const stored = pet[field];
  const value = stored === undefined ? 'none' : typeof stored === 'bigint' ? String(stored) : JSON.stringify(stored);
  return `${c.reason}${written === undefined ? '' : `, written ${written}`}: got ${seen.status}, created pet ${pet.id} with ${field} ${value}`;
}

/**
 * An invalid NewPet gets 400 with an Error body. A 2xx that created what the body describes to a
 * lenient reader (one of its readings) fails when that reading coerced a value of another type or
 * outside the enum ("12" for a categoryId, "SOLD" or " available" for a status, 42 for a name, a
 * NewPet JSON-encoded twice): the interface calls such values invalid and answers them 400. It
 * passes when the reading is of what the interface does not describe (JSON5 syntax, a null status
 * as none): create-pet.lenient-input (`should`) judges it. Any other 2xx created an animal the body
 * does not describe (or did not say what it created). A request sent without Content-Type may also
 * get 415, the usual HTTP answer to a body of no media type (Spring's and ASP.NET Core's for a body
 * they would bind), said in the pass. Codes: server-error (5xx), coerced (2xx, created as a coerced
 * reading), accepted (any other 2xx), not-400 (another status). A refusal's Error body is
 * errors.error-body's (statusAsAsked).
 */
export function judgeInvalidRejected(c: InvalidCase, seen: Seen): Finding {
  const { reason } = c;
  const legal = c.contentType === undefined ? [400, 415] : [400];
  const lenient = c.readings && !c.coerced ? `; a 2xx only for the NewPet a lenient reader takes it for (${c.readings.map(describeNewPet).join(' or ')})` : '';
  const expected = `${legal.join(' or ')} with an Error body (${reason})${lenient}`;
  if (isAccepted(seen)) {
    const pet = readPet(seen).value;
    const reading = pet && readingCreated(c, pet);
    if (pet && reading && c.coerced) return fail('coerced', `${coercedMessage(c, seen, pet)}: a value the interface calls invalid was read as another`, expected, describeSeen(seen));
    if (pet && reading) return pass(`${reason}: ${seen.status}, read leniently as ${describeNewPet(reading)} (pet ${pet.id}), which the interface does not describe; create-pet.lenient-input's to judge`);
    const what = pet ? `created ${describePet(pet)}${c.readings ? ', which is not what the body spells' : ''}` : 'no Pet came back to say what was created';
    return fail('accepted', `${reason}: got ${seen.status} (accepted), not ${legal.join(' or ')}: ${what}`, expected, describeSeen(seen));
  }
  if (!legal.includes(seen.status)) {
    const code = isServerError(seen) ? 'server-error' : 'not-400';
    const kind = isServerError(seen) ? 'a server error' : `${seen.status}`;
    return serverError(seen, findingOf(code, [`${reason}: got ${seen.status} (${kind}), not ${legal.join(' or ')}`], expected, describeSeen(seen)));
  }
  return statusAsAsked(`${reason}: ${seen.status}${seen.status === 415 ? ' (sent without Content-Type: the usual answer to a body of no media type, legal beside the 400 createPet lists)' : ''}`, seen);
}

/** An invalid NewPet with readings, as sent (`body`), and what it got. */
export interface LenientCase extends InvalidCase {
  body: string | undefined;
  seen: Seen;
}

/**
 * Spellings the interface does not describe that still describe a NewPet: JSON5 and forgiving
 * parsers' syntax (a trailing comma, single quotes, unquoted keys, comments, data after the object,
 * control characters in a string, integers written 01, +1, 1. or 0x10), and a null status, which is
 * no PetStatus but which many clients and validators read as none. Refused is the interface's
 * reading; created as the NewPet they spell is a lenient one (JSON5 parsers, nullable fields),
 * legal beside it but not what the interface describes: a `should`. Code: read-leniently. Values
 * of another type or outside the enum ("12", "SOLD", 42: `coerced` cases) are not judged here: the
 * interface calls them invalid, and create-pet.invalid-rejected fails them. Any other 2xx is
 * create-pet.invalid-rejected's too (an animal the body does not describe).
 */
export function judgeLenientInput(cases: readonly LenientCase[]): Finding {
  const judged = cases.filter((c) => c.readings && c.readings.length > 0 && !c.coerced);
  if (judged.length === 0) return skip('no invalid NewPet whose reading the interface does not describe (JSON5 syntax, a null status) was sent');
  const lenient = judged.flatMap((c) => {
    const pet = isAccepted(c.seen) ? readPet(c.seen).value : undefined;
    const reading = pet && readingCreated(c, pet);
    return pet && reading ? [{ c, pet, reading }] : [];
  });
  const expected = '400 with an Error body for each: a NewPet is JSON (RFC 8259, not JSON5) whose status, when given, is one of the PetStatus values, not null';
  if (lenient.length > 0) {
    const named = lenient.slice(0, 5).map(({ c, pet }) => `${c.reason} (${quoted(c.body)}) as pet ${pet.id}`);
    const more = lenient.length > named.length ? `, and ${lenient.length - named.length} more` : '';
    return fail(
      'read-leniently',
      `${lenient.length} of ${judged.length} spellings the interface does not describe were accepted as the NewPet they spell: ${named.join('; ')}${more}`,
      expected,
      lenient.slice(0, 5).map(({ c, reading }) => `${c.seen.status} ${describeNewPet(reading)}`).join('; '),
    );
  }
  const byStatus = new Map<number, number>();
  for (const c of judged) byStatus.set(c.seen.status, (byStatus.get(c.seen.status) ?? 0) + 1);
  const statuses = [...byStatus].map(([status, n]) => `${status} ×${n}`).join(', ');
  const other = judged.filter((c) => isAccepted(c.seen)).length;
  return pass(`${judged.length} spelling${judged.length === 1 ? '' : 's'} the interface does not describe that still describe${judged.length === 1 ? 's' : ''} a NewPet, none created as it: ${statuses}${other > 0 ? ` (${other} accepted as another animal: create-pet.invalid-rejected's)` : ''}`);
}

/** What a NewPet at an edge of its fields is, as the checks need it (see boundaryNewPet). */
export interface BoundaryCase {
  pet: NewPet;
  /** The edge, e.g. "name of 10,000 characters". */
  reason: string;
  /** Statuses besides 201 that are legal for it (with an Error body); empty: it must be created. */
  mayRefuseWith: readonly number[];
}

/**
 * A NewPet at an edge: 201 with the Pet exactly as sent, or one of the refusals its edge allows.
 * Never a 5xx, never another status, never a Pet changed on the way (a name normalised, trimmed
 * or cut; a categoryId read as another number). Codes: server-error; not-201 (an edge that must be
 * created, refused); unexpected-status (neither 201 nor an allowed refusal); for a 201, readPet's
 * (invalid-pet, empty-body, …) and echoProblems' (name-not-echoed, …). An allowed refusal's
 * Error body is errors.error-body's (statusAsAsked).
 */
export function judgeBoundary(c: BoundaryCase, seen: Seen): Finding {
  const refusals = c.mayRefuseWith.length > 0 ? `, or ${c.mayRefuseWith.join(' or ')} with an Error body` : '';
  const expected = `201 with the Pet exactly as sent (${c.reason})${refusals}`;
  if (seen.status === 201) {
    const { value, problems } = readPet(seen);
    if (!value) return findingOfProblems(saidOf(c.reason, problems), expected, describeSeen(seen));
    const changed = [...namePatch(c.pet.name, value.name), ...echoProblems({ ...c.pet, name: value.name }, value)];
    return findingOfProblems(saidOf(c.reason, changed), expected, describeSeen(seen));
  }
  if (c.mayRefuseWith.includes(seen.status)) return statusAsAsked(`${c.reason}: refused with ${seen.status}`, seen);
  const code = isServerError(seen) ? 'server-error' : c.mayRefuseWith.length === 0 ? 'not-201' : 'unexpected-status';
  const kind = isServerError(seen) ? 'a server error' : c.mayRefuseWith.length === 0 ? 'a valid NewPet not created' : `neither 201 nor ${c.mayRefuseWith.join(' or ')}`;
  return serverError(seen, findingOf(code, [`${c.reason}: got ${seen.status} (${kind})`], expected, describeSeen(seen)));
}

/** How a name came back changed, without quoting thousands of characters. Code: name-not-echoed. */
function namePatch(sent: string, got: string): Problem[] {
  if (got === sent) return [];
  const short = 60;
  if (sent.length <= short && got.length <= short) return [problem('name-not-echoed', `name ${JSON.stringify(got)} is not the ${JSON.stringify(sent)} sent`)];
  let i = 0;
  while (i < sent.length && i < got.length && sent[i] === got[i]) i++;
  const at = (text: string) => JSON.stringify(text.slice(i, i + 16));
  return [problem('name-not-echoed', `a name of ${sent.length} UTF-16 code units came back with ${got.length}, differing from index ${i} (sent ${at(sent)}, got ${at(got)})`)];
}

/**
 * After POSTing a NewPet carrying `id` = an existing animal's id. Codes: took-existing-id,
 * neither-created-nor-rejected, existing-gone, and existing-… of sameAnimalProblems' (existing-name-differs, …).
 */
export function judgeBodyId(existing: Pet, createSeen: Seen, existingAfter: Seen): Finding {
  const problems: Problem[] = [];
  if (createSeen.status === 201) {
    const { value } = readPet(createSeen);
    if (value && value.id === existing.id) problems.push(problem('took-existing-id', `the new animal took id ${existing.id}, given in the body and already used`));
  } else if (isServerError(createSeen) || createSeen.status < 400) {
    problems.push(problem('neither-created-nor-rejected', `POST with an id got ${createSeen.status}: neither created (201) nor rejected (4xx)`));
  }
  if (existingAfter.status !== 200) problems.push(problem('existing-gone', `the existing animal ${existing.id} is gone after the POST (getPet: ${existingAfter.status})`));
  else {
    const { value } = readPet(existingAfter);
    if (value) problems.push(...saidOf('existing animal changed', recoded('existing', sameAnimalProblems(existing, value))));
  }
  return findingOfProblems(problems, `the existing animal ${describePet(existing)} untouched, and any new one with another id`, describeSeen(createSeen));
}

export function describeNewPet(p: NewPet): string {
  return `{ name: ${JSON.stringify(p.name)}, categoryId: ${p.categoryId}${p.status ? `, status: ${p.status}` : ''} }`;
}

export function describePet(p: Pet): string {
  return `{ id: ${p.id}, name: ${JSON.stringify(p.name)}, categoryId: ${p.categoryId}${p.status ? `, status: ${p.status}` : ''} }`;
}

/** Unknown extra fields: ignoring and rejecting them are both legal; what happened is recorded. */
export function describeExtraFields(extra: readonly string[], seen: Seen): Finding {
  if (seen.status === 201) return pass(`ignored: 201 for a NewPet with ${extra.join(', ')}`);
  if (seen.status === 400) return pass('rejected: 400');
  return pass(`answered ${seen.status} (neither ignored with 201 nor rejected with 400)`);
}

/** The status of an animal created without one ("not shown"): recorded; the creation itself must work. Code: not-created. */
export function describeStatusDefault(seen: Seen): Finding {
  const { value } = readPet(seen);
  if (seen.status !== 201 || !value) return fail('not-created', `a NewPet without status was not created: ${seen.status}`, '201', seen.text.slice(0, 200));
  if (value.status !== undefined) return pass(`the Pet comes back with status "${value.status}"`);
  // A null status reads as none (models.ts); which spelling of none was seen is said.
  const raw = tryParseJson(seen.text);
  const written = raw.ok && typeof raw.value === 'object' && raw.value !== null && 'status' in raw.value ? 'with "status": null' : 'without status';
  return pass(`the Pet comes back ${written}`);
}

/** What the run's read-backs of what it wrote saw so far (lib/suite-kit/read-back.ts). */
export interface ReadLagSeen {
  /** Read-backs made (each one or more reads). */
  reads: number;
  /** Of those, how many saw the write only after waiting. */
  waited: number;
  /** The longest a read-back waited before it saw the write, ms from its first read to the read that saw it (0: none waited). */
  largestMs: number;
  /** In that read-back, when the last read that did not see it was made, ms from its first read: the lag lies between the two. */
  largestNotYetMs: number;
  /** Read-backs that never saw the write within the bound: their checks judged the last answer. */
  gaveUp: number;
  /**
   * Read-backs that did not wait at all, the write not seen: once one gave up while none has seen
   * a write late, the store loses writes rather than lags them, and waiting would cost the bound on
   * every case (a property's shrinking repeats the failing one).
   */
  notWaited: number;
  /** The bound of a read-back, ms. */
  boundMs: number;
}

/**
 * What the run's read-backs saw of read-after-write (lib/suite-kit/read-back.ts): every write
 * visible at once, or how many read-backs waited and the largest lag seen. The interface says
 * nothing of it, so this never fails; a write never seen within the bound is its own check's failure.
 */
export function describeReadLag(seen: ReadLagSeen): Finding {
  const { reads, waited, largestMs, largestNotYetMs, gaveUp, notWaited, boundMs } = seen;
  if (reads === 0) return skip('nothing the run wrote was read back so far');
  const readBacks = `${reads} read-back${reads === 1 ? '' : 's'} of what the run wrote`;
  const notSeen =
    (gaveUp > 0 ? `; ${gaveUp} never saw the write within ${boundMs} ms (judged by ${gaveUp === 1 ? 'its check' : 'their checks'})` : '') +
    (notWaited > 0 ? `; ${notWaited} more not seen were not waited for (a write lost, none seen late: the store loses writes rather than lags them)` : '');
  if (waited === 0) return pass(`${readBacks}: every write was visible at once${notSeen}`);
  return pass(
    `${readBacks}: ${waited} saw the write only after waiting; the largest lag seen: not visible ${largestNotYetMs} ms after the first read, visible ${largestMs} ms after it ` +
      `(reads wait up to ${boundMs} ms; the interface says nothing of read-after-write)${notSeen}`,
  );
}

/**
 * What a body that is not one NewPet as a JSON object holds: an array of NewPets, a NewPet wrapped
 * in an object ({"pet": …}, {"data": …}), a NewPet form-encoded, a NewPet's JSON labelled text/plain.
 */
export type BodyShape = 'array' | 'wrapper' | 'form' | 'text';

export interface ShapeCase {
  /** What was sent, e.g. "an array of one NewPet". */
  shape: string;
  kind: BodyShape;
  /** Under another media type (form, text): its Content-Type, and the NewPet the body describes read as that type. */
  mediaType?: string;
  describes?: NewPet;
  seen: Seen;
}

/** Shapes sent with another Content-Type than application/json: 415 is the usual HTTP answer, a second legal reading. */
const OTHER_MEDIA_TYPE: ReadonlySet<BodyShape> = new Set(['form', 'text']);

/** "as pet 42", "as pets 42, 43", or nothing when the body names no animal. */
function createdAs(seen: Seen): string {
  const one = readPet(seen).value;
  if (one) return ` as pet ${one.id}`;
  const many = readPets(seen).value;
  return many && many.length > 0 ? ` as pet${many.length > 1 ? 's' : ''} ${many.map((p) => p.id).join(', ')}` : '';
}

/**
 * "A body that is not one JSON object" gets 400 with an Error body (415 also legal for another
 * Content-Type). A JSON body that is not one NewPet (an array, a wrapper) creates nothing: accepted,
 * the animal created is no NewPet the body is. A NewPet under another media type that is accepted
 * passes when the animal created is the NewPet the body describes (its JSON as text/plain; its
 * fields as a form, categoryId read from decimal digits): reading another media type is no statement
 * broken, and create-pet.media-type (`should`) judges it; another animal fails. Codes:
 * array-accepted, wrapper-accepted (a 2xx), other-media-type-misread; server-error; not-400. A
 * refusal's Error body is errors.error-body's (statusAsAsked).
 */
export function judgeOneNewPetCase(c: ShapeCase): Finding {
  const legal = OTHER_MEDIA_TYPE.has(c.kind) ? [400, 415] : [400];
  const expected = OTHER_MEDIA_TYPE.has(c.kind)
    ? `${legal.join(' or ')} with an Error body, or the NewPet it describes created${c.describes ? ` (${describeNewPet(c.describes)})` : ''}: ${c.shape} is not a NewPet as application/json`
    : `${legal.join(' or ')} with an Error body: ${c.shape} is not one NewPet as a JSON object, and nothing is created`;
  const { status } = c.seen;
  if (isAccepted({ status })) {
    if (!OTHER_MEDIA_TYPE.has(c.kind)) return fail(`${c.kind}-accepted`, `${c.shape} was accepted${createdAs(c.seen)} (${status})`, expected, describeSeen(c.seen));
    const pet = readPet(c.seen).value;
    if (pet && c.describes && echoProblems(c.describes, pet).length > 0) {
      return fail('other-media-type-misread', `${c.shape} was accepted as ${describePet(pet)} (${status}), not the NewPet it describes, ${describeNewPet(c.describes)}`, expected, describeSeen(c.seen));
    }
    return pass(`${c.shape} was accepted${pet ? ` as pet ${pet.id}, the NewPet it describes` : ', no Pet in the answer to compare'} (${status}): create-pet.media-type judges the media type`);
  }
  if (isServerError(status)) return serverError(c.seen, fail('server-error', `${c.shape} got ${status} (a server error), not ${legal.join(' or ')}`, expected, describeSeen(c.seen)));
  if (!legal.includes(status)) return fail('not-400', `${c.shape} got ${status}, not ${legal.join(' or ')}`, expected, describeSeen(c.seen));
  return statusAsAsked(`${c.shape}: ${status}`, c.seen);
}

/** Every shape refused, or read as what it describes; the pass says which answered 415, the second reading, and which were accepted. */
function judgeOneNewPet(cases: readonly ShapeCase[]): Finding {
  if (cases.length === 0) return skip('nothing was sent to judge');
  for (const c of cases) {
    const finding = judgeOneNewPetCase(c);
    if (finding.outcome !== 'pass') return finding;
  }
  const created = cases.filter((c) => isAccepted(c.seen));
  const refused = cases.filter((c) => !isAccepted(c.seen));
  const with415 = refused.filter((c) => c.seen.status === 415).map((c) => c.shape);
  const refusals = `${refused.length} bodies refused, none created: ${with415.length === 0 ? 'each with 400' : `415 seen for ${with415.join(', ')} (the usual answer to another Content-Type, legal beside the 400 createPet lists); 400 for the rest`}`;
  return pass(created.length === 0 ? refusals : `${refusals}; ${created.map((c) => `${c.shape} created${createdAs(c.seen)}`).join(', ')}, the NewPet it describes (create-pet.media-type judges the media type)`);
}

const oneNewPetJudge: EachCase<ShapeCase> = Object.assign(judgeOneNewPet, { one: judgeOneNewPetCase });

/**
 * createPet takes a NewPet "as application/json": a NewPet under another media type (form
 * encoding, text/plain) accepted is a reading the interface does not describe, though it breaks no
 * statement when the animal is the one the body describes (create-pet.one-new-pet judges that): a
 * `should`. It judges the answers create-pet.one-new-pet got. Code: other-media-type-accepted.
 */
export function judgeMediaType(cases: readonly ShapeCase[]): Finding {
  const judged = cases.filter((c) => OTHER_MEDIA_TYPE.has(c.kind));
  if (judged.length === 0) return skip('no NewPet was sent under another media type (create-pet.one-new-pet sends them first, unless writes are not allowed)');
  const typeOf = (c: ShapeCase) => c.mediaType ?? c.shape;
  const created = judged.filter((c) => isAccepted(c.seen));
  if (created.length > 0) {
    const named = created.map((c) => {
      const pet = readPet(c.seen).value;
      return `${typeOf(c)} (${pet ? `pet ${pet.id}` : `${c.seen.status}, no Pet in the answer`})`;
    });
    const finding = fail('other-media-type-accepted', `a NewPet under another media type than application/json was accepted: ${named.join(', ')}`, '400 or 415 with an Error body: createPet takes a NewPet "as application/json"', created.map((c) => `${typeOf(c)}: ${describeSeen(c.seen)}`).join('; '));
    // Read as another animal: create-pet.one-new-pet's must failure, shown as the root.
    return created.some((c) => judgeOneNewPetCase(c).outcome === 'fail') ? explainedBy(finding, 'create-pet.one-new-pet') : finding;
  }
  return pass(`refused: ${judged.map((c) => `${typeOf(c)} ${c.seen.status}`).join(', ')}`);
}

export const created = defineCheck({ id: 'create-pet.created', clause, suite, title: 'A valid NewPet gets 201 and the created Pet, with an int64 id', severity: 'must', judge: (seen: Seen) => judgeCreated(seen).finding });
export const echo = defineCheck({ id: 'create-pet.echo', explainedBy: ['create-pet.created'], clause, suite, title: 'The created Pet repeats name, categoryId and status exactly as sent', severity: 'must', judge: judgeEcho });
export const newId = defineCheck({ id: 'create-pet.new-id', explainedBy: ['create-pet.created'], clause: petClause, suite, title: 'Each created animal gets an id no animal seen before has', severity: 'must', judge: judgeNewId });
export const persisted = defineCheck({ id: 'create-pet.persisted', explainedBy: ['create-pet.created'], clause, suite, title: 'A created animal is returned unchanged by getPet', severity: 'must', judge: judgePersisted });
export const invalidRejected = defineCheck({ id: 'create-pet.invalid-rejected', clause, suite, title: 'An invalid NewPet gets 400 with an Error body, never a 5xx; never creates an animal the body does not describe, nor one read from a value of another type or outside the enum ("12" for a categoryId, "SOLD" or " available" for a status, 42 for a name); one read from JSON5 or a null status is create-pet.lenient-input\'s', severity: 'must', judge: judgeInvalidRejected });
export const bodyIdIgnored = defineCheck({ id: 'create-pet.body-id-ignored', explainedBy: ['create-pet.created', 'create-pet.persisted'], clause: petClause, suite, title: 'An id in the NewPet neither chooses the id nor overwrites an existing animal', severity: 'must', judge: judgeBodyId });
export const extraFields = defineCheck({ id: 'create-pet.extra-fields', clause, suite, title: 'Unknown extra fields in a NewPet: ignored or rejected (both legal), recorded', severity: 'info', judge: describeExtraFields });
export const boundaries = defineCheck({
  id: 'create-pet.boundaries',
  explainedBy: ['create-pet.created', 'create-pet.echo'],
  clause: 'Resources and their fields / NewPet',
  suite,
  title: 'NewPets at the edges of name and categoryId (empty to 10,000 characters, astral, combining, control; 1.0, 1e2, -0) are created exactly, or refused with 400 where the interface leaves room; never a 5xx',
  severity: 'must',
  judge: judgeBoundary,
});
export const oneNewPet = defineCheck({
  id: 'create-pet.one-new-pet',
  clause,
  suite,
  title: 'A body that is not one NewPet as a JSON object (an array of NewPets, a NewPet wrapped in {"pet": …} or {"data": …}) gets 400 with an Error body and creates nothing; a NewPet under another media type (form encoding, text/plain) is refused (400 or 415) or creates the NewPet it describes, never another animal',
  severity: 'must',
  judge: oneNewPetJudge,
});
export const mediaType = defineCheck({
  id: 'create-pet.media-type',
  clause,
  suite,
  title: 'A NewPet under another media type than application/json (form encoding, text/plain) is refused with 400 or 415, not read as a NewPet',
  severity: 'should',
  standard: 'RFC 9110 §8.3: Content-Type names the body\'s media type, so a body labelled otherwise is not the NewPet `as application/json` (415, §15.5.16)',
  judge: judgeMediaType,
});
export const lenientInput = defineCheck({
  id: 'create-pet.lenient-input',
  clause: 'Resources and their fields / NewPet',
  suite,
  title: 'Spellings of a NewPet the interface does not describe (JSON5 or a forgiving parser\'s syntax: a trailing comma, single quotes, comments, data after the object; a null status, no PetStatus but read as none by many clients) are refused with 400, not read as the NewPet they spell',
  severity: 'should',
  standard: 'RFC 8259 (JSON5 spellings are not JSON text) and PetStatus, which has no null value (read as none by many clients)',
  judge: judgeLenientInput,
});
export const statusDefault = defineCheck({ id: 'create-pet.status-default', explainedBy: ['create-pet.created'], clause: 'States and transitions', suite, title: 'The status of an animal created without one ("not shown"), recorded', severity: 'info', judge: describeStatusDefault });
export const readAfterWriteLag = defineCheck({
  id: 'create-pet.read-after-write-lag',
  clause: 'States and transitions',
  suite,
  title: 'How long after createPet an animal is visible to getPet and listPets (read-after-write is not described), recorded: read-backs wait up to 2 s',
  severity: 'info',
  judge: describeReadLag,
});

export const CREATE_PET_CHECKS = [created, echo, newId, persisted, invalidRejected, lenientInput, boundaries, bodyIdIgnored, extraFields, oneNewPet, mediaType, statusDefault, readAfterWriteLag] as const;
