import { describe, expect, it } from 'vitest';
import { Budget } from '../../../lib/client/budget.ts';
import { BudgetExhaustedError } from '../../../lib/errors.ts';

describe('Budget', () => {
  it('counts requests taken and those remaining', () => {
    const budget = new Budget(3);
    budget.take();
    budget.take();
    expect([budget.used, budget.remaining]).toEqual([2, 1]);
  });

  it('throws BudgetExhaustedError naming the cap once it is spent, and counts nothing more', () => {
    const budget = new Budget(2);
    budget.take();
    budget.take();
    expect(() => budget.take()).toThrow(BudgetExhaustedError);
    expect(() => budget.take()).toThrow('request budget of 2 is spent');
    expect([budget.used, budget.remaining]).toEqual([2, 0]);
  });

  it('starts from requests already spent', () => {
    const budget = new Budget(5, 5);
    expect(budget.remaining).toBe(0);
    expect(() => budget.take()).toThrow(BudgetExhaustedError);
  });
});
