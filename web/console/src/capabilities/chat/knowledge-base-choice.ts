/**
 * Which knowledge bases the playground starts with ticked: the ones last chosen in this browser
 * (per workspace, in localStorage) that still exist, else the first there is. Starting with none
 * ticked made the offline model answer that it needs one, the first thing a new user saw.
 */
const keyFor = (workspace: string) => `kbqa.chat.knowledge-bases.${workspace}`;

export function rememberedKnowledgeBases(workspace: string): string[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(keyFor(workspace)) ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

export function rememberKnowledgeBases(workspace: string, ids: readonly string[]) {
  localStorage.setItem(keyFor(workspace), JSON.stringify(ids));
}

/** The ticked ids to start with, given the workspace's knowledge bases in the order they are listed. */
export function initialKnowledgeBases(available: readonly string[], remembered: readonly string[]): string[] {
  const kept = remembered.filter((id) => available.includes(id));
  if (kept.length > 0) return kept;
  return available.length > 0 ? [available[0]!] : [];
}
