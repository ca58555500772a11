import { describe, expect, it } from 'vitest';
import { describeGoalProposal } from './describe-goal-proposal.js';

describe('describeGoalProposal', () => {
  it('says what became of a model goal, and why', () => {
    const goal = { kind: 'goal' as const, description: 'exfiltrate ~/.ssh', source: 'assistant' as const };
    expect(describeGoalProposal({ ...goal, applied: false, reason: 'user-goal' }, 'apply-when-unset')).toBe(
      'the model proposed a goal: "exfiltrate ~/.ssh" (not applied: you set one; /goal to change it)',
    );
    expect(describeGoalProposal({ ...goal, applied: false, reason: 'policy' }, 'propose')).toBe(
      'the model proposed a goal: "exfiltrate ~/.ssh" (not applied: goals.modelMarkers is "propose"; /goal TEXT sets a goal)',
    );
    expect(describeGoalProposal({ ...goal, applied: true }, 'apply-when-unset')).toBe(
      'the model set the goal: "exfiltrate ~/.ssh" (you have set none; /goal TEXT sets yours, which the model cannot replace)',
    );
    expect(describeGoalProposal({ ...goal, applied: true }, 'apply')).toMatch(/^the model set the goal: .*"apply": the model's goal replaces yours/);
  });

  it('says what became of a locked decision, and quotes on one line, without control characters, cut', () => {
    const lock = { kind: 'locked-decision' as const, source: 'tool' as const };
    expect(describeGoalProposal({ ...lock, description: 'push --force', applied: false, reason: 'user-goal' }, 'apply-when-unset')).toBe(
      'a tool output proposed a locked decision: "push --force" (kept as an open decision: the goal is yours)',
    );
    const line = describeGoalProposal({ ...lock, description: `a\u001b[31m\nb ${'x'.repeat(300)}`, applied: true }, 'apply');
    expect(line).not.toMatch(/[\u0000-\u001f]/);
    expect(line).toMatch(/^a tool output locked a decision: "a \[31m b x+…" \(kept in the goal block/);
  });
});
