// openapi.yaml: generated from the models (lib/openapi.ts), committed as generated, and valid
// OpenAPI 3.1 by a maintained validator (@readme/openapi-parser).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../lib/config/load-target.ts';
import { OPENAPI_FILE, openApiDocument, openApiYaml } from '../../lib/openapi.ts';
import { runOpenApi } from '../../lib/cli/openapi.ts';
import { UsageError } from '../../lib/errors.ts';
import { OPERATIONS } from '../../lib/models.ts';

type Doc = { paths: Record<string, Record<string, { security?: unknown; responses: Record<string, { headers?: Record<string, unknown>; content?: unknown }>; deprecated?: boolean; 'x-sunset'?: string; parameters?: { name: string; schema: Record<string, unknown> }[] }>>; components: { schemas: Record<string, { required?: string[]; properties?: Record<string, unknown>; enum?: string[] }> } };

describe('openapi.yaml', () => {
  it('is what npm run openapi generates from the models', () => {
    const committed = readFileSync(path.join(PROJECT_ROOT, OPENAPI_FILE), 'utf8');
    expect(committed === openApiYaml(), `${OPENAPI_FILE} is not what the models give: run \`npm run openapi\` and commit it`).toBe(true);
  });

  it('is valid OpenAPI 3.1 by @readme/openapi-parser', async () => {
    const result = await validate(structuredClone(openApiDocument()) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.specification).toBe('OpenAPI');
    // The validator does refuse: a response without its description is no OpenAPI.
    const broken = structuredClone(openApiDocument()) as Doc & { paths: Record<string, Record<string, { responses: Record<string, { description?: string }> }>> };
    delete broken.paths['/pets']!.get!.responses['200']!.description;
    expect((await validate(broken as never)).valid).toBe(false);
  });

  it('describes the operations, the models, the credential and the rate-limit headers as the interface does', () => {
    const doc = parse(openApiYaml()) as Doc;
    for (const [id, op] of Object.entries(OPERATIONS)) {
      const o = doc.paths[op.path]![op.method.toLowerCase()]!;
      expect({ id, security: o.security }).toEqual({ id, security: [{ bearerAuth: [] }] });
      expect(Object.keys(o.responses).sort()).toEqual([...Object.keys(op.responses), '429'].sort());
      for (const r of Object.values(o.responses)) expect(Object.keys(r.headers ?? {})).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']));
      expect(o.responses['429']!.headers).toHaveProperty('Retry-After');
      expect(o.responses['429']!.content).toBeUndefined();
    }
    const getPet = doc.paths['/pets/{petId}']!.get!;
    expect({ deprecated: getPet.deprecated, sunset: getPet['x-sunset'], petId: getPet.parameters![0]!.schema }).toEqual({ deprecated: true, sunset: '2030-12-05', petId: { type: 'integer', format: 'int64' } });
    expect(doc.paths['/pets']!.get!.parameters!.find((p) => p.name === 'limit')!.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(doc.paths).toHaveProperty('/store/orders');
    const { schemas } = doc.components;
    expect(schemas.PetStatus!.enum).toEqual(['available', 'pending', 'sold']);
    expect({ newPet: schemas.NewPet!.required, pet: schemas.Pet!.required, error: schemas.Error!.required }).toEqual({ newPet: ['name', 'categoryId'], pet: ['name', 'categoryId', 'id'], error: ['code', 'message', 'status'] });
    expect(schemas.Pet!.properties!.id).toEqual({ type: 'integer', format: 'int64' });
  });
});

describe('animal-store-conformance openapi', () => {
  it('prints the document as YAML, or as JSON with --json, and refuses another option by name', () => {
    const out: string[] = [];
    expect(runOpenApi([], (t) => out.push(t))).toBe(0);
    expect(out[0]).toBe(openApiYaml());
    expect(runOpenApi(['--json'], (t) => out.push(t))).toBe(0);
    expect(JSON.parse(out[1]!)).toEqual(openApiDocument());
    expect(runOpenApi(['--help'], (t) => out.push(t))).toBe(0);
    expect(out[2]).toMatch(/^Usage: animal-store-conformance openapi \[--json\]/);
    expect(() => runOpenApi(['--yaml'], () => {})).toThrow(UsageError);
    expect(() => runOpenApi(['--yaml'], () => {})).toThrow(/openapi: Unknown option '--yaml'/);
  });
});
