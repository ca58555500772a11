import type { LanguageId } from './language-id.js';

interface LanguageSignal {
  readonly language: LanguageId;
  readonly pattern: RegExp;
}

// Ordered from most to least distinctive: the first signal found on any line wins.
const SIGNALS: readonly LanguageSignal[] = [
  { language: 'python', pattern: /^\s*(def \w+\(.*\).*:|class \w+(\(.*\))?:|from [\w.]+ import |import [\w.]+(, [\w.]+)*$|if __name__ == )/ },
  { language: 'go', pattern: /^(package \w+$|func (\(\w+ \*?\w+\) )?\w+\(|import \($)/ },
  { language: 'rust', pattern: /^\s*(pub(\(crate\))? )?(fn \w+|impl\b|struct \w+|enum \w+|use [\w:]+(::\{.*\})?;|mod \w+;)/ },
  { language: 'java', pattern: /^\s*(public|private|protected) (static )?(final )?(class|interface|enum|void|[A-Z]\w*(<.*>)?) \w+|^package [\w.]+;/ },
  { language: 'typescript', pattern: /^\s*(export )?(interface \w+|type \w+ = |(async )?function \w+\(.*\): )|^import type / },
  { language: 'javascript', pattern: /^\s*(export (default )?)?((async )?function \w+\(|const \w+ = (async )?\(.*\) =>|import .* from ['"]|module\.exports)/ },
  { language: 'cpp', pattern: /^#include [<"]|^\s*(template ?<|namespace \w+|std::)|^(static )?(int|void|char|size_t|bool) \**\w+\(/ },
  { language: 'bash', pattern: /^#!\/(usr\/)?bin\/(env )?(ba|z)?sh|^\s*(\w+\(\) \{|fi$|done$|esac$)/ },
];

/**
 * Guesses the language of a code snippet that came without a path or fence tag, from lines
 * only one language writes that way. Undefined when no line is distinctive enough.
 */
export function guessLanguage(code: string): LanguageId | undefined {
  const lines = code.split('\n', 400);
  for (const signal of SIGNALS) {
    if (lines.some((line) => signal.pattern.test(line))) return signal.language;
  }
  return undefined;
}
