/**
 * The conversations this browser started, newest first. The API has no route that lists a
 * workspace's conversations (only get, items, delete by id), so the console remembers the ids it
 * created, per workspace, in localStorage; the content stays on the server.
 */
export type KnownConversation = { id: string; title: string; created_at: number };

const keyFor = (workspace: string) => `kbqa.conversations.${workspace}`;
const LIMIT = 50;

export function knownConversations(workspace: string): KnownConversation[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(keyFor(workspace)) ?? '[]') as unknown;
    return Array.isArray(parsed) ? (parsed as KnownConversation[]) : [];
  } catch {
    return [];
  }
}

export function rememberConversation(workspace: string, conversation: KnownConversation): KnownConversation[] {
  const list = [conversation, ...knownConversations(workspace).filter((c) => c.id !== conversation.id)].slice(0, LIMIT);
  localStorage.setItem(keyFor(workspace), JSON.stringify(list));
  return list;
}

export function forgetConversation(workspace: string, id: string): KnownConversation[] {
  const list = knownConversations(workspace).filter((c) => c.id !== id);
  localStorage.setItem(keyFor(workspace), JSON.stringify(list));
  return list;
}
