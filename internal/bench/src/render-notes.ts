import type { BenchReport } from './bench-report.js';
import type { CompactionSummary } from './compaction-summary.js';

function find(report: BenchReport, kind: string, target: number, strategy: string): CompactionSummary | undefined {
  return report.compaction.summaries.find((summary) => summary.kind === kind && summary.target === target && summary.strategy === strategy);
}

/** Lost probes of one strategy on SWE-agent at `target`, counted by probe kind. */
function lostByKind(report: BenchReport, target: number, strategy: string): string {
  const counts = new Map<string, number>();
  for (const entry of report.compaction.cases) {
    if (entry.kind !== 'swe-agent' || entry.target !== target || entry.strategy !== strategy) continue;
    for (const probe of entry.lostProbes) {
      const kind = probe.slice(0, probe.indexOf(':'));
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
  }
  return (
    [...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([kind, count]) => `${kind} ${count}`)
      .join(', ') || 'none'
  );
}

function share(part: number, whole: number): string {
  return `${part}/${whole}`;
}

/** What the tables cannot say by themselves; the counts come from the report. */
export function renderNotes(report: BenchReport): string[] {
  const lines = ['## 7. Reading the comparison', ''];
  const human = find(report, 'swe-agent', 0.5, 'langchain trimMessages (startOn human)');
  const humanOrAi = find(report, 'swe-agent', 0.5, 'langchain trimMessages (startOn human/ai)');
  const prune = find(report, 'swe-agent', 0.5, 'ai-sdk pruneMessages');
  const pipeline = find(report, 'swe-agent', 0.25, 'mask,code-aware,trim');
  if (human) {
    lines.push(
      `- **LangChain \`startOn: "human"\`** (its documented setting for chat models): a SWE-agent transcript has one human message, the task, at the start. ` +
        `When the tail beginning there does not fit, \`trimMessages\` with \`includeSystem: true\` returns \`[undefined]\` (@langchain/core 1.4.0), so even the system prompt is gone: ` +
        `${share(human.brokenRules['system-unchanged'] ?? 0, human.conversations)} SWE-agent outputs at 50% have no system prompt.`,
    );
  }
  if (humanOrAi) {
    lines.push(
      `- **LangChain \`startOn: ["human", "ai"]\`** reaches every target with tool calls still paired, but drops the task statement (\`user-unchanged\` in ${share(humanOrAi.brokenRules['user-unchanged'] ?? 0, humanOrAi.conversations)}); ` +
        `probes lost at 50%, by kind: ${lostByKind(report, 0.5, humanOrAi.strategy)}.`,
    );
  }
  if (prune) {
    lines.push(
      `- **AI SDK \`pruneMessages\`** has no token target: it removes every tool call and result before the last message (pairs together, so the output is valid) and keeps the assistant's prose. ` +
        `Its retention counts file and function names the agent's own prose repeats (${prune.pooledRetention === undefined ? '—' : `${Math.round(prune.pooledRetention * 100)}%`} pooled on SWE-agent; lost: ${lostByKind(report, 0.5, prune.strategy)}), but no file view, test run or error output remains.`,
    );
  }
  if (pipeline) {
    lines.push(
      `- **ollm** providers never edit system, user or pinned messages and never drop a tool call, so the task and its identifiers always survive and every output passes the integrity rules; ` +
        `the same rule is why they stop short of 25% (the pipeline reached it in ${share(pipeline.reachedLimit, pipeline.conversations)} SWE-agent transcripts): what is left is the task, the agent's prose and its tool calls (file writes). ` +
        'The model-based providers (goal-aware, summarize) are the next stage for that; section 3 measures goal-aware.',
    );
  }
  lines.push(
    '- Times come from a shared, loaded 2-core machine (see the load average above): compare strategies within one run, not across runs. ' +
      "ollm's time includes `compactWith`'s validation of the output and the source digest (sha256 over the canonical form of the input).",
    '',
  );
  return lines;
}
