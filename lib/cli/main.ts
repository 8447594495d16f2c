// Entry point of `npm run conformance`. Maps the harness's own errors to exit statuses and keeps
// stack traces for real bugs only.
import { HarnessError, EXIT } from '../errors.ts';
import { runConformance } from '../runner/run.ts';
import { HELP, parseCli } from './args.ts';

async function main(argv: string[]): Promise<number> {
  const useColour = process.stdout.isTTY === true && !process.env.NO_COLOR;
  try {
    const args = parseCli(argv);
    if (args.help) {
      process.stdout.write(HELP);
      return EXIT.conformant;
    }
    const outcome = await runConformance(args, {
      out: (text) => process.stdout.write(`${text}\n`),
      err: (text) => process.stderr.write(`${text}\n`),
      colour: useColour,
    });
    return outcome.exitCode;
  } catch (err) {
    if (err instanceof HarnessError) {
      process.stderr.write(`error: ${err.message}\n`);
      if (err.exitCode === EXIT.usage) process.stderr.write('Run with --help for usage.\n');
      return err.exitCode;
    }
    process.stderr.write(`internal error (a bug in the harness, please report it):\n${err instanceof Error ? err.stack : String(err)}\n`);
    return 70;
  }
}

process.exitCode = await main(process.argv.slice(2));
// Vitest and undici may keep handles open; the run is over.
process.exit(process.exitCode);
