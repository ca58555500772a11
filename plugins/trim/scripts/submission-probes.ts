/**
 * What a compacted coding-agent context should still know about the patch the agent ended with:
 * the file paths it touches, the function/class named in each hunk header, and the def/class
 * names it adds.
 */
export function submissionProbes(diff: string): { paths: string[]; names: string[] } {
  const paths = new Set<string>();
  const names = new Set<string>();
  for (const line of diff.split('\n')) {
    const path = /^\+\+\+ b\/(.+)$/.exec(line);
    if (path) {
      paths.add(path[1]!.trim());
      continue;
    }
    const hunk = /^@@ [^@]* @@(.*)$/.exec(line);
    if (hunk) {
      const context = hunk[1]!.trim();
      const declared = /\b(?:def|class)\s+(\w+)/.exec(context);
      if (declared) names.add(declared[1]!);
      else if (context.length > 0) names.add(context);
      continue;
    }
    const added = /^\+(?!\+\+)\s*(?:async\s+)?(?:def|class)\s+(\w+)/.exec(line);
    if (added) names.add(added[1]!);
  }
  return { paths: [...paths], names: [...names] };
}
