// The freedoms the interface leaves a server, as families: what a conforming server may do
// otherwise than the reference, and the clause (or the silence) that leaves it free. The harness
// meets each family's members composed with other families' (targets/reference/families.ts,
// `npm run verify:legal`): no `must` may fail on any combination. A `must` names the families it
// was judged against (define.ts `judgedAgainst`).
//
// Pure data: the members (the reference's legal variations) live with the reference server.

export interface ServerFamily {
  readonly id: string;
  readonly title: string;
  /** The clause of the interface, or its silence, that leaves the freedom. */
  readonly clause: string;
}

export const SERVER_FAMILIES = [
  {
    id: 'representation',
    title: 'How a JSON answer is written',
    clause:
      '"Pet has all fields of NewPet plus id" and Error has code, message and status: other members are not forbidden; JSON (RFC 8259) leaves member order, whitespace and string escapes free; "id … int64, assigned by the service" (any int64, negative or near 2^63); `charset=utf-8` or none on application/json; the order of Pets and the status stored when none is given are not shown',
  },
  {
    id: 'http',
    title: 'Every form of HTTP/1.1 a server may choose',
    clause:
      'the interface names HTTP only: RFC 9112 §6 frames a body by Content-Length, chunks or the connection\'s close; RFC 9110 §12.5.3 allows any content coding when none is asked for; §15.2 interim 1xx answers; connections kept or closed (RFC 9112 §9); response times are not given',
  },
  {
    id: 'time',
    title: 'Concurrency and time',
    clause:
      'the order of answers on different connections, server clocks (a Date a second off per instance), deployment behind one address, and read-after-write are not given',
  },
  {
    id: 'rate-limits',
    title: 'How a limiter counts and tells',
    clause:
      'the kind of window, whether refused requests count, which window X-RateLimit-* describe ("the applicable request limit"), how Reset is rounded, "Format and unit of Retry-After: not shown", "The body of a 429 response: not shown", "Length of a temporary ban: not shown"',
  },
  {
    id: 'routing',
    title: 'Routing and refusal of what no operation describes',
    clause:
      'only the three operations are described: other paths, methods (404, 405, 501, RFC 9110 §9.1), other spellings of a path (case, trailing slash, empty, dot and encoded segments, path parameters), preflights (OPTIONS), HEAD, unknown query parameters and an Accept without JSON may be refused, redirected or served as their canonical request',
  },
  {
    id: 'validation',
    title: 'Where the interface leaves room in reading a request',
    clause:
      '"400 | Error (required fields missing or values invalid)" names no order of work and no other status: a body parser before authentication, 415 for another media type, a limit clamped or refused, a non-numeric petId 404, extra NewPet fields refused, duplicate members (RFC 8259 §4)',
  },
  {
    id: 'headers',
    title: 'Headers the interface does not name, and the forms of those it names',
    clause:
      'cookies, Cache-Control (none shareable with requests without a key, RFC 9111 §3.5), an absolute or relative Location, Deprecation in RFC 9745\'s form and Sunset at any hour of 5 December 2030',
  },
  {
    id: 'lenient-input',
    title: 'Input the interface does not describe, read leniently (should failures, each naming its standard)',
    clause:
      'other spellings of the credential (RFC 6750 §2.1), a null status (PetStatus has no null), a listPets filter in another case or unknown: not described, so read as a `should`',
  },
] as const satisfies readonly ServerFamily[];

export type ServerFamilyId = (typeof SERVER_FAMILIES)[number]['id'];

export const SERVER_FAMILY_IDS: readonly ServerFamilyId[] = SERVER_FAMILIES.map((f) => f.id);
