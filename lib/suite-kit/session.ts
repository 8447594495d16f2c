// The worker side of a run. All suites run in one worker, one file at a time (modules are shared
// between files), so one session serves them all: one client (the budget and the request sequence
// are shared), and one event channel to the runner, which records its events as artifacts on the
// test being run (or, during a suite's preparation, on the suite's first test).
import { recordArtifact, inject } from 'vitest';
import type { RunnerTestCase } from 'vitest';
import { ApiClient } from '../client/client.ts';
import { Budget } from '../client/budget.ts';
import { targetClientOptions } from '../client/for-target.ts';
import { EVENTS_ARTIFACT, type HarnessEvent } from './events.ts';
import { AcceptedLedger, dayOfTarget } from './ledger.ts';
import { type RunContext, runStart } from '../config/run-context.ts';
import { ReadBack } from './read-back.ts';

/** Exchanges are sent in batches of at most this many; anything else is sent at once. */
const BATCH = 100;

export class EventChannel {
  private buffer: HarnessEvent[] = [];
  private task: RunnerTestCase | undefined;
  private pending: Promise<unknown>[] = [];

  constructor(private readonly echo?: (line: string) => void) {}

  /** From now on, events are recorded on this test. */
  attach(task: RunnerTestCase): void {
    this.task = task;
  }

  emit(event: HarnessEvent): void {
    this.buffer.push(event);
    if (event.kind === 'progress') this.echo?.(event.line);
    if (event.kind !== 'exchange' || this.buffer.length >= BATCH) this.send();
  }

  /** Everything emitted so far has reached the runner. */
  async flush(): Promise<void> {
    this.send();
    const pending = this.pending;
    this.pending = [];
    await Promise.all(pending);
  }

  private send(): void {
    const task = this.task;
    if (!task || this.buffer.length === 0) return;
    const events = this.buffer;
    this.buffer = [];
    this.pending.push(
      recordArtifact(task, { type: EVENTS_ARTIFACT, events }).then((artifact) => {
        // Delivered: the worker need not keep every exchange of the run in the test's artifacts.
        const at = task.artifacts.indexOf(artifact);
        if (at !== -1) task.artifacts.splice(at, 1);
      }),
    );
  }
}

export class Session {
  readonly client: ApiClient;
  readonly channel: EventChannel;
  /** Every key's accepted requests of the run, whichever suite sent them (the day is counted from it). */
  readonly accepted: AcceptedLedger;
  /** The run's read-backs of what it wrote, on the system clock: they wait for a store whose reads lag its writes. */
  readonly readBack = new ReadBack();

  constructor(readonly run: RunContext) {
    this.channel = new EventChannel(run.echoProgress ? (line) => console.info(line) : undefined);
    this.accepted = new AcceptedLedger(dayOfTarget(run.target));
    this.client = new ApiClient({
      ...targetClientOptions(run.target),
      budget: new Budget(run.maxRequests, run.requestsBefore),
      deadline: run.deadline,
      knownSince: runStart(run),
      requestsOf: (label) => this.accepted.sent(label),
      acceptedOf: (label) => this.accepted.acceptedAt(label),
      seqStart: run.requestsBefore,
      onExchange: (exchange) => {
        this.accepted.add(exchange);
        this.channel.emit({ kind: 'exchange', exchange });
      },
      onWait: (ms, reason) => this.progress(`waiting ${Math.ceil(ms / 1000)} s: ${reason}`),
    });
  }

  /** A check or a suite's preparation begins: its requests are counted under `suite`. */
  enter(task: RunnerTestCase, suite: string): void {
    this.client.suite = suite;
    this.channel.attach(task);
  }

  progress(line: string): void {
    this.channel.emit({ kind: 'progress', suite: this.client.suite, line });
  }
}

let current: Session | undefined;

/** The run's session, created on first use in this worker. */
export function session(): Session {
  current ??= new Session(inject('run'));
  return current;
}
