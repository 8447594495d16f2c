// The GitHub Action (action.yml, a composite action) run on this machine as the runner runs it:
// its `run:` steps in order, each a `bash --noprofile --norc -eo pipefail` script with the
// expressions substituted (`${{ inputs.X }}` from the test's inputs and action.yml's defaults,
// `${{ steps.ID.outputs.Y }}` from the GITHUB_OUTPUT files of the steps before), its `if:`
// evaluated, GITHUB_OUTPUT a fresh file per step, GITHUB_STEP_SUMMARY one file per run,
// GITHUB_WORKSPACE a temporary folder and GITHUB_ACTION_PATH a copy of this repository's files
// (the action's own checkout). The `uses:` steps (setup-node, cache, upload-artifact) are not
// run: their conditions and `with:` are evaluated and checked. No INPUT_* variable is set: a
// composite action's steps get none on GitHub (actions/runner#665), so a script that relied on
// them would fail here as it would there.
//
// `npm ci` is not run: a stub `npm` first on PATH records its arguments and links this project's
// node_modules into the checkout instead of fetching the packages; `npm run build` is the real one.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config/load-target.ts';
import { startReferenceServer } from '../../targets/reference/server.ts';
import { readReport, runCli, tempDir, writeTarget } from './cli-helpers.ts';

interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  with?: Record<string, unknown>;
  shell?: string;
  run?: string;
  env?: Record<string, unknown>;
  'working-directory'?: string;
}

interface ActionFile {
  name: string;
  description: string;
  inputs: Record<string, { description: string; default?: string; required?: boolean }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}

const ACTION_FILE = path.join(PROJECT_ROOT, 'action.yml');
const ACTION = parse(readFileSync(ACTION_FILE, 'utf8')) as ActionFile;
const STEPS = ACTION.runs.steps;

interface StepRun {
  step: Step;
  /** Whether its `if:` held (a `uses:` step is never run here, only judged). */
  due: boolean;
  /** Exit status of a run step that ran; null otherwise. */
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  /** A `uses:` step's `with:`, expressions substituted. */
  with?: Record<string, string>;
}

interface ActionRun {
  steps: StepRun[];
  outputs: Record<string, string>;
  summary: string;
  /** Whether a step failed (the job fails). */
  failed: boolean;
  /** The exit status of the first step that failed, 0 when none did. */
  exitCode: number;
}

const stepRun = (run: ActionRun, id: string) => run.steps.find((s) => s.step.id === id || s.step.name === id)!;
const usesRun = (run: ActionRun, action: string) => run.steps.find((s) => s.step.uses?.startsWith(`${action}@`))!;

/** `name=value` lines and `name<<DELIMITER` blocks, as the runner reads GITHUB_OUTPUT. */
function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const block = /^([^=]+?)<<(.+)$/.exec(line);
    if (block) {
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== block[2]; i++) value.push(lines[i]!);
      out[block[1]!] = value.join('\n');
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 1) throw new Error(`GITHUB_OUTPUT line is neither name=value nor name<<DELIMITER: ${line}`);
    out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

interface Context {
  inputs: Record<string, string>;
  steps: Record<string, Record<string, string>>;
  actionPath: string;
  workspace: string;
}

/** The expressions action.yml uses; anything else is an error here, not an empty string. */
function evaluate(expression: string, ctx: Context): string {
  const e = expression.trim();
  let m = /^inputs\.([A-Za-z0-9_-]+)$/.exec(e);
  if (m) {
    if (!(m[1]! in ctx.inputs)) throw new Error(`action.yml reads an undeclared input: ${e}`);
    return ctx.inputs[m[1]!]!;
  }
  m = /^steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)$/.exec(e);
  if (m) return ctx.steps[m[1]!]?.[m[2]!] ?? '';
  if (e === 'github.action_path') return ctx.actionPath;
  if (e === 'github.workspace') return ctx.workspace;
  if (e === 'runner.os') return 'Linux';
  throw new Error(`an expression this test does not model: ${e}`);
}

const substitute = (text: string, ctx: Context) => text.replace(/\$\{\{(.*?)\}\}/g, (_, e: string) => evaluate(e, ctx));

