// `animal-store-conformance diff BASE HEAD`: what changed between two runs' reports (the last
// release's and this one's). Reads the two report.json files (or the folders holding them), refuses
// reports of incompatible schema versions, compares them (lib/report/diff-model.ts) and prints or
// writes the comparison as text, Markdown, HTML or JSON. Exit 1 when what --fail-on names happened
// (by default: a root failure that blocks HEAD's verdict is new), 0 otherwise, 2 for usage errors.
// Reports hold no key, and nothing here adds one.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { EXIT, UsageError } from '../errors.ts';
import { Report } from '../result/model.ts';
import { COLOUR, PLAIN } from '../report/console.ts';
import { renderDiffText } from '../report/diff-console.ts';
import { renderDiffHtml } from '../report/diff-html.ts';
import { renderDiffMarkdown } from '../report/diff-markdown.ts';
import { type ComparableReport, diffReports, FAIL_ON, type FailOn, gateFails, incompatibility, verdictText } from '../report/diff-model.ts';
import { didYouMean } from '../util/suggest.ts';

export const DIFF_HELP = `Usage: animal-store-conformance diff BASE HEAD [--format text|markdown|html|json] [--out FILE]
                                    [--fail-on new-must|new-should|new-any|changed]
       (in this repository: npm run conformance -- diff BASE HEAD [options])

Compares two runs' reports: BASE (e.g. the last release's) and HEAD (this one's). Each is a
report.json or the report folder holding one. Checks are matched by id and subject (by id alone
where a check moved between a key's results and the run's); failures are grouped by root cause,
and only a root decides whether a group is new, fixed or still failing. Lists new failures, fixes,
failures still there, checks newly skipped, added, removed or of another severity, each key's
rate-limit facts (limiter, first 429, Retry-After honoured, the day) and the paced load's latency
and throughput with their change in percent. The first line says "N new failures, M fixed, K still
failing".

Options:
  --format F      text (default; coloured on a terminal unless NO_COLOR is set), markdown (a
                  pull-request comment or the job summary), html (one self-contained page in
                  report.html's style) or json
  --out FILE      write it to FILE instead of the standard output (which then gets the first
                  line only)
  --fail-on WHAT  what makes the exit status 1, each including the ones before it:
                    new-must    a new root failure whose group blocks HEAD's verdict: a failed
                                must (or should, in a --strict run), not an expected failure
                                (default)
                    new-should  a new root failure whose group holds a failed must or should,
                                not an expected failure
                    new-any     any new root failure, info checks and expected failures included
                    changed     any change: new, fixed, still failing otherwise, newly skipped,
                                added, removed, severity, or a key's rate-limit facts (latency
                                figures are not gated on)
  -h, --help      show this help

Exit status: 0 nothing --fail-on names happened; 1 it did; 2 usage error: an option, a report
that is missing or is not a report.json of this harness, or reports of incompatible schema
versions (both named).
`;

const FORMATS = ['text', 'markdown', 'html', 'json'] as const;
type Format = (typeof FORMATS)[number];

export interface DiffArgs {
  base: string;
  head: string;
  format: Format;
  out?: string;
  failOn: FailOn;
  help: boolean;
}

