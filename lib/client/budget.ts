import { BudgetExhaustedError } from '../errors.ts';

/** The hard cap on requests in one run (budget.maxRequests / --max-requests). */
export class Budget {
  constructor(
    readonly maxRequests: number,
    private spent = 0,
  ) {}

  get used(): number {
    return this.spent;
  }

  get remaining(): number {
    return Math.max(0, this.maxRequests - this.spent);
  }

  /** Reserves one request or throws BudgetExhaustedError; called before anything is sent. */
  take(): void {
    if (this.spent >= this.maxRequests) throw new BudgetExhaustedError(this.maxRequests);
    this.spent += 1;
  }
}
