/**
 * One message from the user, however it was entered. `text` is exact: indentation and inner
 * newlines kept, no trailing newline.
 */
export interface ChatInput {
  readonly text: string;
  /** `line`: one line; `paste`: contains a bracketed paste; `continued`: lines joined by a trailing `\`. */
  readonly source: 'line' | 'paste' | 'continued';
}
