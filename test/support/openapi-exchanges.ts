// A run's exchanges (exchanges.jsonl) against the OpenAPI description (lib/openapi.ts): each one
// of an operation the document describes, answered with a status that operation lists, must carry
// the body and the headers the document gives for it. Exchanges of no operation of the document
// (other paths and methods, other spellings of a path) and statuses it does not list (which the
// interface leaves open: a 400 for a limit out of range, say) are not the document's to judge.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { openApiDocument } from '../../lib/openapi.ts';

interface Exchanged {
  method: string;
  url: string;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody?: string;
}

type Operation = { operationId: string; responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }> };

export interface Mismatch {
  /** "listPets 200". */
  at: string;
  seq?: number;
  problem: string;
}

/** A checker of exchanges against the document, its base path (the servers end with /v1) taken off. */
export function exchangeChecker(basePath = '/v1') {
  const doc = openApiDocument() as { paths: Record<string, Record<string, Operation>>; components: Record<string, unknown> };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ $id: 'doc', components: doc.components });
  ajv.addFormat('int64', true);
  const templates = Object.keys(doc.paths).map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));
  const validators = new Map<unknown, ReturnType<Ajv2020['compile']>>();
  const validatorOf = (schema: unknown) => {
    let v = validators.get(schema);
    if (!v) validators.set(schema, (v = ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"doc#/components/')) as object)));
    return v;
  };

  let described = 0;
  /** Undefined when the document has nothing to say of the exchange or it matches. */
  const check = (e: Exchanged & { seq?: number }): Mismatch | undefined => {
    const url = new URL(e.url);
    if (!url.pathname.startsWith(`${basePath}/`)) return undefined;
    const path = url.pathname.slice(basePath.length);
    const template = templates.find((t) => t.pattern.test(path))?.template;
    const op = template ? doc.paths[template]![e.method.toLowerCase()] : undefined;
    const response = op?.responses[String(e.status)];
    if (!op || !response) return undefined;
    described += 1;
    const at = `${op.operationId} ${e.status}`;
    const headers = Object.fromEntries(Object.entries(e.responseHeaders).map(([k, v]) => [k.toLowerCase(), v]));
    const missing = Object.keys(response.headers ?? {}).filter((h) => headers[h.toLowerCase()] === undefined);
    if (missing.length > 0) return { at, ...(e.seq !== undefined ? { seq: e.seq } : {}), problem: `no ${missing.join(', ')}` };
    const schema = response.content?.['application/json']?.schema;
    if (schema === undefined) return undefined;
    let body: unknown;
    try {
      body = JSON.parse(e.responseBody ?? '');
    } catch {
      return { at, ...(e.seq !== undefined ? { seq: e.seq } : {}), problem: 'the body is not JSON' };
    }
    const validate = validatorOf(schema);
    return validate(body) ? undefined : { at, ...(e.seq !== undefined ? { seq: e.seq } : {}), problem: ajv.errorsText(validate.errors) };
  };
  /** How many exchanges checked so far the document describes (an operation and a status it lists). */
  return { check, described: () => described };
}
