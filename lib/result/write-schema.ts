// `npm run schema`: regenerates lib/result/report.schema.json from the zod model.
import { writeFileSync } from 'node:fs';
import { REPORT_SCHEMA_FILE, reportJsonSchemaText } from './report-schema.ts';

writeFileSync(REPORT_SCHEMA_FILE, reportJsonSchemaText());
process.stdout.write(`wrote ${REPORT_SCHEMA_FILE}\n`);
