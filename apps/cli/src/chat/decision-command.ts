import type { ChatSession } from './chat-session.js';
import type { SlashCommand } from './slash-command.js';

/**
 * `/decision`: the goal's decisions, which only the user locks. `/decision lock TEXT` locks one
 * (a model's proposal with that text becomes the user's), `/decision TEXT` records an open one,
 * `/decision drop TEXT` removes one (a proposal the user rejects), `/decision` lists them.
 */
export const decisionCommand: SlashCommand = {
  name: 'decision',
  usage: '[lock TEXT|drop TEXT|TEXT]',
  summary: "the goal's decisions: lock one (only you lock them), record, drop a model's proposal, list",
  run(session, argument) {
    const [first = '', ...rest] = argument.trim().split(/\s+/);
    const text = rest.join(' ');
    if (argument.trim().length === 0) return listDecisions(session);
    if ((first === 'lock' || first === 'drop') && text.length === 0) {
      session.print(`Usage: /decision ${first} TEXT.`);
      return;
    }
    if (first === 'drop') {
      session.print(session.manager.dropDecision(text) ? `Decision dropped: ${text}` : `No decision "${text}" (see /decision).`);
      return;
    }
    const locked = first === 'lock';
    const description = locked ? text : argument.trim();
    if (!session.manager.decide(description, locked)) {
      session.print('No goal to hold the decision: set one with /goal TEXT.');
      return;
    }
    session.print(locked ? `Decision locked: ${description} (kept in the goal block; the model will not revisit it)` : `Decision recorded: ${description}`);
  },
};

function listDecisions(session: ChatSession): void {
  const goal = session.manager.goals.state;
  if (!goal) {
    session.print('No goal yet: decisions belong to a goal (/goal TEXT).');
    return;
  }
  if (goal.decisions.length === 0) {
    session.print('No decisions yet: /decision lock TEXT locks one.');
    return;
  }
  for (const decision of goal.decisions) {
    const kind = decision.locked ? 'locked  ' : decision.by === 'model' ? 'proposed' : 'open    ';
    session.print(`${kind}  ${decision.description}${decision.by === 'model' && !decision.locked ? "  (the model's: /decision lock or /decision drop)" : ''}`);
  }
}
