// `diff BASE HEAD`: what changed between two runs' reports (a release and the next), as one value
// the console, Markdown, HTML and JSON renderers read. Checks are matched by id and subject, by id
// alone where a check moved between a key's results and the run's (lib/result/match.ts); failures
// are grouped by their root cause as in the reports (failureGroups), and only a root decides
// whether a group is new, fixed or still failing. Beside the checks: each key's rate-limit picture
// (the limiter, the first 429, Retry-After honoured, the day) and the paced load's latency and
// throughput, with their change in percent. Pure: two reports in, the difference out.
import type { CheckResult, Outcome, Report, Severity } from '../result/model.ts';
import { counterparts, resultKey, worstOf } from '../result/match.ts';
import { REPORT_SCHEMA_VERSION } from '../result/model.ts';
import type { PacedLoadKey } from '../result/paced-load.ts';
import type { RateLimitKey } from '../result/rate-limits.ts';
import { blocksVerdict } from '../result/verdict.ts';
import { isAccepted } from '../status.ts';
import { counted, failureGroups, isFailure, SEVERITIES } from './text.ts';

/** A report as the diff reads it: any schema version of the major this harness writes. */
export type ComparableReport = Omit<Report, 'schemaVersion'> & { schemaVersion: string };

const major = (version: string) => version.split('.')[0] ?? version;

/**
 * Why two reports cannot be compared, naming both schema versions; undefined when they can. Reports
 * of one major version share their fields (a minor version only adds), and that major must be the
 * one this harness writes.
 */
export function incompatibility(base: string, head: string, reads: string = REPORT_SCHEMA_VERSION): string | undefined {
  if (major(base) !== major(head)) return `the reports' schema versions are incompatible: BASE ${base}, HEAD ${head} (a diff compares reports of one major schema version)`;
  if (major(base) !== major(reads)) return `the reports' schema versions (BASE ${base}, HEAD ${head}) are not ones this harness reads: it reads ${major(reads)}.x (it writes ${reads})`;
  return undefined;
}

/** One side of a check's change: what the run said. */
export interface Side {
  outcome: Outcome;
  severity: Severity;
  subject?: string;
  code?: string;
  message: string;
  /** The run's --expected-failures listed it (a failure it did not gate on), with the reason. */
  expected?: string;
}

/** A check as the two runs saw it; `base` or `head` absent when that run did not have it. */
export interface CheckChange {
  id: string;
  subject?: string;
  title: string;
  clause: string;
  suite: string;
  /** HEAD's severity, else BASE's. */
  severity: Severity;
  base?: Side;
  head?: Side;
  /** Matched by id alone: the check's subjects in BASE, none of which HEAD has (it moved between a key's results and the run's). */
  movedFrom?: (string | undefined)[];
}

/** A root failure and the failures it explains (their causedBy names it), as the reports show them. */
export interface ChangeGroup {
  root: CheckChange;
  explained: CheckChange[];
  /** A failure of the group blocks HEAD's verdict (a must, or a should with --strict; not an expected failure). */
  blocks: boolean;
  /** A failure of the group is must or should (not info), not an expected failure. */
  matters: boolean;
}

/** Each key's rate-limit picture, as the rate-limit suite drew it. */
export interface KeyPicture {
  plan: string;
  /** What the limiter looked like (fixed window, refilling, …), without the run's own notes (Reset noise, a window that turned). */
  limiter: string;
  behaviour: string;
  /** The key's first 429 in the suite: its place among the key's answers, the 2xx before it, and how many more (or fewer) than the Remaining first stated. */
  first429?: { position: number; accepted: number; beyondRemaining?: number; retryAfter?: string };
  /** rate-limit.retry-after-honoured for the key: after waiting exactly Retry-After, was the next request let through. */
  retryAfterHonoured?: Outcome;
  /** The day test: how it ended, the 2xx it got, the day's 429's Retry-After. */
  day?: { ended: string; accepted: number; retryAfter?: string };
}

