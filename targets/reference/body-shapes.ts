// How createPet reads the shape of its body: the media type it takes, and, for the faults of
// faults/bodies.ts, the shapes a careless handler takes for a NewPet (an array's first element,
// an envelope's content, a form). operations.ts asks these at its one hook point each.
import type { Faults } from './faults.ts';
import { errorReply, JSON_TYPE, mediaType, type Reply } from './http.ts';
import type { Variations } from './variations.ts';

export const FORM_TYPE = 'application/x-www-form-urlencoded';

/** How the body is to be read, or the refusal of its media type. */
export type BodyFormat = { format: 'json' | 'form' } | { refuse: Reply };

/**
 * application/json is read as JSON; fault create-accepts-form reads a form too, variation
 * any-body-as-json reads any body as JSON whatever its Content-Type (as a handler that parses the
 * body itself does). Anything else is refused: 400 (the interface lists no 415), or with variation
 * media-type-415, 415 for a Content-Type that is not JSON or is missing.
 */
export function bodyFormat(contentType: string | undefined, faults: Faults, variations: Variations): BodyFormat {
  const type = mediaType(contentType);
  // Fault body-charset-415: the JSON parser is registered for the exact header value.
  if (faults.has('body-charset-415') && contentType !== undefined && contentType !== JSON_TYPE && type === JSON_TYPE) {
    return { refuse: errorReply(415, 'unsupported_media_type', `Content-Type ${contentType} is not supported: send application/json`) };
  }
  if (type === JSON_TYPE) return { format: 'json' };
  if (type === FORM_TYPE && faults.has('create-accepts-form')) return { format: 'form' };
  if (variations.has('any-body-as-json')) return { format: 'json' };
  if (variations.has('media-type-415')) {
    return { refuse: errorReply(415, 'unsupported_media_type', `${type === undefined ? 'a request without Content-Type' : `Content-Type ${type}`} is not supported: send the NewPet as application/json`) };
  }
  return { refuse: errorReply(400, 'invalid_request', 'Content-Type must be application/json') };
}

/** Fault create-accepts-form: fields as strings, those of decimal digits as integers (as a coercing form parser would). */
export function parseForm(text: string): { ok: true; value: unknown } {
  const value: Record<string, unknown> = {};
  for (const [name, field] of new URLSearchParams(text)) value[name] = /^-?[0-9]+$/.test(field) ? BigInt(field) : field;
  return { ok: true, value };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What a careless handler takes for the NewPet: fault create-accepts-array an array's first
 * element, fault create-unwraps-body the object under `pet` or `data` of a body that has no `name`.
 */
export function newPetOf(body: unknown, faults: Faults): unknown {
  if (Array.isArray(body) && faults.has('create-accepts-array')) return body[0];
  if (isObject(body) && !Object.hasOwn(body, 'name') && faults.has('create-unwraps-body')) {
    const wrapped = body.pet ?? body.data;
    if (isObject(wrapped)) return wrapped;
  }
  return body;
}
