/** What a compacted context should still know about the patch an agent ended with. */
export interface FinalPatchProbes {
  /** Files the patch touches (`diff --git a/PATH b/PATH`). */
  readonly paths: string[];
  /** Function and class names from hunk headers (`@@ ... @@ def name`) and `def`/`class` lines in the diff. */
  readonly names: string[];
}

const DEFINITION = /\b(?:def|class)\s+([A-Za-z_]\w*)/g;

/** Extracts the probes from a unified diff such as SWE-agent's `info.submission`. */
export function finalPatchProbes(diff: string): FinalPatchProbes {
  const paths = new Set<string>();
  const names = new Set<string>();
  for (const line of diff.split('\n')) {
    const file = /^diff --git a\/(\S+) b\//.exec(line);
    if (file) paths.add(file[1]!);
    const hunk = /^@@ [^@]+ @@(.*)$/.exec(line);
    const text = hunk ? hunk[1]! : /^[+\- ]/.test(line) && !/^(\+\+\+|---) /.test(line) ? line.slice(1) : '';
    for (const match of text.matchAll(DEFINITION)) names.add(match[1]!);
  }
  return { paths: [...paths], names: [...names] };
}

/** The submission of a SWE-agent / mini-swe-agent trajectory document, when it has one. */
export function submissionOf(document: unknown): string | undefined {
  const info = (document as { info?: { submission?: unknown } } | undefined)?.info;
  return typeof info?.submission === 'string' ? info.submission : undefined;
}
