import type { RequestBody } from '../../api/client.ts';
import type { KnowledgeBase } from './context.ts';

/** The settings screen's fields, flat, as the form edits them. */
export type SettingsDraft = {
  name: string;
  description: string;
  language: string;
  top_k: number;
  score_threshold: number;
  min_coverage: number;
  embedding_model: string;
  rerank_enabled: boolean;
  rerank_model: string | null;
  recall: { vector: boolean; keyword: boolean; graph: boolean };
  max_tokens: number;
  overlap_tokens: number;
};

export function draftOf(kb: KnowledgeBase): SettingsDraft {
  const s = kb.settings;
  return {
    name: kb.name,
    description: kb.description ?? '',
    language: s.language ?? 'auto',
    top_k: s.top_k,
    score_threshold: s.score_threshold,
    min_coverage: s.answerability?.min_coverage ?? 0.4,
    embedding_model: s.embedding_model,
    rerank_enabled: s.rerank.enabled,
    rerank_model: s.rerank.model,
    recall: { ...s.recall },
    max_tokens: s.chunking.max_tokens,
    overlap_tokens: s.chunking.overlap_tokens,
  };
}

/** The PATCH body: the whole draft (the API deep-merges it, so unchanged values are harmless). */
export function patchOf(draft: SettingsDraft): RequestBody<'/v1/knowledge-bases/{kb_id}', 'patch'> {
  return {
    name: draft.name.trim(),
    description: draft.description.trim() || null,
    settings: {
      language: draft.language,
      top_k: draft.top_k,
      score_threshold: draft.score_threshold,
      answerability: { min_coverage: draft.min_coverage },
      embedding_model: draft.embedding_model,
      rerank: { enabled: draft.rerank_enabled, model: draft.rerank_model },
      recall: draft.recall,
      chunking: { max_tokens: draft.max_tokens, overlap_tokens: draft.overlap_tokens },
    },
  };
}

/** The draft's field a 400's `param` names (`settings.chunking.overlap_tokens` → `overlap_tokens`), so its message shows there. */
export function fieldOf(param: string | null): keyof SettingsDraft | null {
  if (!param) return null;
  const fields: Record<string, keyof SettingsDraft> = {
    name: 'name',
    description: 'description',
    'settings.language': 'language',
    'settings.top_k': 'top_k',
    'settings.score_threshold': 'score_threshold',
    'settings.answerability.min_coverage': 'min_coverage',
    'settings.embedding_model': 'embedding_model',
    'settings.rerank.model': 'rerank_model',
    'settings.chunking.max_tokens': 'max_tokens',
    'settings.chunking.overlap_tokens': 'overlap_tokens',
  };
  return fields[param] ?? null;
}
