// Writes openapi.yaml (OpenAPI 3.1) from the models (lib/openapi.ts). Run after changing a model
// or an operation:
//   npm run openapi
// test/unit/openapi.test.ts fails while the committed file and the models disagree.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../lib/config/load-target.ts';
import { OPENAPI_FILE, openApiYaml } from '../lib/openapi.ts';

writeFileSync(path.join(PROJECT_ROOT, OPENAPI_FILE), openApiYaml());
process.stdout.write(`openapi: wrote ${OPENAPI_FILE}\n`);
