/**
 * Gives each source message its id: the source's own `id` when it has a unique one, else
 * `m<index>`. Ids are unique within a conversation and the same every time a file is read.
 */
export function createMessageIds(): (sourceId: unknown, index: number) => string {
  const used = new Set<string>();
  return (sourceId, index) => {
    let id = typeof sourceId === 'string' && sourceId !== '' && !used.has(sourceId) ? sourceId : `m${index}`;
    for (let suffix = 1; used.has(id); suffix += 1) id = `m${index}-${suffix}`;
    used.add(id);
    return id;
  };
}
