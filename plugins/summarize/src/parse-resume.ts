/** The four sections gptme's RESUME has. */
export const RESUME_SECTIONS = ['Summary', 'Technical Context', 'Current State', 'Context Files'] as const;

export interface ParsedResume {
  /** Sections found, by title. */
  readonly sections: ReadonlyMap<string, string>;
  readonly missing: readonly string[];
  /** Paths listed under `## Context Files`, in order, without duplicates. */
  readonly contextFiles: readonly string[];
}

/** Splits a RESUME at its `## ` headings and reads the context file list. */
export function parseResume(text: string): ParsedResume {
  const sections = new Map<string, string>();
  let title: string | undefined;
  let body: string[] = [];
  const close = () => {
    if (title !== undefined) sections.set(title, body.join('\n').trim());
  };
  for (const line of text.split(/\r?\n/)) {
    const heading = /^#{1,3}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      close();
      title = RESUME_SECTIONS.find((name) => name.toLowerCase() === heading[1]!.toLowerCase().replace(/:$/, '')) ?? heading[1]!;
      body = [];
    } else body.push(line);
  }
  close();
  const files = (sections.get('Context Files') ?? '')
    .split('\n')
    .map(pathOfLine)
    .filter((path): path is string => path !== undefined);
  return {
    sections,
    missing: RESUME_SECTIONS.filter((name) => !sections.has(name)),
    contextFiles: [...new Set(files)],
  };
}

/** `- src/a.py — why`, `* \`src/a.py\``, `1. src/a.py (why)` -> `src/a.py`. */
function pathOfLine(line: string): string | undefined {
  const item = /^\s*(?:[-*+]|\d+[.)])?\s*`?([^\s`]+)`?/.exec(line);
  const path = item?.[1]?.replace(/[,:;]$/, '');
  if (!path || /^\(?none\)?$/i.test(path) || !/[\w]/.test(path)) return undefined;
  return path;
}
