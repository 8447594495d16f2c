// Is anything answering at baseUrl? One unauthenticated GET /pets before the suites: any HTTP
// status means yes (a conforming server says 401). Only a failure to get a response at all makes
// the run exit 3.
import { ApiClient } from '../client/client.ts';
import { Budget } from '../client/budget.ts';
import { targetClientOptions } from '../client/for-target.ts';
import { reachable } from '../checks/target.ts';
import { toCheckResult } from '../checks/to-check-result.ts';
import type { Target } from '../config/schema.ts';
import { describeError, TransportError } from '../errors.ts';
import type { CheckResult } from '../result/model.ts';
import type { Exchange } from '../result/exchange.ts';

export interface Probe {
  reachable: boolean;
  /** Requests sent: the suites number theirs from here. */
  sent: number;
  check: CheckResult;
}

export async function probeTarget(target: Target, maxRequests: number, onExchange: (e: Exchange) => void): Promise<Probe> {
  const exchanges: Exchange[] = [];
  const client = new ApiClient({
    ...targetClientOptions(target),
    budget: new Budget(maxRequests),
    suite: 'probe',
    onExchange: (e) => {
      exchanges.push(e);
      onExchange(e);
    },
  });
  const result = (answer: Parameters<typeof reachable.judge>[0]) =>
    toCheckResult(reachable, reachable.judge(answer), { subject: 'GET /pets', durationMs: exchanges.reduce((t, e) => t + e.durationMs, 0), exchanges });
  try {
    const res = await client.sendOnce({ method: 'GET', path: '/pets', auth: { none: true } });
    return { reachable: true, sent: client.sent, check: result({ status: res.status }) };
  } catch (err) {
    if (!(err instanceof TransportError)) throw err;
    return { reachable: false, sent: client.sent, check: result({ transportError: describeError(err) }) };
  } finally {
    await client.close();
  }
}
