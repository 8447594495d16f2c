// `npm run serve` and `animal-store-conformance serve`: runs the reference server from a YAML
// config until SIGTERM or SIGINT.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadServerConfig, ServerConfigError, type ServerConfig } from './config.ts';
import { FAULT_IDS, isFaultId } from './faults.ts';
import { startReferenceServer } from './server.ts';
import { VARIATION_IDS, isVariationId } from './variations.ts';

const USAGE = `Usage: animal-store-conformance serve [--config FILE] [--port N] [--host H] [--fault NAME ...]
                                     [--variation NAME ...] [--help]
       (in this repository: npm run serve -- [options])

Runs the Animal Store reference server.

  --config FILE   server config (default: targets/reference/server.yaml); "local" is the
                  bundled targets/reference/local.server.yaml (5 s and 60 s windows), the one
                  the harness's local target starts
  --port N        port to listen on; 0 picks a free one (default: PORT, then the config's port)
  --host H        address to listen on (default: the config's host)
  --fault NAME    switch on a fault from the catalogue (repeatable); see targets/reference/README.md
  --variation NAME
                  switch on a legal variation (repeatable); see targets/reference/README.md
  --help          show this text

Faults: ${FAULT_IDS.join(', ')}

Variations: ${VARIATION_IDS.join(', ')}`;

const DEFAULT_CONFIG = fileURLToPath(new URL('./server.yaml', import.meta.url));
/** Configs shipped with the server, by name (`--config local`): found wherever it is installed. */
const BUNDLED_CONFIGS: Readonly<Record<string, string>> = { local: fileURLToPath(new URL('./local.server.yaml', import.meta.url)) };

class UsageError extends Error {}

function parsePort(text: string, name: string): number {
  const port = /^[0-9]{1,5}$/.test(text.trim()) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new UsageError(`${name}: must be a port number from 0 to 65535, got ${JSON.stringify(text)}`);
  }
  return port;
}

async function configure(argv: string[]): Promise<ServerConfig | undefined> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        config: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        fault: { type: 'string', multiple: true },
        variation: { type: 'string', multiple: true },
        help: { type: 'boolean' },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) return undefined;

  const config = await loadServerConfig(values.config === undefined ? DEFAULT_CONFIG : (BUNDLED_CONFIGS[values.config] ?? values.config));
  const extraFaults = values.fault ?? [];
  for (const name of extraFaults) {
    if (!isFaultId(name)) {
      throw new UsageError(`--fault: unknown fault ${JSON.stringify(name)}; valid faults: ${FAULT_IDS.join(', ')}`);
    }
  }
  const extraVariations = values.variation ?? [];
  for (const name of extraVariations) {
    if (!isVariationId(name)) {
      throw new UsageError(`--variation: unknown variation ${JSON.stringify(name)}; valid variations: ${VARIATION_IDS.join(', ')}`);
    }
  }
  if (values.host !== undefined && values.host.trim() === '') throw new UsageError('--host: must not be empty');
  const envPort = process.env.PORT;
  const port =
    values.port !== undefined
      ? parsePort(values.port, '--port')
      : envPort !== undefined && envPort !== ''
        ? parsePort(envPort, 'PORT')
        : config.port;
  return {
    ...config,
    port,
    host: values.host ?? config.host,
    faults: [...new Set([...config.faults, ...extraFaults.filter(isFaultId)])],
    variations: [...new Set([...config.variations, ...extraVariations.filter(isVariationId)])],
  };
}

/** Starts the server as the command line `argv` says, and stops it on SIGTERM or SIGINT. */
export async function serve(argv: string[]): Promise<void> {
  let config: ServerConfig | undefined;
  try {
    config = await configure(argv);
  } catch (err) {
    if (err instanceof UsageError || err instanceof ServerConfigError) {
      console.error(`reference server: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  if (config === undefined) {
    console.log(USAGE);
    return;
  }

  let server;
  try {
    server = await startReferenceServer(config);
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    console.error(`reference server: cannot listen on ${config.host}:${config.port}: ${reason}`);
    process.exit(1);
  }

  let stopping = false;
  const stop = (): void => {
    // A second signal while closing does not wait any longer.
    if (stopping) process.exit(0);
    stopping = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  // Printed only once the signal handlers are in place: whoever waits for this line may stop us.
  console.log(`Animal Store reference server listening on ${server.baseUrl}`);
  console.log(`keys: ${server.clients.map((c) => `${c.label} (${c.plan})`).join(', ')}`);
  console.log(`windows: minute ${server.windows.minute} s, day ${server.windows.day} s`);
  console.log(`faults: ${server.faults.length > 0 ? server.faults.join(', ') : 'none'}`);
  console.log(`variations: ${server.variations.length > 0 ? server.variations.join(', ') : 'none'}`);
}

// Run directly (npm run serve): start at once.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await serve(process.argv.slice(2));
