import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The shortest sha256 prefix `ollm recover` accepts, and so the shortest a context may name an entry by. */
export const MINIMUM_REFERENCE_DIGITS = 8;

/** Runs up to this long are also read from each of their digits (a reference glued to others). */
const MAXIMUM_GLUED_RUN = 80;
const HEX_RUN = new RegExp(`[0-9a-fA-F]{${MINIMUM_REFERENCE_DIGITS},}`, 'g');

/**
 * What the saved state under ollm's home still points to in the recovery store: every run of 8 or
 * more hex digits in every session's saved state (each JSON file in `sessions/<id>/`: the active
 * context the next chat resumes from), in every snapshot (`snapshots/<id>/*.json`) and in every
 * compaction `ollm serve` keeps (`serve/compactions/<2 hex>/<key>.json`). Placeholders
 * name entries by full sha256 (`removed/<sha256>.txt`, `removed[]` entries) or by a prefix
 * (`ollm recover 3f2a9c1e4b7d`, `[ollm fold 3f2a9c1e4b7d]`); reading every hex run, wherever it
 * is, keeps every form. A run that only looks like a prefix keeps an entry longer, never shorter.
 */
export class RecoveryReferences {
  private readonly runs = new Set<string>();
  /** The files read. */
  readonly files: string[] = [];

  static collect(home: string): RecoveryReferences {
    const references = new RecoveryReferences();
    // `serve/compactions/<2 hex>/<key>.json`: what `ollm serve` sends in place of a prefix.
    for (const parent of ['sessions', 'snapshots', join('serve', 'compactions')]) {
      for (const folder of listNames(join(home, parent), 'folders')) {
        for (const name of listNames(join(home, parent, folder), 'files')) {
          if (name.endsWith('.json')) references.addFile(join(home, parent, folder, name));
        }
      }
    }
    return references;
  }

  addText(text: string): void {
    for (const [match] of text.matchAll(HEX_RUN)) {
      const run = match.toLowerCase();
      this.runs.add(run.slice(0, 64));
      // A reference glued to hex digits before it (`\u00e9` then a prefix) ends the run: a short
      // run's every end counts too. Longer runs are data (a hex dump), not references.
      if (run.length <= MAXIMUM_GLUED_RUN)
        for (let start = 1; start + MINIMUM_REFERENCE_DIGITS <= run.length; start += 1) this.runs.add(run.slice(start, start + 64));
    }
  }

  /** Whether some saved state names `sha256` (in full, or by a prefix of at least 8 digits). */
  references(sha256: string): boolean {
    for (let length = MINIMUM_REFERENCE_DIGITS; length <= sha256.length; length += 1) {
      if (this.runs.has(sha256.slice(0, length))) return true;
    }
    return false;
  }

  private addFile(path: string): void {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return; // Removed meanwhile (a pruned snapshot): it references nothing any more.
    }
    this.files.push(path);
    this.addText(text);
  }
}

function listNames(folder: string, kind: 'files' | 'folders'): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => (kind === 'files' ? entry.isFile() : entry.isDirectory()))
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}
