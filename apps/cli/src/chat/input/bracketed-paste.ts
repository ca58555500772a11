import type { Interface } from 'node:readline';

/** Asks the terminal to wrap pastes in `ESC[200~` … `ESC[201~`, which Node's keypress decoder names `paste-start` and `paste-end`. */
export const enableBracketedPaste = '\x1b[?2004h';
export const disableBracketedPaste = '\x1b[?2004l';

/**
 * A paste's text as it will be submitted: terminals send pasted newlines as `\r`, so every line
 * ending becomes `\n`; trailing line endings are dropped so the cursor lands on the last line.
 */
export function normalizePaste(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/\n+$/, '');
}

/**
 * Types a paste into readline at the cursor. Each newline in it ends a line through readline's
 * own line handling (so the screen and the 'line' event stay consistent); the caller recognises
 * those lines as pasted. The text after the cursor moves to the end of the paste, as in an editor.
 */
export function insertPaste(readline: Interface, text: string): void {
  const after = readline.line.slice(readline.cursor);
  // Deleting the rest first matters: readline appends at the end of the line in the middle of a chunk.
  if (after.length > 0) readline.write(null, { ctrl: true, name: 'k' });
  readline.write(text);
  if (after.length === 0) return;
  readline.write(after);
  for (let index = 0; index < [...after].length; index += 1) readline.write(null, { name: 'left' });
}
