// Entry point of `npm run conformance`: parses the command line, runs the engine, prints the
// summary. Maps the harness's own errors to exit statuses and keeps stack traces for real bugs.
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { HarnessError, EXIT } from '../errors.ts';
import { COLOUR, PLAIN, renderSummary, verdictLine } from '../report/console.ts';
import { renderAnnotations, renderJobSummary } from '../report/github.ts';
import type { Report } from '../result/model.ts';
import { runConformance } from '../runner/run.ts';
import { HELP, parseCli } from './args.ts';
import { renderCheckList } from './list-checks.ts';

/**
 * On GitHub Actions (GITHUB_STEP_SUMMARY set): the job summary, appended to that file, and one
 * `::error` annotation per root failure. A summary that cannot be written is a warning, not a
 * failure of the run.
 */
function writeGithubOutput(report: Report, reportDir: string): void {
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (!summaryFile) return;
  try {
    appendFileSync(summaryFile, renderJobSummary(report, reportDir));
  } catch (err) {
    process.stderr.write(`warning: could not write the job summary to GITHUB_STEP_SUMMARY (${summaryFile}): ${err instanceof Error ? err.message : String(err)}\n`);
  }
  for (const line of renderAnnotations(report)) process.stdout.write(`${line}\n`);
}

async function main(argv: string[]): Promise<number> {
  const style = process.stdout.isTTY === true && !process.env.NO_COLOR ? COLOUR : PLAIN;
  try {
    const args = parseCli(argv);
    if (args.help) {
      process.stdout.write(HELP);
      return EXIT.conformant;
    }
    if (args.listChecks) {
      process.stdout.write(renderCheckList(args.json));
      return EXIT.conformant;
    }
    const outcome = await runConformance(args, {
      progress: (line) => {
        if (!args.quiet) process.stdout.write(`${line}\n`);
      },
      interrupted: (line) => process.stderr.write(`${line}\n`),
      style,
    });
    const files = outcome.files.map((f) => path.relative(process.cwd(), f) || f);
    process.stdout.write(`${args.quiet ? verdictLine(outcome.report, style) : renderSummary(outcome.report, files, style)}\n`);
    writeGithubOutput(outcome.report, path.relative(process.cwd(), outcome.reportDir) || outcome.reportDir);
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
