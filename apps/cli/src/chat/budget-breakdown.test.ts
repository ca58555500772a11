import { ContextManager, ProviderRegistry } from '@ollm/runtime';
import { describe, expect, it } from 'vitest';
import { budgetBreakdown } from './budget-breakdown.js';

function managerWithQuotes(): ContextManager {
  const manager = new ContextManager({ contextSize: 8_192, registry: new ProviderRegistry(), systemPrompt: 'You are terse.' });
  manager.restoreState({
    systemPrompt: 'You are terse.',
    messages: [{ id: 'u2', role: 'user', parts: [{ type: 'text', text: 'and now?' }] }],
    foldedQuotes: [{ messageId: 'u1', text: 'Here is the whole stack trace of the crash we saw this morning, '.repeat(12) }],
    compactionCount: 1,
  });
  return manager;
}

describe('/status: what the system message holds', () => {
  it('shows no goal tokens without a goal: folded user quotes are a row of their own', async () => {
    const parts = await budgetBreakdown(managerWithQuotes());
    expect(parts.goal).toBe(0);
    expect(parts.quotes).toBeGreaterThan(100);
  });

  it('counts the goal block as the goal, the quotes apart', async () => {
    const manager = managerWithQuotes();
    const before = await budgetBreakdown(manager);
    manager.setGoal('fix the crash');
    const parts = await budgetBreakdown(manager);
    expect(parts.goal).toBeGreaterThan(5);
    expect(parts.goal).toBeLessThan(40);
    expect(Math.abs(parts.quotes - before.quotes)).toBeLessThanOrEqual(3);
  });
});
