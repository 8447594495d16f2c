// The published JSON Schema of report.json, generated from the zod model (never written by hand).
// Input mode leaves objects open (no additionalProperties: false), so reports that gain fields in
// later versions still validate against this schema: the contract grows only by extension.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { Report, REPORT_SCHEMA_VERSION } from './model.ts';

export const REPORT_SCHEMA_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'report.schema.json');

export function reportJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(Report, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
  return {
    $id: `https://animal-store.invalid/conformance/report-${REPORT_SCHEMA_VERSION}.schema.json`,
    title: 'Animal Store conformance report (report.json)',
    ...schema,
  };
}

export function reportJsonSchemaText(): string {
  return `${JSON.stringify(reportJsonSchema(), null, 2)}\n`;
}
