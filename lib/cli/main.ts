#!/usr/bin/env node
// Entry point of `npm run conformance` and of the installed `animal-store-conformance` command:
// parses the command line, runs the engine, prints the summary. Maps the harness's own errors to
// exit statuses and keeps stack traces for real bugs. `--help` and `--version` load nothing but
// the argument parser; the engine (vitest, the transport, the checks) is imported only for a run.
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { HarnessError, EXIT } from '../errors.ts';
import { toolInfo } from '../paths.ts';
import type { Report } from '../result/model.ts';
import { HELP, MERGE_HELP, parseCli, parseMergeCli } from './args.ts';

/**
 * On GitHub Actions (GITHUB_STEP_SUMMARY set): the job summary, appended to that file, and one
 * `::error` annotation per root failure. A summary that cannot be written is a warning, not a
 * failure of the run.
 */
async function writeGithubOutput(report: Report, reportDir: string): Promise<void> {
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (!summaryFile) return;
  const { renderAnnotations, renderJobSummary } = await import('../report/github.ts');
  try {
    appendFileSync(summaryFile, renderJobSummary(report, reportDir));
  } catch (err) {
    process.stderr.write(`warning: could not write the job summary to GITHUB_STEP_SUMMARY (${summaryFile}): ${err instanceof Error ? err.message : String(err)}\n`);
  }
  for (const line of renderAnnotations(report)) process.stdout.write(`${line}\n`);
}

/** `merge DIR...`: the load segments' reports judged as one run. */
async function merge(argv: string[]): Promise<number> {
  const args = parseMergeCli(argv);
  if (args.help) {
    process.stdout.write(MERGE_HELP);
    return EXIT.conformant;
  }
  const [{ COLOUR, PLAIN, renderSummary, verdictLine }, { runMerge }] = await Promise.all([import('../report/console.ts'), import('./merge.ts')]);
  const style = process.stdout.isTTY === true && !process.env.NO_COLOR ? COLOUR : PLAIN;
  const outcome = runMerge(args);
  const files = outcome.files.map((f) => path.relative(process.cwd(), f) || f);
  if (!args.quiet) process.stdout.write(`Merged ${outcome.report.merged!.segments.length} load segments (${outcome.report.merged!.segments.map((s) => `${s.index}: ${s.requests} requests`).join(', ')})\n`);
  process.stdout.write(`${args.quiet ? verdictLine(outcome.report, style) : renderSummary(outcome.report, files, style)}\n`);
  await writeGithubOutput(outcome.report, path.relative(process.cwd(), outcome.reportDir) || outcome.reportDir);
  return outcome.exitCode;
}

async function main(argv: string[]): Promise<number> {
  try {
    if (argv[0] === 'merge') return await merge(argv.slice(1));
    if (argv[0] === 'openapi') {
      const { runOpenApi } = await import('./openapi.ts');
      return runOpenApi(argv.slice(1), (text) => process.stdout.write(text));
    }
    if (argv[0] === 'diff') {
      const { runDiff } = await import('./diff.ts');
      return runDiff(argv.slice(1), { write: (text) => process.stdout.write(text), isTTY: process.stdout.isTTY === true, noColor: Boolean(process.env.NO_COLOR) });
    }
    const args = parseCli(argv);
    if (args.help) {
      process.stdout.write(HELP);
      return EXIT.conformant;
    }
    if (args.version) {
      process.stdout.write(`${toolInfo().version}\n`);
      return EXIT.conformant;
    }
    if (args.listChecks) {
      const { checkListing, renderCheckList } = await import('./list-checks.ts');
      process.stdout.write(renderCheckList(args.json, await checkListing()));
      return EXIT.conformant;
    }
    const [{ COLOUR, PLAIN, renderSummary, verdictLine }, { runConformance }] = await Promise.all([import('../report/console.ts'), import('../runner/run.ts')]);
    const style = process.stdout.isTTY === true && !process.env.NO_COLOR ? COLOUR : PLAIN;
    if (args.replay) {
      const { runReplay } = await import('./replay.ts');
      const replayed = await runReplay(
        { ...args.replay, target: args.target, allowWrites: args.allowWrites, allowLoad: args.allowLoad, ...(args.maxRequests !== undefined ? { maxRequests: args.maxRequests } : {}), ...(args.reportDir !== undefined ? { reportDir: args.reportDir } : {}) },
        { progress: (line) => !args.quiet && process.stdout.write(`${line}\n`), interrupted: (line) => process.stderr.write(`${line}\n`), style },
      );
      process.stdout.write(`${(args.quiet ? replayed.lines.slice(-1) : replayed.lines).join('\n')}\n`);
      return replayed.exitCode;
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
    await writeGithubOutput(outcome.report, path.relative(process.cwd(), outcome.reportDir) || outcome.reportDir);
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

const argv = process.argv.slice(2);
if (argv[0] === 'serve') {
  // The bundled reference server, with its own options (`serve --help`); it runs until a signal.
  const { serve } = await import('../../targets/reference/main.ts');
  await serve(argv.slice(1));
} else {
  process.exitCode = await main(argv);
  // Vitest may keep handles open; the run is over.
  process.exit(process.exitCode);
}
