import { join } from 'node:path';
import { REPOSITORY_ROOT, allConversations, loadFixtures, type BenchConversation } from './fixture-set.js';

/** The repository's own fixture copies: tests must pass where ../shared does not exist. */
export const REPOSITORY_FIXTURES = join(REPOSITORY_ROOT, 'fixtures');

export async function repositoryConversation(id: string): Promise<BenchConversation> {
  const set = await loadFixtures({ folder: REPOSITORY_FIXTURES, origin: 'repository' });
  const found = allConversations(set).find((conversation) => conversation.id === id);
  if (!found) throw new Error(`No fixture conversation ${id}`);
  return found;
}
