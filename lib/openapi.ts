// The interface as an OpenAPI 3.1 description, generated from the models the checks use
// (lib/models.ts: the fields of NewPet, Pet and Error, PetStatus, the page size, the operations and
// the bodies their responses list), so that it cannot drift from them. Pure: `npm run openapi`
// writes it to openapi.yaml (bench/openapi.ts). What the interface leaves "not shown" stays
// unconstrained here, and the descriptions say so; what OpenAPI cannot express (quotas per plan,
// the day window, what Reset means) only the harness judges.
import { stringify } from 'yaml';
import type { z } from 'zod';
import { CUSTOM_PLANS, PUBLISHED_PLANS } from './plans.ts';
import { ApiError, Int64, NewPet, OPERATIONS, PAGE_SIZE, PET_STATUSES, Pet, PetStatus, type ResponseBody } from './models.ts';

type Schema = Record<string, unknown>;

const INT64: Schema = { type: 'integer', format: 'int64' };

/** A field of a model as JSON Schema: the shared pieces by identity, the rest by kind. */
function fieldSchema(field: z.ZodType): Schema {
  const inner = unwrap(field);
  if (inner === Int64) return INT64;
  if (inner === PetStatus) return { $ref: '#/components/schemas/PetStatus' };
  const kind = (inner as { def?: { type?: string; check?: string } }).def?.type;
  if (kind === 'string') return { type: 'string' };
  if (kind === 'number') return { type: 'integer' };
  throw new Error(`openapi: no JSON Schema for a field of kind ${kind ?? 'unknown'}`);
}

/** The schema under optional, nullable and transforms (Pet's status is PetStatus, read leniently). */
function unwrap(field: z.ZodType): z.ZodType {
  let current = field as z.ZodType & { def?: { type?: string; innerType?: z.ZodType; in?: z.ZodType } };
  for (;;) {
    const def = current.def;
    if (def?.type === 'optional' || def?.type === 'nullable') current = def.innerType as typeof current;
    else if (def?.type === 'pipe' && current !== Int64) current = def.in as typeof current;
    else return current;
  }
}

const isOptional = (field: z.ZodType) => (field as { def?: { type?: string } }).def?.type === 'optional';

function objectSchema(shape: Record<string, z.ZodType>, description: string): Schema {
  const properties = Object.fromEntries(Object.entries(shape).map(([name, field]) => [name, fieldSchema(field)]));
  const required = Object.entries(shape).filter(([, field]) => !isOptional(field)).map(([name]) => name);
  return { type: 'object', description, required, properties };
}

const RATE_HEADERS = {
  'X-RateLimit-Limit': { description: 'The applicable request limit.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests remaining in the current window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix timestamp at which the limit resets.', schema: { type: 'integer' } },
} as const;

const rateHeaders = () => Object.fromEntries(Object.keys(RATE_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]));

const WHY: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'The created animal, with its assigned id',
  400: 'Required fields missing or values invalid',
  401: 'Missing or invalid API key',
  404: 'The animal could not be found',
};

function response(status: number, body: ResponseBody): Schema {
  return { description: WHY[status] ?? String(status), headers: rateHeaders(), content: { 'application/json': { schema: { $ref: `#/components/schemas/${body}` } } } };
}

/** 429 for every operation ("Errors"): its body is "not shown", so none is described. */
const TOO_MANY: Schema = {
  description: 'Rate limit exceeded (see Limits). The body of a 429 response: not shown. The client retries only after the time Retry-After indicates; a client that keeps sending may have its key temporarily banned (length not shown).',
  headers: { ...rateHeaders(), 'Retry-After': { description: 'When the client may retry. Format and unit: not shown.', schema: { type: 'string' } } },
};

const SUNSET = '2030-12-05';

/** "free 60 a minute and 1000 a day, …, enterprise custom": the plans' table. */
function planQuotas(): string {
  const published = Object.entries(PUBLISHED_PLANS).map(([plan, q]) => `${plan} ${q.perMinute} a minute and ${q.perDay} a day`);
  return [...published, ...CUSTOM_PLANS.map((plan) => `${plan} custom`)].join(', ');
}

