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

  /** Reserves n requests at once (a load burst) or throws, reserving nothing. */
  reserve(n: number): void {
    if (this.spent + n > this.maxRequests) throw new BudgetExhaustedError(this.maxRequests);
    this.spent += n;
  }

  /** Gives back what a reservation did not use. */
  refund(n: number): void {
    this.spent = Math.max(0, this.spent - n);
  }

  /** Reserves one request or throws BudgetExhaustedError; called before anything is sent. */
  take(): void {
    if (this.spent >= this.maxRequests) throw new BudgetExhaustedError(this.maxRequests);
    this.spent += 1;
  }
}
