// `animal-store-conformance openapi [--json]`: the interface as OpenAPI 3.1 (lib/openapi.ts, the
// same document as the repository's openapi.yaml), on standard output, for a server team to take
// from the installed command.
import { parseArgs } from 'node:util';
import { EXIT, UsageError } from '../errors.ts';
import { openApiDocument, openApiYaml } from '../openapi.ts';

export const OPENAPI_HELP = `Usage: animal-store-conformance openapi [--json]

Prints the Animal Store interface as an OpenAPI 3.1 description, generated from the models the
checks use (YAML; --json for JSON). Quotas per plan, the day window and what X-RateLimit-Reset
means are not expressible in OpenAPI: only the harness judges them.
`;

export function runOpenApi(argv: readonly string[], write: (text: string) => void): number {
  let values: { json?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({ args: [...argv], options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, strict: true }));
  } catch (err) {
    throw new UsageError(`openapi: ${(err as Error).message}`);
  }
  if (values.help) write(OPENAPI_HELP);
  else write(values.json ? `${JSON.stringify(openApiDocument(), null, 2)}\n` : openApiYaml());
  return EXIT.conformant;
}