function oneOf<T extends string>(option: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${option} takes ${allowed.join(', ')}, not "${value}"${didYouMean(value, allowed)}`);
}

/** `diff BASE HEAD [--format F] [--out FILE] [--fail-on WHAT]`. Pure. */
export function parseDiffCli(argv: readonly string[]): DiffArgs {
  const options = { format: { type: 'string' }, out: { type: 'string' }, 'fail-on': { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const unknown = /Unknown option '(-{1,2}[^']+)'/.exec(message)?.[1];
    if (unknown) throw new UsageError(`diff: unknown option ${unknown}${didYouMean(unknown.replace(/^-+/, ''), Object.keys(options)).replace(/"(.*)"/, '"--$1"')}`);
    throw new UsageError(`diff: ${message.split('\n')[0] ?? message}`);
  }
  const { values, positionals } = parsed;
  const help = values.help ?? false;
  if (!help && positionals.length !== 2) {
    throw new UsageError(`diff takes two reports, BASE and HEAD (each a report.json or the folder holding one)${positionals.length > 2 ? `, not ${positionals.length}` : ''}: diff BASE HEAD`);
  }
  if (values.out !== undefined && values.out.trim() === '') throw new UsageError('--out is empty');
  return {
    base: positionals[0] ?? '',
    head: positionals[1] ?? '',
    format: oneOf('format', values.format, FORMATS, 'text'),
    ...(values.out !== undefined ? { out: values.out } : {}),
    failOn: oneOf('fail-on', values['fail-on'], FAIL_ON, 'new-must'),
    help,
  };
}

/** report.json with any schema version: the version is checked apart, before the rest is read. */
const Comparable = Report.extend({ schemaVersion: z.string() });

/** The report.json a path names: the file itself, or report.json in the folder. */
export function reportFile(given: string, which: 'BASE' | 'HEAD'): string {
  if (!existsSync(given)) throw new UsageError(`${which} ${given}: no such file or folder`);
  if (!statSync(given).isDirectory()) return given;
  const file = path.join(given, 'report.json');
  if (!existsSync(file)) throw new UsageError(`${which} ${given}: no report.json in that folder (give a run's --report-dir, or its report.json)`);
  return file;
}

/** The raw JSON of a report, with its schema version read: a file that is not one is a usage error naming it. */
function readRaw(file: string, which: 'BASE' | 'HEAD'): { raw: unknown; version: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`${which} ${file}: not JSON (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
  }
  const version = typeof raw === 'object' && raw !== null ? (raw as { schemaVersion?: unknown }).schemaVersion : undefined;
  if (typeof version !== 'string') throw new UsageError(`${which} ${file}: not a report.json of this harness (no schemaVersion)`);
  return { raw, version };
}

function parseReport(file: string, which: 'BASE' | 'HEAD', raw: unknown): ComparableReport {
  const parsed = Comparable.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`${which} ${file}: not a report.json of this harness (${issue ? `${issue.path.join('.') || 'the top level'}: ${issue.message}` : 'invalid'})`);
  }
  return parsed.data;
}

/** Both reports, read and checked: missing, not JSON, not a report, or of incompatible schema versions is a usage error. */
export function readReports(base: string, head: string): { base: ComparableReport; head: ComparableReport; files: { base: string; head: string } } {
  const files = { base: reportFile(base, 'BASE'), head: reportFile(head, 'HEAD') };
  const [b, h] = [readRaw(files.base, 'BASE'), readRaw(files.head, 'HEAD')];
  const why = incompatibility(b.version, h.version);
  if (why) throw new UsageError(`${why}: ${files.base}, ${files.head}`);
  return { base: parseReport(files.base, 'BASE', b.raw), head: parseReport(files.head, 'HEAD', h.raw), files };
}

/** report.html beside a report.json, as a link from `from` (a folder); undefined when there is none. */
function htmlBeside(file: string, from: string): string | undefined {
  const page = path.join(path.dirname(path.resolve(file)), 'report.html');
  return existsSync(page) ? path.relative(from, page).split(path.sep).join('/') : undefined;
}

export interface DiffIO {
  write(text: string): void;
  isTTY: boolean;
  noColor: boolean;
}

/** The whole command: its exit status. Writes to `io` (the standard output) or to --out. */
export function runDiff(argv: readonly string[], io: DiffIO): number {
  const args = parseDiffCli(argv);
  if (args.help) {
    io.write(DIFF_HELP);
    return EXIT.conformant;
  }
  const { base, head, files } = readReports(args.base, args.head);
  const diff = diffReports(base, head);
  const fails = gateFails(diff, args.failOn);
  const exitCode = fails ? EXIT.notConformant : EXIT.conformant;
  const to = args.out ? path.dirname(path.resolve(args.out)) : process.cwd();
  let text: string;
  switch (args.format) {
    case 'text':
      text = renderDiffText(diff, !args.out && io.isTTY && !io.noColor ? COLOUR : PLAIN);
      break;
    case 'markdown':
      text = renderDiffMarkdown(diff);
      break;
    case 'html': {
      const [b, h] = [htmlBeside(files.base, to), htmlBeside(files.head, to)];
      text = renderDiffHtml(diff, { ...(b ? { base: b } : {}), ...(h ? { head: h } : {}) });
      break;
    }
    case 'json':
      text = `${JSON.stringify({ ...diff, failOn: args.failOn, exitCode }, null, 2)}\n`;
      break;
  }
  if (!args.out) {
    io.write(text);
    return exitCode;
  }
  try {
    mkdirSync(to, { recursive: true });
    writeFileSync(args.out, text);
  } catch (err) {
    throw new UsageError(`--out ${args.out}: cannot write it (${err instanceof Error ? err.message : String(err)})`);
  }
  io.write(`${verdictText(diff)} (${args.format} written to ${args.out})\n`);
  return exitCode;
}