export interface KeyChange {
  label: string;
  base?: KeyPicture;
  head?: KeyPicture;
  /** What changed: "limiter", "first 429", "Retry-After honoured", "day", "key added", "key removed". */
  changed: string[];
}

/** A figure of both runs and its change in percent (undefined when BASE is 0 or a run lacks it). */
export interface Figure {
  base?: number;
  head?: number;
  changePct?: number;
}

const LATENCY = ['p50', 'p90', 'p95', 'p99', 'max'] as const;
type LatencyFigures = Record<(typeof LATENCY)[number], Figure>;

export interface PacedKeyChange {
  label: string;
  askedRate: Figure;
  achievedRate: Figure;
  sent: Figure;
  rejected: Figure;
  latency: LatencyFigures;
}

export interface PacedLoadChange {
  overall: { sent: Figure; errorRate: Figure; latency: LatencyFigures };
  keys: PacedKeyChange[];
}

export interface RunSummary {
  target: string;
  baseUrl: string;
  tool: string;
  schemaVersion: string;
  startedAt: string;
  seed: number;
  suites: string[];
  strict: boolean;
  verdict: 'pass' | 'fail';
  exitCode: number;
  checks: number;
  requests: number;
}

export interface ReportDiff {
  base: RunSummary;
  head: RunSummary;
  /** Roots failing in HEAD that passed, skipped or were absent in BASE. */
  newFailures: ChangeGroup[];
  /** Roots failing in BASE that pass in HEAD. */
  fixed: ChangeGroup[];
  /** Roots failing in both. */
  stillFailing: ChangeGroup[];
  /** Skipped in HEAD, judged (passed, failed or errored) in BASE. */
  newlySkipped: CheckChange[];
  /** In HEAD only. */
  added: CheckChange[];
  /** In BASE only. */
  removed: CheckChange[];
  severityChanged: CheckChange[];
  rateLimits: KeyChange[];
  pacedLoad?: PacedLoadChange;
  /** What makes the two runs differ beyond the server (another target, seed, suites, strictness). */
  notes: string[];
}

const failing = (o: Outcome | undefined) => o === 'fail' || o === 'error';

function side(c: CheckResult): Side {
  return {
    outcome: c.outcome,
    severity: c.severity,
    ...(c.subject !== undefined ? { subject: c.subject } : {}),
    ...(c.code !== undefined ? { code: c.code } : {}),
    message: c.message,
    ...(c.expectedFailure ? { expected: c.expectedFailure.reason } : {}),
  };
}

function change(c: CheckResult, base: CheckResult | undefined, head: CheckResult | undefined, movedFrom?: (string | undefined)[]): CheckChange {
  return {
    id: c.id,
    ...(c.subject !== undefined ? { subject: c.subject } : {}),
    title: c.title,
    clause: c.clause,
    suite: c.suite,
    severity: (head ?? base ?? c).severity,
    ...(base ? { base: side(base) } : {}),
    ...(head ? { head: side(head) } : {}),
    ...(movedFrom ? { movedFrom } : {}),
  };
}

function summary(r: ComparableReport): RunSummary {
  return {
    target: r.target.name,
    baseUrl: r.target.baseUrl,
    tool: `${r.tool.name} ${r.tool.version}`,
    schemaVersion: r.schemaVersion,
    startedAt: r.startedAt,
    seed: r.seed,
    suites: r.options.suites,
    strict: r.options.strict,
    verdict: r.verdict,
    exitCode: r.exitCode,
    checks: r.checks.length,
    requests: r.requests.total,
  };
}

/** The behaviour without the run's own notes, which differ between runs of one limiter. */
export function limiterOf(behaviour: string): string {
  return behaviour.replace(/ \((?:Reset rounded with noise|the window turned during the burst)[^)]*\)/g, '');
}

