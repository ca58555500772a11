import { messageText } from '@ollm/core';
import type { BenchConversation } from './fixture-set.js';
import { addProbe, type Probe } from './probe.js';

const HUNK_HEADER = /^@@ [^@]* @@(.*)$/;
const DEFINITION = /\b(?:def|class)\s+([A-Za-z_]\w*)/;

/** Files (`+++ b/<path>`) and function/class names (hunk headers, added/removed definitions) of a git diff. */
export function patchProbes(patch: string): Probe[] {
  const probes: Probe[] = [];
  for (const line of patch.split('\n')) {
    if (line.startsWith('+++ ')) {
      const path = line.slice(4).trim();
      if (path !== '/dev/null') addProbe(probes, 'file', path.startsWith('b/') ? path.slice(2) : path);
      continue;
    }
    if (line.startsWith('--- ')) continue;
    const hunk = HUNK_HEADER.exec(line);
    if (hunk) {
      const name = DEFINITION.exec(hunk[1] ?? '')?.[1];
      if (name) addProbe(probes, 'symbol', name);
      continue;
    }
    if (line.startsWith('+') || line.startsWith('-')) {
      const name = /^[+-]\s*(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)/.exec(line)?.[1];
      if (name) addProbe(probes, 'symbol', name);
    }
  }
  return probes;
}

/**
 * The FAIL_TO_PASS tests of a SWE-bench report. A Django test is named
 * `test_method (module.Class)`; the method name is what a transcript mentions, so that is the
 * probe (a docstring-named test is kept whole).
 */
export function failingTestProbes(report: unknown, instanceId: string): Probe[] {
  const probes: Probe[] = [];
  const entry = (report as Record<string, { tests_status?: { FAIL_TO_PASS?: { success?: string[]; failure?: string[] } } }> | undefined)?.[instanceId];
  const failToPass = entry?.tests_status?.FAIL_TO_PASS;
  for (const name of [...(failToPass?.success ?? []), ...(failToPass?.failure ?? [])]) {
    const method = /^(test\w*) \(/.exec(name)?.[1];
    addProbe(probes, 'failing-test', method ?? name);
  }
  return probes;
}

/** CamelCase, snake_case, dunder and dotted identifiers of a task statement. */
export function taskIdentifierProbes(task: string): Probe[] {
  const probes: Probe[] = [];
  for (const match of task.matchAll(/[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+/g)) {
    const segments = match[0].split('.');
    // `e.g` and `i.e` are prose; a dotted name has segments of two characters or more.
    if (segments.every((segment) => segment.length >= 2)) addProbe(probes, 'task-identifier', match[0]);
  }
  for (const match of task.matchAll(/\b[A-Za-z_]\w*\b/g)) {
    const word = match[0];
    const camel = /[a-z][A-Z]/.test(word) || /^[A-Z]{2,}[a-z]/.test(word);
    const snake = /[A-Za-z0-9]_+[A-Za-z0-9]/.test(word) && /[A-Za-z]/.test(word);
    const dunder = /^__[A-Za-z]\w*__$/.test(word);
    if (camel || snake || dunder) addProbe(probes, 'task-identifier', word);
  }
  return probes;
}

/** The `<pr_description>` of the first user message (the task as the agent received it). */
export function taskStatement(conversation: BenchConversation): string {
  const first = conversation.messages.find((message) => message.role === 'user');
  const text = first ? messageText(first) : '';
  const described = /<pr_description>([\s\S]*?)<\/pr_description>/.exec(text);
  return described?.[1] ?? text;
}

/** Every probe of one SWE-agent trajectory: patch files and names, failing tests, task identifiers. */
export function sweAgentProbes(conversation: BenchConversation): Probe[] {
  const source = conversation.source as { instance_id?: string; info?: { submission?: string } };
  const probes = patchProbes(source.info?.submission ?? '');
  if (conversation.report !== undefined) probes.push(...failingTestProbes(conversation.report, source.instance_id ?? conversation.id));
  probes.push(...taskIdentifierProbes(taskStatement(conversation)));
  return probes;
}