/** An `if:` as the runner reads it: terms joined by &&, status functions, == and != on strings (case-insensitive). */
function holds(condition: string | undefined, ctx: Context, failed: boolean): boolean {
  if (condition === undefined) return !failed;
  const inner = condition.trim().replace(/^\$\{\{(.*)\}\}$/s, '$1').trim();
  if (inner.includes('||')) throw new Error(`a condition this test does not model: ${condition}`);
  const terms = inner.split('&&').map((t) => t.trim());
  const statusFunction = /^!?(always|success|failure|cancelled)\(\)$/;
  let result = terms.some((t) => statusFunction.test(t)) ? true : !failed;
  for (const t of terms) {
    const status = statusFunction.exec(t);
    if (status) {
      const value = { always: true, success: !failed, failure: failed, cancelled: false }[status[1] as 'always'];
      result &&= t.startsWith('!') ? !value : value;
      continue;
    }
    const compare = /^(.+?)\s*(==|!=)\s*'([^']*)'$/.exec(t);
    if (!compare) throw new Error(`a condition this test does not model: ${t}`);
    const equal = evaluate(compare[1]!, ctx).toLowerCase() === compare[3]!.toLowerCase();
    result &&= compare[2] === '==' ? equal : !equal;
  }
  return result;
}

function bash(script: string, options: { cwd: string; env: NodeJS.ProcessEnv; scriptFile: string; timeoutMs: number }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  writeFileSync(options.scriptFile, script);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', options.scriptFile], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

interface RunOptions {
  /** The caller's repository, checked out (GITHUB_WORKSPACE). */
  workspace: string;
  /** The calling step's `env:` (the target's URL and keys). */
  env?: Record<string, string>;
  /** Default: the checkout made in beforeAll. */
  actionPath?: string;
  /** Only these steps (by id); the outputs of the others are taken from `given`. */
  only?: string[];
  given?: Record<string, Record<string, string>>;
}

/** The environment of this process, less anything a runner would set or a test machine may leak in. */
function baseEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(GITHUB_|INPUT_|RUNNER_|ANIMAL_STORE_|NO_COLOR$|FORCE_COLOR$)/.test(k)));
}

/** Runs the action as a workflow step `uses: ./` with `with: inputs` and `env: options.env`. */
async function runAction(given: Record<string, string>, options: RunOptions): Promise<ActionRun> {
  for (const name of Object.keys(given)) if (!(name in ACTION.inputs)) throw new Error(`not an input of action.yml: ${name}`);
  const inputs = Object.fromEntries(Object.entries(ACTION.inputs).map(([name, spec]) => [name, given[name] ?? String(spec.default ?? '')]));
  const actionPath = options.actionPath ?? checkout;
  const scratch = tempDir('action-run');
  const summaryFile = path.join(scratch, 'step-summary.md');
  writeFileSync(summaryFile, '');
  const ctx: Context = { inputs, steps: { ...options.given }, actionPath, workspace: options.workspace };
  const runs: StepRun[] = [];
  let failed = false;
  let exitCode = 0;
  for (const [i, step] of STEPS.entries()) {
    if (options.only && !options.only.includes(step.id ?? '')) continue;
    const due = holds(step.if, ctx, failed);
    if (step.uses) {
      const withValues = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, due ? substitute(String(v), ctx) : String(v)]));
      runs.push({ step, due, code: null, stdout: '', stderr: '', outputs: {}, with: withValues });
      continue;
    }
    if (!due) {
      runs.push({ step, due, code: null, stdout: '', stderr: '', outputs: {} });
      continue;
    }
    if (step.shell !== 'bash') throw new Error(`step ${step.name}: shell ${step.shell}, not bash`);
    const outputFile = path.join(scratch, `output-${i}`);
    writeFileSync(outputFile, '');
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v), ctx)]));
    const env: NodeJS.ProcessEnv = {
      ...baseEnv(),
      ...options.env,
      ...stepEnv,
      PATH: `${stubBin}${path.delimiter}${process.env.PATH ?? ''}`,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_WORKSPACE: options.workspace,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      RUNNER_OS: 'Linux',
      RUNNER_TEMP: scratch,
    };
    const cwd = step['working-directory'] ? path.resolve(options.workspace, substitute(step['working-directory'], ctx)) : options.workspace;
    const result = await bash(substitute(step.run!, ctx), { cwd, env, scriptFile: path.join(scratch, `step-${i}.sh`), timeoutMs: 100_000 });
    const outputs = parseOutputFile(readFileSync(outputFile, 'utf8'));
    if (step.id) ctx.steps[step.id] = outputs;
    runs.push({ step, due, ...result, outputs });
    if (result.code !== 0 && !failed) {
      failed = true;
      exitCode = result.code ?? -1;
    }
  }
  const outputs = Object.fromEntries(Object.entries(ACTION.outputs).map(([name, o]) => [name, substitute(o.value, ctx)]));
  return { steps: runs, outputs, summary: readFileSync(summaryFile, 'utf8'), failed, exitCode };
}