function picture(k: RateLimitKey, checks: readonly CheckResult[]): KeyPicture {
  const at = k.timeline.findIndex((p) => p.status === 429);
  const first = k.timeline[0];
  const honoured = worstOf(checks.filter((c) => c.id === 'rate-limit.retry-after-honoured' && c.subject === k.label));
  let first429: KeyPicture['first429'];
  if (at !== -1) {
    const accepted = k.timeline.slice(0, at).filter((p) => isAccepted(p)).length;
    // The Remaining the key's first answer stated, after itself: what the window had left for the rest.
    const stated = first && isAccepted(first) && first.remaining !== undefined ? first.remaining + 1 : undefined;
    const retryAfter = k.timeline[at]!.retryAfter;
    first429 = { position: at + 1, accepted, ...(stated !== undefined ? { beyondRemaining: accepted - stated } : {}), ...(retryAfter !== undefined ? { retryAfter } : {}) };
  }
  return {
    plan: k.plan,
    limiter: limiterOf(k.behaviour),
    behaviour: k.behaviour,
    ...(first429 ? { first429 } : {}),
    ...(honoured ? { retryAfterHonoured: honoured.outcome } : {}),
    ...(k.day ? { day: { ended: k.day.ended, accepted: k.day.accepted, ...(k.day.block?.retryAfter !== undefined ? { retryAfter: k.day.block.retryAfter } : {}) } } : {}),
  };
}

/** What changed in a key's picture: the facts of the limiter, not the figures that differ from run to run (Retry-After's value, the day's count). */
function pictureChanges(a: KeyPicture, b: KeyPicture): string[] {
  const changed: string[] = [];
  if (a.limiter !== b.limiter) changed.push('limiter');
  const place = (p: KeyPicture) => (p.first429 ? (p.first429.beyondRemaining ?? `after ${p.first429.accepted}`) : 'none');
  if (place(a) !== place(b)) changed.push('first 429');
  if (a.retryAfterHonoured !== b.retryAfterHonoured) changed.push('Retry-After honoured');
  if (a.day?.ended !== b.day?.ended) changed.push('day');
  return changed;
}

function rateLimitChanges(base: ComparableReport, head: ComparableReport): KeyChange[] {
  const before = new Map((base.rateLimits ?? []).map((k) => [k.label, picture(k, base.checks)]));
  const after = new Map((head.rateLimits ?? []).map((k) => [k.label, picture(k, head.checks)]));
  const labels = [...new Set([...after.keys(), ...before.keys()])];
  return labels.map((label) => {
    const [b, h] = [before.get(label), after.get(label)];
    const changed = b && h ? pictureChanges(b, h) : b ? ['key removed'] : ['key added'];
    return { label, ...(b ? { base: b } : {}), ...(h ? { head: h } : {}), changed };
  });
}

/** Change from `base` to `head` in percent, one decimal; 0 when both are 0, undefined from 0 or without both. */
export function percentChange(base: number | undefined, head: number | undefined): number | undefined {
  if (base === undefined || head === undefined) return undefined;
  if (base === 0) return head === 0 ? 0 : undefined;
  return Math.round(((head - base) / base) * 1000) / 10;
}

function figure(base: number | undefined, head: number | undefined): Figure {
  const pct = percentChange(base, head);
  return { ...(base !== undefined ? { base } : {}), ...(head !== undefined ? { head } : {}), ...(pct !== undefined ? { changePct: pct } : {}) };
}

function latencyFigures(base: Partial<Record<(typeof LATENCY)[number], number>> | undefined, head: Partial<Record<(typeof LATENCY)[number], number>> | undefined): LatencyFigures {
  return Object.fromEntries(LATENCY.map((p) => [p, figure(base?.[p], head?.[p])])) as LatencyFigures;
}

