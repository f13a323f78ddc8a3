import { z } from 'zod';
import { OcrLanguages } from './ocr-languages.ts';

const modelId = z.string().min(1).max(200);

const minCoverage = z
  .number()
  .min(0)
  .max(1)
  .describe(
    'The least share of a question (its terms weighed by their rarity in this knowledge base) one retrieved passage must hold for the question to be answered. ' +
      'Below it the answer is "not covered", with no citations, and no model is called. 0 answers everything; higher refuses more off-topic questions and more answerable ones worded unlike the documents.',
  );
const Answerability = z.strictObject({ min_coverage: minCoverage });

/** Knowledge bases created before answerability existed hold no such setting: they get the default. */
export const DEFAULT_ANSWERABILITY = { min_coverage: 0.4 };
/** ISO 639-1 codes the text analyzer stems or segments (src/adapters/text/languages.ts keeps the same list). */
export const ANALYZER_LANGUAGES = [
  'ar', 'bg', 'cs', 'da', 'de', 'el', 'en', 'es', 'fa', 'fi', 'fr', 'ga', 'he', 'hi', 'hu', 'hy', 'id', 'it', 'ja', 'ko',
  'lt', 'ne', 'nl', 'no', 'pl', 'pt', 'ro', 'ru', 'sk', 'sl', 'sr', 'sv', 'ta', 'th', 'tr', 'uk', 'vi', 'zh',
] as const;

/**
 * The language the knowledge base's texts are analysed in (stop words, stemming) for keyword
 * search: an ISO 639-1 code, or 'auto' to detect each document's language and each query's.
 * Pinning it helps short queries, whose language detection cannot be sure of.
 */
const language = z
  .string()
  .refine((code) => code === 'auto' || (ANALYZER_LANGUAGES as readonly string[]).includes(code), {
    message: `must be 'auto' or one of the supported ISO 639-1 codes: ${ANALYZER_LANGUAGES.join(', ')}`,
  })
  .meta({ description: "ISO 639-1 code of the knowledge base's language, or 'auto' to detect it per document and per query." });

const keepVersions = z
  .int()
  .min(1)
  .nullable()
  .describe(
    "How many versions of each document to keep, the current one included; older ones are purged (bytes deleted, chunks out of every index) once a newer version is ready, and as_of at a time they answered is 410 version_purged. null or absent: keep all",
  );

export const KnowledgeBaseSettings = z
  .strictObject({
    embedding_model: modelId,
    top_k: z.int().min(1).max(100),
    score_threshold: z.number().min(0).max(1),
    recall: z.strictObject({ vector: z.boolean(), keyword: z.boolean(), graph: z.boolean() }),
    rerank: z.strictObject({ enabled: z.boolean(), model: modelId.nullable() }),
    chunking: z.strictObject({ max_tokens: z.int().min(32).max(8192), overlap_tokens: z.int().min(0).max(4096) }),
    answerability: Answerability.optional(),
    // Knowledge bases created before the setting existed read as 'auto'.
    language: language.optional(),
    // null, or knowledge bases older than the setting: each page's script and language are detected.
    ocr: z.strictObject({ languages: OcrLanguages.nullable() }).optional(),
    keep_versions: keepVersions.optional(),
  })
  .superRefine((s, ctx) => {
    if (!s.recall.vector && !s.recall.keyword && !s.recall.graph) {
      ctx.addIssue({ code: 'custom', path: ['recall'], message: 'at least one of vector, keyword or graph recall must be enabled' });
    }
    if (s.chunking.overlap_tokens >= s.chunking.max_tokens) {
      ctx.addIssue({ code: 'custom', path: ['chunking', 'overlap_tokens'], message: 'must be smaller than chunking.max_tokens' });
    }
  });
export type KnowledgeBaseSettings = z.infer<typeof KnowledgeBaseSettings>;

/** What a client may send: any subset, merged over the defaults (create) or current settings (patch). */
export const KnowledgeBaseSettingsPatch = z.strictObject({
  embedding_model: modelId.optional().meta({ description: "An embedding model of GET /v1/models: the deployment's, or one of the workspace's model providers' as {provider}/{model} (its dimensions given in the provider's models)." }),
  top_k: z.int().min(1).max(100).optional(),
  score_threshold: z.number().min(0).max(1).optional(),
  recall: z.strictObject({ vector: z.boolean().optional(), keyword: z.boolean().optional(), graph: z.boolean().optional() }).optional(),
  rerank: z
    .strictObject({
      enabled: z.boolean().optional(),
      model: modelId.nullable().optional().meta({ description: "A rerank model of GET /v1/models, the deployment's or a workspace provider's ({provider}/{model}); null: the default." }),
    })
    .optional(),
  chunking: z
    .strictObject({ max_tokens: z.int().min(32).max(8192).optional(), overlap_tokens: z.int().min(0).max(4096).optional() })
    .optional(),
  answerability: z.strictObject({ min_coverage: minCoverage.optional() }).optional(),
  // Checked against the supported codes with the merged settings, so a bad one is invalid_settings like every other.
  language: z.string().max(16).optional().meta({ description: "ISO 639-1 code of the knowledge base's language, or 'auto'." }),
  ocr: z.strictObject({ languages: OcrLanguages.nullable().optional() }).optional(),
  keep_versions: keepVersions.optional(),
});
export type KnowledgeBaseSettingsPatch = z.infer<typeof KnowledgeBaseSettingsPatch>;

export function defaultSettings(embeddingModel: string): KnowledgeBaseSettings {
  return {
    embedding_model: embeddingModel,
    top_k: 5,
    score_threshold: 0,
    recall: { vector: true, keyword: true, graph: false },
    rerank: { enabled: true, model: null },
    chunking: { max_tokens: 512, overlap_tokens: 64 },
    answerability: DEFAULT_ANSWERABILITY,
    language: 'auto',
    ocr: { languages: null },
  };
}

export function mergeSettings(base: KnowledgeBaseSettings, patch: KnowledgeBaseSettingsPatch): unknown {
  return {
    ...base,
    ...stripUndefined(patch),
    recall: { ...base.recall, ...stripUndefined(patch.recall ?? {}) },
    rerank: { ...base.rerank, ...stripUndefined(patch.rerank ?? {}) },
    chunking: { ...base.chunking, ...stripUndefined(patch.chunking ?? {}) },
    answerability: { ...answerabilitySettings(base), ...stripUndefined(patch.answerability ?? {}) },
    ocr: { languages: null, ...base.ocr, ...stripUndefined(patch.ocr ?? {}) },
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The OCR languages a knowledge base pinned, or undefined when each page's are detected. */
export const pinnedOcrLanguages = (settings: KnowledgeBaseSettings): string[] | undefined => settings.ocr?.languages ?? undefined;

export const answerabilitySettings = (settings: KnowledgeBaseSettings) => settings.answerability ?? DEFAULT_ANSWERABILITY;

/** The language a knowledge base pinned, or undefined when it detects ('auto', or a knowledge base older than the setting). */
export const pinnedLanguage = (settings: KnowledgeBaseSettings): string | undefined =>
  settings.language === undefined || settings.language === 'auto' ? undefined : settings.language;