/** The action's own checkout: the files git would check out of this work tree (tracked, or new and not ignored). */
function copyCheckout(to: string): void {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(listed.stderr);
  for (const file of listed.stdout.split('\0')) {
    // node_modules here is a symbolic link, which the .gitignore's `node_modules/` does not match.
    if (file === '' || file === 'node_modules' || file.startsWith('node_modules/')) continue;
    const from = path.join(PROJECT_ROOT, file);
    if (!existsSync(from) || lstatSync(from).isDirectory()) continue;
    mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    cpSync(from, path.join(to, file));
  }
}

const dir = tempDir('action');
const checkout = path.join(dir, 'action-checkout');
const stubBin = path.join(dir, 'bin');
const npmLog = path.join(dir, 'npm.log');

/** What every run's calling step passes besides the target's variables: where the stub npm records and what it links. */
const STUB_ENV = (): Record<string, string> => ({
  NPM_LOG: npmLog,
  ACTION_CHECKOUT: checkout,
  REAL_NPM: spawnSync('bash', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim(),
  REAL_NODE_MODULES: realpathSync(path.join(PROJECT_ROOT, 'node_modules')),
});

function workspace(name: string): string {
  const ws = path.join(dir, 'workspaces', name);
  mkdirSync(ws, { recursive: true });
  return ws;
}

const lines = (text: string, prefix: string) => text.split('\n').filter((l) => l.startsWith(prefix));

/** The run that installs the harness (the first use of the action here): a target that does not exist. */
let first: ActionRun;
/** Whether this build of the harness has the `diff` subcommand. */
let haveDiff = false;

beforeAll(async () => {
  copyCheckout(checkout);
  mkdirSync(stubBin, { recursive: true });
  writeFileSync(
    path.join(stubBin, 'npm'),
    [
      '#!/usr/bin/env bash',
      '# npm for the action test: `npm ci` is recorded and replaced by a link to the project\'s node_modules; the rest is the real npm.',
      'printf "%s\\t%s\\n" "$PWD" "$*" >> "$NPM_LOG"',
      'if [ "$1" = ci ]; then',
      '  [ "$PWD" = "$ACTION_CHECKOUT" ] || { echo "npm ci outside the action\'s checkout: $PWD" >&2; exit 97; }',
      '  [ -e node_modules ] || ln -s "$REAL_NODE_MODULES" node_modules',
      '  exit 0',
      'fi',
      'exec "$REAL_NPM" "$@"',
      '',
    ].join('\n'),
  );
  chmodSync(path.join(stubBin, 'npm'), 0o755);
  first = await runAction({ target: 'no-such-target', upload: 'false' }, { workspace: workspace('first'), env: STUB_ENV() });
  haveDiff = spawnSync(process.execPath, [path.join(checkout, 'dist/lib/cli/main.js'), 'diff', '--help'], { encoding: 'utf8' }).status === 0;
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the GitHub Action (action.yml)', () => {
  it('is a composite action: bash run steps reading inputs from env, actions pinned to a major version, outputs from the run step', () => {
    expect(ACTION.runs.using).toBe('composite');
    expect(ACTION.description.length).toBeLessThanOrEqual(125);
    for (const [name, input] of Object.entries(ACTION.inputs)) expect({ name, described: input.description.length > 10 }).toEqual({ name, described: true });
    for (const step of STEPS) {
      expect(step.name, JSON.stringify(step)).toBeTruthy();
      if (step.uses) {
        expect(step.uses).toMatch(/^actions\/[a-z-]+@v\d+$/);
        expect(step.run).toBeUndefined();
        continue;
      }
      expect({ step: step.name, shell: step.shell }).toEqual({ step: step.name, shell: 'bash' });
      // An expression inside a script is pasted in as code: inputs and outputs reach scripts through env.
      expect({ step: step.name, expressionInScript: /\$\{\{/.test(step.run!) }).toEqual({ step: step.name, expressionInScript: false });
      for (const script of step.run!.matchAll(/"\$GITHUB_ACTION_PATH\/([^"]+)"/g)) expect(existsSync(path.join(PROJECT_ROOT, script[1]!)), script[1]).toBe(true);
    }
    expect(STEPS.filter((s) => s.uses).map((s) => s.uses!.replace(/@.*/, ''))).toEqual(['actions/setup-node', 'actions/cache', 'actions/upload-artifact']);
    expect(STEPS.find((s) => s.uses?.startsWith('actions/setup-node@'))!.with).toMatchObject({ 'node-version': 20 });
    // Every input is used, and nothing reads an input that is not declared (evaluate() throws on those).
    const text = readFileSync(ACTION_FILE, 'utf8');
    for (const name of Object.keys(ACTION.inputs)) expect(text, name).toContain(`inputs.${name}`);
    expect(Object.fromEntries(Object.entries(ACTION.outputs).map(([k, o]) => [k, o.value]))).toEqual({
      verdict: '${{ steps.run.outputs.verdict }}',
      'exit-code': '${{ steps.run.outputs.exit-code }}',
      'report-dir': '${{ steps.run.outputs.report-dir }}',
      diff: '${{ steps.diff.outputs.diff }}',
    });
    // The last step gates: it runs whatever came before, once the run step has an exit status.
    expect(STEPS.at(-1)).toMatchObject({ if: "always() && steps.run.outputs.exit-code != ''" });
  });

  it('installs the harness in its own checkout once: npm ci from the lock file and npm run build there, the npm cache keyed on the lock file; a second use installs nothing', () => {
    const log = readFileSync(npmLog, 'utf8');
    expect(lines(log, `${checkout}\t`).map((l) => l.split('\t')[1])).toEqual(['ci --include=dev --no-audit --no-fund', 'run build']);
    const lockHash = createHash('sha256').update(readFileSync(path.join(checkout, 'package-lock.json'))).digest('hex');
    expect(stepRun(first, 'prepare').outputs).toMatchObject({ installed: 'false', 'lock-hash': lockHash, 'npm-cache': expect.stringMatching(/\S/) });
    expect(usesRun(first, 'actions/cache')).toMatchObject({ due: true, with: { key: `animal-store-conformance-npm-Linux-${lockHash}`, path: stepRun(first, 'prepare').outputs['npm-cache'] } });
    expect(existsSync(path.join(checkout, 'dist/lib/cli/main.js'))).toBe(true);
    expect(readFileSync(path.join(checkout, 'dist/.action-installed'), 'utf8')).toBe(`${lockHash} node ${process.version}\n`);
  });

  it('a target that does not exist: exit status 2, verdict error, an annotation naming it, the job fails at the last step', () => {
    expect(first.outputs).toEqual({ verdict: 'error', 'exit-code': '2', 'report-dir': path.join(dir, 'workspaces', 'first', 'conformance-report'), diff: '' });
    const run = stepRun(first, 'run');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('unknown target "no-such-target"');
    expect(lines(run.stdout, '::error ')).toEqual([expect.stringContaining('usage or configuration error (exit status 2)')]);
    expect(usesRun(first, 'actions/upload-artifact').due).toBe(false);
    expect({ failed: first.failed, exitCode: first.exitCode, last: first.steps.at(-1)!.code }).toEqual({ failed: true, exitCode: 2, last: 2 });
  });

  // The runs of the action below each have a workspace and a server of their own: side by side (two at a time).
  it.concurrent('the reference, as target `staging` with its variables in the step env: verdict pass, exit 0, the summary, the reports uploaded; a missing base report is a warning', async () => {
    const keys = [
      { key: 'sk-action-free-1-9d8c7b', plan: 'free' },
      { key: 'sk-action-pro-1-6a5f4e', plan: 'pro' },
      { key: 'sk-action-spare-1-3c2b1a', plan: 'free' },
    ];
    const server = await startReferenceServer({ keys });
    const ws = workspace('reference');
    let run: ActionRun;
    try {
      run = await runAction(
        { suites: 'list-pets', args: '--seed 7', 'base-report': 'no-such/report.json' },
        {
          workspace: ws,
          env: {
            ...STUB_ENV(),
            ANIMAL_STORE_STAGING_URL: server.baseUrl,
            ANIMAL_STORE_STAGING_FREE_KEY: keys[0]!.key,
            ANIMAL_STORE_STAGING_PRO_KEY: keys[1]!.key,
            ANIMAL_STORE_STAGING_SPARE_KEY: keys[2]!.key,
          },
        },
      );
    } finally {
      await server.close();
    }
    const reportDir = path.join(ws, 'conformance-report');
    expect(run.outputs).toEqual({ verdict: 'pass', 'exit-code': '0', 'report-dir': reportDir, diff: '' });
    const report = readReport(reportDir);
    expect({ target: report.target.name, seed: report.seed, suites: report.options.suites, verdict: report.verdict }).toEqual({ target: 'staging', seed: 7, suites: ['list-pets'], verdict: 'pass' });
    expect(run.summary).toMatch(/^## ✅ Conformant: staging \(http:\/\/127\.0\.0\.1:\d+\/v1\)$/m);
    expect(run.summary).toContain(`Reports (report.html, report.json, junit.xml, ctrf.json) are in \`conformance-report\``);
    expect(lines(stepRun(run, 'run').stdout, '::')).toEqual([]);
    // Installed by the first run: neither the cache nor npm this time.
    expect(stepRun(run, 'prepare').outputs.installed).toBe('true');
    expect(usesRun(run, 'actions/cache').due).toBe(false);
    expect(stepRun(run, 'Install and build the harness (npm ci, npm run build)').due).toBe(false);
    expect(lines(stepRun(run, 'diff').stdout, '::')).toEqual(['::warning title=Animal Store conformance diff::no base report at no-such/report.json: this run is not compared with it']);
    expect(usesRun(run, 'actions/upload-artifact')).toMatchObject({ due: true, with: { name: 'conformance-report', path: reportDir, 'if-no-files-found': 'warn' } });
    expect({ failed: run.failed, last: run.steps.at(-1)!.code }).toEqual({ failed: false, last: 0 });
    // No key in anything the job shows.
    for (const k of keys) expect(run.steps.map((s) => s.stdout + s.stderr).join('') + run.summary).not.toContain(k.key);
  });

  it.concurrent('a faulty reference (list-ignores-limit), a target file of the workspace: exit 1, verdict fail, ::error annotations, the job fails; the base report compared when diff exists', async () => {
    const keys = [
      { key: 'sk-action-faulty-free-1-0f9e8d', plan: 'free' },
      { key: 'sk-action-faulty-pro-1-7c6b5a', plan: 'pro' },
    ];
    const server = await startReferenceServer({ keys, faults: ['list-ignores-limit'], preload: 30 });
    const ws = workspace('faulty');
    mkdirSync(path.join(ws, 'conformance'));
    writeTarget(path.join(ws, 'conformance'), { name: 'faulty', baseUrl: '${FAULTY_URL}', keys, allow: { writes: true, load: false } }, 'faulty.yaml');
    let run: ActionRun;
    try {
      run = await runAction(
        {
          target: 'conformance/faulty.yaml',
          suites: ' list-pets ',
          strict: 'true',
          args: '--seed 1',
          'report-dir': 'out/reports',
          'base-report': path.join(dir, 'workspaces', 'reference', 'conformance-report'),
          'artifact-name': 'faulty-report',
        },
        { workspace: ws, env: { ...STUB_ENV(), FAULTY_URL: server.baseUrl } },
      );
    } finally {
      await server.close();
    }
    const reportDir = path.join(ws, 'out', 'reports');
    expect({ verdict: run.outputs.verdict, exitCode: run.outputs['exit-code'], reportDir: run.outputs['report-dir'] }).toEqual({ verdict: 'fail', exitCode: '1', reportDir });
    const report = readReport(reportDir);
    expect({ target: report.target.name, strict: report.options.strict, seed: report.seed }).toEqual({ target: 'faulty', strict: true, seed: 1 });
    const annotations = lines(stepRun(run, 'run').stdout, '::error ');
    expect(annotations.length).toBeGreaterThan(0);
    // The finding as the headline, then the check it broke.
    expect(annotations).toContainEqual(expect.stringMatching(/^::error title=(GET \/pets%3A )?limit=1 returned 30 animals::limit=1 returned 30 animals%0Alist-pets\.limit \[.*\]: .*\(must\)$/));
    expect(run.summary).toMatch(/^## ❌ Not conformant: faulty /m);
    expect(usesRun(run, 'actions/upload-artifact')).toMatchObject({ due: true, with: { name: 'faulty-report', path: reportDir } });
    // Every step but the last succeeded; the last fails the job with the run's exit status.
    expect(run.steps.filter((s) => s.code !== null && s.code !== 0).map((s) => s.step.name)).toEqual(['Fail the job unless conformant']);
    expect({ failed: run.failed, exitCode: run.exitCode }).toEqual({ failed: true, exitCode: 1 });
    const diff = stepRun(run, 'diff');
    if (haveDiff) {
      expect(run.outputs.diff).toBe(path.join(reportDir, 'diff.md'));
      expect(run.summary).toContain(readFileSync(run.outputs.diff!, 'utf8').trim());
    } else {
      expect(run.outputs.diff).toBe('');
      expect(lines(diff.stdout, '::')).toEqual(['::notice title=Animal Store conformance diff::this version of the harness has no diff subcommand: base-report is not used']);
    }
  });

  it.concurrent('with a diff subcommand (a stand-in harness): its Markdown goes to report-dir/diff.md and the job summary; a folder as base-report means its report.json', async () => {
    const fake = path.join(dir, 'fake-action');
    mkdirSync(path.join(fake, 'dist/lib/cli'), { recursive: true });
    writeFileSync(
      path.join(fake, 'dist/lib/cli/main.js'),
      [
        "import { writeFileSync } from 'node:fs';",
        'const [command, ...rest] = process.argv.slice(2);',
        "if (command !== 'diff') process.exit(2);",
        "if (rest[0] === '--help') process.exit(0);",
        "if (rest[2] !== '--format' || rest[3] !== 'markdown' || rest[4] !== '--out') process.exit(2);",
        "writeFileSync(rest[5], `## Since the base report\\n\\nbase ${rest[0]}\\nhead ${rest[1]}\\n`);",
        'process.exit(1);',
        '',
      ].join('\n'),
    );
    writeFileSync(path.join(fake, 'package.json'), '{ "type": "module" }\n');
    mkdirSync(path.join(fake, 'scripts'));
    cpSync(path.join(checkout, 'scripts/action'), path.join(fake, 'scripts/action'), { recursive: true });
    const ws = workspace('diff');
    for (const d of ['base', 'head']) {
      mkdirSync(path.join(ws, d));
      writeFileSync(path.join(ws, d, 'report.json'), '{}\n');
    }
    const run = await runAction({ 'base-report': 'base' }, { workspace: ws, actionPath: fake, only: ['diff'], given: { run: { 'report-dir': path.join(ws, 'head') } } });
    const out = path.join(ws, 'head', 'diff.md');
    expect(stepRun(run, 'diff')).toMatchObject({ code: 0, stderr: '' });
    expect(run.outputs.diff).toBe(out);
    expect(readFileSync(out, 'utf8')).toBe(`## Since the base report\n\nbase base/report.json\nhead ${path.join(ws, 'head', 'report.json')}\n`);
    expect(run.summary).toContain(readFileSync(out, 'utf8'));
  });

  // The load split end to end (issue 15) is shown here once, through the action: two harness
  // processes (--load-segment 1/2 and 2/2, one --start-at) against one reference server, then the
  // merge job: the merged report counts what the server counted and passes. (A limiter kept per
  // connection, caught over merged runs, is shown on the virtual clock: test/clock/segments.test.ts.)
  it.concurrent('a load split over a job matrix: two segment jobs (no job summary of their own) and a merge job over their downloaded reports; the merged report counts what the server counted', { timeout: 120_000 }, async () => {
    // Two plans, no day to spend: the flow of segments and merge, not the day test, is what is shown here.
    const keys = [
      { key: 'sk-action-segment-free-1-5e4d3c', plan: 'free' },
      { key: 'sk-action-segment-pro-1-9a8b7c', plan: 'pro' },
    ];
    // Windows long enough that a busy machine starts each key's slot in time.
    const windows = { minute: 5, day: 60 };
    const server = await startReferenceServer({ keys, windows });
    // As the workflow's plan job does: one start time a little ahead, the same for every segment.
    const startAt = new Date(Date.now() + 10_000).toISOString();
    let segments: ActionRun[];
    let serverCount: number;
    try {
      segments = await Promise.all(
        [1, 2].map((i) => {
          const ws = workspace(`segment-${i}`);
          writeTarget(ws, { name: 'segmented', baseUrl: server.baseUrl, keys, windows, allow: { writes: true, load: true } });
          return runAction(
            { target: 'target.yaml', suites: 'rate-limit', 'load-segment': `${i}/2`, 'start-at': startAt, 'report-dir': 'segment-report', 'artifact-name': `segment-${i}` },
            { workspace: ws, env: STUB_ENV() },
          );
        }),
      );
      serverCount = server.stats().requests;
    } finally {
      await server.close();
    }
    for (const [i, s] of segments.entries()) {
      expect({ segment: i + 1, ...s.outputs, failed: s.failed }).toMatchObject({ segment: i + 1, verdict: 'pass', 'exit-code': '0', failed: false });
      expect(s.summary).toBe('');
      expect(lines(stepRun(s, 'run').stdout, '::')).toEqual([]);
      expect(readReport(s.outputs['report-dir']!).segment).toMatchObject({ index: i + 1, count: 2 });
      expect(usesRun(s, 'actions/upload-artifact').with).toMatchObject({ name: `segment-${i + 1}` });
    }
    // The merge job: download-artifact puts each segment's artifact in segments/<name>/.
    const ws = workspace('merge');
    for (const [i, s] of segments.entries()) cpSync(s.outputs['report-dir']!, path.join(ws, 'segments', `segment-${i + 1}`), { recursive: true });
    const merged = await runAction({ mode: 'merge', 'merge-dirs': 'segments/*', 'report-dir': 'merged' }, { workspace: ws, env: STUB_ENV() });
    expect(merged.outputs).toMatchObject({ verdict: 'pass', 'exit-code': '0', 'report-dir': path.join(ws, 'merged') });
    expect(stepRun(merged, 'run').stdout).toContain(`animal-store-conformance merge segments/segment-1 segments/segment-2 --report-dir ${path.join(ws, 'merged')}`);
    const report = readReport(path.join(ws, 'merged'));
    expect(report.merged?.segments.map((s) => s.index)).toEqual([1, 2]);
    expect(report.requests.total).toBe(segments.map((s) => readReport(s.outputs['report-dir']!).requests.total).reduce((a, b) => a + b, 0));
    expect(report.requests.total).toBe(serverCount);
    expect(merged.summary).toMatch(/^## ✅ Conformant: segmented /m);
    expect(merged.failed).toBe(false);
    // Each runner's politeness, by its own clock, kept apart by segment: nothing unexplained.
    expect(report.politeness?.length).toBeGreaterThan(0);
    for (const k of report.politeness ?? []) expect({ label: k.label, segment: k.segment, unexplained: k.inside.unexplained }).toEqual({ label: k.label, segment: expect.toBeOneOf([1, 2]), unexplained: 0 });
    // Judged again over both segments: the quota of every key passes (none is left to the segments).
    expect(report.checks.filter((c) => c.id === 'rate-limit.quota').map((c) => c.outcome)).toEqual(keys.map(() => 'pass'));
    // Merging the same segment twice is refused, naming it (exit 2).
    const one = path.join(ws, 'segments', 'segment-1');
    const twice = await runCli(['merge', one, one, '--report-dir', path.join(ws, 'twice')]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('segment 1 of 2 is given twice');
  });

  it('refuses inputs it cannot use as a usage error (exit 2, verdict error) without running the harness', async () => {
    const ws = workspace('refused');
    const cases: [Record<string, string>, string][] = [
      [{ mode: 'check' }, 'mode takes run or merge, not "check"'],
      [{ strict: 'yes' }, 'strict takes true or false, not "yes"'],
      [{ args: '--seed "7' }, 'args: unbalanced quotes in: --seed "7'],
      [{ mode: 'merge' }, 'mode: merge needs merge-dirs'],
    ];
    for (const [inputs, message] of cases) {
      const run = await runAction({ ...inputs, upload: 'false' }, { workspace: ws, env: STUB_ENV(), only: ['prepare', 'run'] });
      expect({ inputs, ...run.outputs }).toMatchObject({ inputs, verdict: 'error', 'exit-code': '2' });
      expect(lines(stepRun(run, 'run').stdout, '::error ')).toEqual([expect.stringContaining(message)]);
    }
  });
});

describe('the workflows and the documentation that use the action', () => {
  const DOC = path.join(PROJECT_ROOT, 'docs', 'github-action.md');
  const docText = () => readFileSync(DOC, 'utf8');
  /** Every step of a workflow, of a list of steps, or a single step. */
  function stepsOf(yaml: unknown): Step[] {
    if (Array.isArray(yaml)) return yaml as Step[];
    const workflow = yaml as { jobs?: Record<string, { steps?: Step[] }> };
    if (workflow.jobs) return Object.values(workflow.jobs).flatMap((j) => j.steps ?? []);
    throw new Error(`neither a workflow nor steps: ${JSON.stringify(yaml).slice(0, 80)}`);
  }

  it('examples/github-actions and the YAML of docs/github-action.md: every use of the action passes only inputs it declares', () => {
    const sources = [
      ...['conformance.yml', 'conformance-matrix.yml'].map((f) => ({ where: `examples/github-actions/${f}`, yaml: readFileSync(path.join(PROJECT_ROOT, 'examples', 'github-actions', f), 'utf8') })),
      ...[...docText().matchAll(/```yaml\n(.*?)```/gs)].map((m, i) => ({ where: `docs/github-action.md, YAML block ${i + 1}`, yaml: m[1]! })),
    ];
    let uses = 0;
    for (const { where, yaml } of sources) {
      for (const step of stepsOf(parse(yaml))) {
        if (!step.uses?.startsWith('your-org/animal-store-conformance@')) continue;
        uses++;
        for (const name of Object.keys(step.with ?? {})) expect({ where, input: name, declared: name in ACTION.inputs }).toEqual({ where, input: name, declared: true });
      }
    }
    // conformance.yml's one, the matrix's two, and the documentation's copies and snippets.
    expect(uses).toBeGreaterThanOrEqual(7);
  });

  it('docs/github-action.md lists every input with its default, and every output', () => {
    const doc = docText();
    const tableRows = (from: string, to: string) => doc.slice(doc.indexOf(from), doc.indexOf(to, doc.indexOf(from))).split('\n').filter((l) => l.startsWith('| `'));
    const inputs = tableRows('\n## Inputs\n', '\n### Outputs\n');
    const outputs = tableRows('\n### Outputs\n', '\n## ');
    expect(inputs.map((l) => l.split(' | ')[0]!.slice(2))).toEqual(Object.keys(ACTION.inputs).map((n) => `\`${n}\``));
    for (const [name, input] of Object.entries(ACTION.inputs)) {
      expect({ name, default: inputs.find((l) => l.startsWith(`| \`${name}\` |`))!.split(' | ')[1] }).toEqual({ name, default: input.default ? `\`${input.default}\`` : '(none)' });
    }
    expect(outputs.map((l) => l.split(' | ')[0]!.slice(2))).toEqual(Object.keys(ACTION.outputs).map((n) => `\`${n}\``));
  });
});