function pacedLoadChange(base: ComparableReport, head: ComparableReport): PacedLoadChange | undefined {
  const [b, h] = [base.pacedLoad, head.pacedLoad];
  if (!b && !h) return undefined;
  const paced = (keys: readonly PacedLoadKey[] | undefined) => new Map((keys ?? []).filter((k) => !k.skipped).map((k) => [k.label, k]));
  const [before, after] = [paced(b?.keys), paced(h?.keys)];
  const keys = [...new Set([...after.keys(), ...before.keys()])].map((label) => {
    const [x, y] = [before.get(label), after.get(label)];
    return {
      label,
      askedRate: figure(x?.askedRate, y?.askedRate),
      achievedRate: figure(x?.achievedRate, y?.achievedRate),
      sent: figure(x?.sent, y?.sent),
      rejected: figure(x?.rejected, y?.rejected),
      latency: latencyFigures(x?.latency, y?.latency),
    };
  });
  return {
    overall: { sent: figure(b?.overall.sent, h?.overall.sent), errorRate: figure(b?.overall.errorRate, h?.overall.errorRate), latency: latencyFigures(b?.overall.latency, h?.overall.latency) },
    keys,
  };
}

function notesOf(base: ComparableReport, head: ComparableReport): string[] {
  const notes: string[] = [];
  if (base.target.name !== head.target.name) notes.push(`different targets: BASE ${base.target.name}, HEAD ${head.target.name}`);
  if (base.seed !== head.seed) notes.push(`different seeds (BASE ${base.seed}, HEAD ${head.seed}): property checks tried other cases`);
  const suites = (r: ComparableReport) => (r.options.suites.length > 0 ? r.options.suites.join(', ') : 'all');
  if (suites(base) !== suites(head)) notes.push(`different suites: BASE ${suites(base)}, HEAD ${suites(head)}: checks of a suite one run left out show as added or removed`);
  if (base.options.strict !== head.options.strict) notes.push(`--strict in ${head.options.strict ? 'HEAD' : 'BASE'} only`);
  if (base.schemaVersion !== head.schemaVersion) notes.push(`report schema ${base.schemaVersion} (BASE) and ${head.schemaVersion} (HEAD)`);
  return notes;
}

/** Compares two runs' reports. */
export function diffReports(base: ComparableReport, head: ComparableReport): ReportDiff {
  const inBase = counterparts(head.checks, base.checks);
  const inHead = counterparts(base.checks, head.checks);
  // Each result of HEAD with what stands for it in BASE, and the other way round.
  const headChange = new Map<CheckResult, CheckChange>();
  for (const c of head.checks) {
    const found = inBase(c);
    headChange.set(c, change(c, worstOf(found.results), c, found.movedFrom));
  }
  const baseChange = new Map<CheckResult, CheckChange>();
  for (const c of base.checks) {
    const found = inHead(c);
    // A result HEAD matched by id alone is shown as HEAD names it, with its old subjects.
    const standIn = worstOf(found.results);
    baseChange.set(c, found.movedFrom && standIn ? change(standIn, c, standIn, base.checks.filter((b) => b.id === c.id).map((b) => b.subject)) : change(c, c, standIn));
  }

  const strict = head.options.strict;
  const group = (root: CheckResult, explained: readonly CheckResult[], changes: Map<CheckResult, CheckChange>, judged: readonly CheckResult[]): ChangeGroup => ({
    root: changes.get(root)!,
    explained: explained.map((c) => changes.get(c)!),
    blocks: judged.some((c) => blocksVerdict(c, strict)),
    matters: judged.some(isFailure),
  });

  // HEAD's failures by root: the root decides new or still failing.
  const newFailures: ChangeGroup[] = [];
  const stillFailing: ChangeGroup[] = [];
  for (const g of failureGroups(head.checks, (c) => failing(c.outcome))) {
    const members = [g.root, ...g.explained];
    const made = group(g.root, g.explained, headChange, members);
    (failing(headChange.get(g.root)!.base?.outcome) ? stillFailing : newFailures).push(made);
  }
  // BASE's failures that pass in HEAD, by their root in BASE (a root that still fails keeps its own group above).
  const passesNow = (c: CheckResult) => failing(c.outcome) && baseChange.get(c)!.head?.outcome === 'pass';
  const seen = new Set<string>();
  const fixed: ChangeGroup[] = [];
  for (const g of failureGroups(base.checks, passesNow)) {
    const made = group(g.root, g.explained, baseChange, [g.root, ...g.explained]);
    // Several BASE results matched by id alone to one HEAD result are one fix.
    const key = resultKey(made.root);
    if (made.root.movedFrom && seen.has(key)) continue;
    seen.add(key);
    fixed.push({ ...made, blocks: false });
  }

  const headChanges = [...headChange.values()];
  const newlySkipped = headChanges.filter((c) => c.head?.outcome === 'skip' && c.base !== undefined && c.base.outcome !== 'skip');
  const added = headChanges.filter((c) => c.base === undefined);
  const removed = [...baseChange.values()].filter((c) => c.head === undefined);
  const severityChanged = headChanges.filter((c) => c.base !== undefined && c.base.severity !== c.head!.severity);
  const pacedLoad = pacedLoadChange(base, head);
  return {
    base: summary(base),
    head: summary(head),
    newFailures,
    fixed,
    stillFailing,
    newlySkipped,
    added,
    removed,
    severityChanged,
    rateLimits: rateLimitChanges(base, head),
    ...(pacedLoad ? { pacedLoad } : {}),
    notes: notesOf(base, head),
  };
}

