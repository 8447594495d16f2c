import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REPORT_SCHEMA_FILE, reportJsonSchema, reportJsonSchemaText } from '../../../lib/result/report-schema.ts';

describe('the published JSON Schema of report.json', () => {
  it('is the one generated from the zod model (run `npm run schema` after changing the model)', () => {
    expect(readFileSync(REPORT_SCHEMA_FILE, 'utf8')).toBe(reportJsonSchemaText());
  });

  it('requires the fields DESIGN.md promises, and check severities and outcomes from the contract', () => {
    const schema = reportJsonSchema() as {
      required: string[];
      properties: { checks: { items: { required: string[]; properties: Record<string, { enum?: string[] }> } } };
    };
    expect(schema.required).toEqual(expect.arrayContaining(['schemaVersion', 'target', 'startedAt', 'finishedAt', 'seed', 'verdict', 'requests', 'checks']));
    const check = schema.properties.checks.items;
    expect(check.required).toEqual(expect.arrayContaining(['id', 'clause', 'title', 'severity', 'outcome', 'message', 'evidence']));
    expect(check.properties.severity?.enum).toEqual(['must', 'should', 'info']);
    expect(check.properties.outcome?.enum).toEqual(['pass', 'fail', 'skip', 'error']);
  });
});