function operation(id: keyof typeof OPERATIONS): Schema {
  const op = OPERATIONS[id];
  const responses: Record<string, Schema> = Object.fromEntries(Object.entries(op.responses).map(([status, body]) => [status, response(Number(status), body)]));
  responses['429'] = TOO_MANY;
  const base: Schema = { operationId: id, security: [{ bearerAuth: [] }], responses };
  if (id === 'listPets') {
    return {
      ...base,
      summary: 'Returns a paginated list of animals.',
      parameters: [
        { name: 'limit', in: 'query', required: false, description: 'Maximum number of animals returned.', schema: { type: 'integer', minimum: PAGE_SIZE.min, maximum: PAGE_SIZE.max, default: PAGE_SIZE.default } },
        { name: 'status', in: 'query', required: false, description: 'Filters by availability status.', schema: { $ref: '#/components/schemas/PetStatus' } },
      ],
    };
  }
  if (id === 'createPet') {
    return { ...base, summary: 'Adds an animal. `name` and `categoryId` are required.', requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } } } };
  }
  return {
    ...base,
    summary: 'Returns one animal.',
    description: `Deprecated, announced for removal on 5 December 2030. The replacement is \`GET /pets\` with the \`status\` filter.`,
    deprecated: true,
    'x-sunset': SUNSET,
    parameters: [{ name: 'petId', in: 'path', required: true, description: 'Identifier of the animal to retrieve.', schema: INT64 }],
  };
}

/** The whole description, as a plain object (YAML or JSON is the writer's choice). */
export function openApiDocument(): Schema {
  const paths: Record<string, Schema> = {};
  for (const id of Object.keys(OPERATIONS) as (keyof typeof OPERATIONS)[]) {
    const { method, path } = OPERATIONS[id];
    paths[path] = { ...(paths[path] ?? {}), [method.toLowerCase()]: operation(id) };
  }
  paths['/store/orders'] = {
    get: {
      operationId: 'listOrders',
      summary: 'Exists; its parameters and payloads are not shown.',
      security: [{ bearerAuth: [] }],
      responses: { '401': response(401, 'Error'), '429': TOO_MANY, default: { description: 'Not shown.', headers: rateHeaders() } },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Animal Store Service Interface',
      version: '1.0.0',
      description:
        'Generated from the models of animal-store-conformance (lib/models.ts) by `npm run openapi`; the interface itself is docs/interface.md. ' +
        'What the interface leaves "not shown" is left unconstrained here. Not expressible in OpenAPI, and judged by the harness only: the per-plan quotas ' +
        `(${planQuotas()}), the day window beside the minute, what X-RateLimit-Reset means, Retry-After honoured, and the temporary ban.`,
    },
    servers: [
      { url: '{base_url}', description: 'Production; ends with the path segment /v1.', variables: { base_url: { default: 'https://api.example.com/v1' } } },
      { url: '{staging_base_url}', description: 'Staging; ends with the path segment /v1.', variables: { staging_base_url: { default: 'https://staging.api.example.com/v1' } } },
    ],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>. How keys are issued or rotated: not shown.' } },
      headers: RATE_HEADERS,
      schemas: {
        PetStatus: { type: 'string', enum: [...PET_STATUSES], description: 'Availability status. Its value when omitted on creation: not shown.' },
        NewPet: objectSchema(NewPet.shape, 'Request body for creating an animal.'),
        Pet: objectSchema(Pet.shape, 'An animal as returned: all fields of NewPet plus id. Other members are not forbidden.'),
        Pets: { type: 'array', items: { $ref: '#/components/schemas/Pet' }, description: 'A JSON array of Pet.' },
        Error: objectSchema(ApiError.shape, 'Error body; status repeats the HTTP status code. The set of values code can take: not shown.'),
      },
    },
  };
}

/** Where the description is kept, from the project's root (shipped with the package). */
export const OPENAPI_FILE = 'openapi.yaml';

/** The description as openapi.yaml holds it. */
export function openApiYaml(): string {
  return `# Generated by \`npm run openapi\` from lib/models.ts (lib/openapi.ts): do not edit by hand.\n${stringify(openApiDocument(), { lineWidth: 0 })}`;
}