/** What `--fail-on` gates on, each including the ones before it. */
export const FAIL_ON = ['new-must', 'new-should', 'new-any', 'changed'] as const;
export type FailOn = (typeof FAIL_ON)[number];

/** A still-failing check that fails otherwise now: error instead of fail, another code, another severity. */
const failsOtherwise = (c: CheckChange) => c.base !== undefined && c.head !== undefined && (c.base.outcome !== c.head.outcome || c.base.code !== c.head.code || c.base.severity !== c.head.severity);

/** Whether anything changed that `--fail-on changed` gates on: every change of the checks and of the rate-limit picture (latency figures aside). */
export function anythingChanged(d: ReportDiff): boolean {
  const stillOtherwise = d.stillFailing.some((g) => [g.root, ...g.explained].some((c) => failsOtherwise(c) || !failing(c.base?.outcome)));
  return d.newFailures.length + d.fixed.length + d.newlySkipped.length + d.added.length + d.removed.length + d.severityChanged.length > 0 || stillOtherwise || d.rateLimits.some((k) => k.changed.length > 0);
}

/** The diff's exit status: 1 when what `failOn` names happened, else 0. */
export function gateFails(d: ReportDiff, failOn: FailOn): boolean {
  switch (failOn) {
    case 'new-must':
      return d.newFailures.some((g) => g.blocks);
    case 'new-should':
      return d.newFailures.some((g) => g.blocks || g.matters);
    case 'new-any':
      return d.newFailures.length > 0;
    case 'changed':
      return anythingChanged(d);
  }
}

/** No check appeared, went, changed its outcome or its severity (still-failing checks aside). */
export function checksUnchanged(d: ReportDiff): boolean {
  return d.newFailures.length + d.fixed.length + d.stillFailing.length + d.newlySkipped.length + d.added.length + d.removed.length + d.severityChanged.length === 0;
}

/** The checks a list of groups holds, roots and the failures they explain. */
const checksIn = (groups: readonly ChangeGroup[]) => groups.reduce((n, g) => n + 1 + g.explained.length, 0);

/** "2 new failures (+36 they explain), 1 fixed, 0 still failing": the first line of every rendering. */
export function verdictText(d: ReportDiff): string {
  const part = (groups: readonly ChangeGroup[], noun: string) => {
    const more = checksIn(groups) - groups.length;
    return `${noun}${more > 0 ? ` (+${more} ${groups.length === 1 ? 'it explains' : 'they explain'})` : ''}`;
  };
  return [part(d.newFailures, counted(d.newFailures.length, 'new failure')), part(d.fixed, `${d.fixed.length} fixed`), part(d.stillFailing, `${d.stillFailing.length} still failing`)].join(', ');
}

/** The worst severity of a group, for ordering and for the reader. */
export function groupSeverity(g: ChangeGroup): Severity {
  return SEVERITIES[Math.min(...[g.root, ...g.explained].map((c) => SEVERITIES.indexOf(c.severity)))]!;
}
