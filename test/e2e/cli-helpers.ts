// Running the real CLI as a user would, against servers started here.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { PROJECT_ROOT } from '../../lib/config/load-target.ts';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Report } from '../../lib/result/model.ts';
import { REPORT_SCHEMA_FILE } from '../../lib/result/report-schema.ts';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run conformance -- ARGS`, without npm in between. Bounded: killed after `timeoutMs`. */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 90_000): Promise<CliRun> {
  return runNode(['scripts/from-source.mjs', ...args], { env, timeoutMs });
}

/** `node NODE_ARGS` in `cwd` (default: the project), output collected, killed after `timeoutMs`. */
export function runNode(nodeArgs: string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeArgs, {
      cwd: options.cwd ?? PROJECT_ROOT,
      // Hermetic on GitHub Actions too: no job summary unless a test asks for one.
      env: { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `animal-store-${prefix}-`));
}

/** Writes a target file into dir and returns its path. */
export function writeTarget(dir: string, target: Record<string, unknown>, name = 'target.yaml'): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof target === 'string' ? target : stringify(target));
  return file;
}

const validateSchema = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(REPORT_SCHEMA_FILE, 'utf8')));

/**
 * report.json of a run, checked against the published JSON Schema and the zod model of the
 * contract, with junit.xml checked to hold one testcase per check and the same failure counts.
 */
export function readReport(dir: string): Report {
  const raw: unknown = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8'));
  if (!validateSchema(raw)) throw new Error(`report.json does not match report.schema.json: ${JSON.stringify(validateSchema.errors?.slice(0, 3))}`);
  const report = Report.parse(raw);
  const junit = readFileSync(path.join(dir, 'junit.xml'), 'utf8');
  const testcases = junit.match(/<testcase\b/g)?.length ?? 0;
  if (testcases !== report.checks.length) throw new Error(`junit.xml has ${testcases} testcases for ${report.checks.length} checks`);
  const root = /<testsuites\b[^>]*\btests="(\d+)"/.exec(junit);
  if (Number(root?.[1]) !== report.checks.length) throw new Error(`junit.xml says tests="${root?.[1]}" for ${report.checks.length} checks`);
  return report;
}

/** Every file under dir, as text. */
export function filesUnder(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile())
    .map((file) => ({ file, text: readFileSync(file, 'utf8') }));
}
