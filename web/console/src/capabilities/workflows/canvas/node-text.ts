import { useTranslation } from 'react-i18next';

/**
 * The words people read for each node type: its name, and for every config field a label and a
 * one-line help, with a label for each choice of an enumeration. One place per language, keyed by
 * node type and field, so the palette, the node, the panel and the reference menu say the same
 * thing. The type id and field names stay the API's (they show small and monospace beside these);
 * test/unit/console-node-text.unit.test.ts fails when a type or field of the server's has no words
 * here in both languages.
 */
export type FieldText = { label: string; help: string; choices?: Record<string, string> };
export type TypeText = { name: string; fields: Record<string, FieldText> };
type Catalogue = Record<string, TypeText>;

const en: Catalogue = {
  start: {
    name: 'Start',
    fields: { inputs: { label: 'Inputs', help: 'What a run asks for: a list of {name, type, required?, description?}; other nodes quote them as {{start.name}}.' } },
  },
  knowledge_retrieval: {
    name: 'Knowledge retrieval',
    fields: {
      knowledge_base_id: { label: 'Knowledge base', help: 'The knowledge base whose documents are searched.' },
      query: { label: 'Search query', help: 'The text to search for, usually the user’s question: {{start.question}}.' },
      top_k: { label: 'Passages to retrieve', help: 'How many of the best-matching passages go to the next node.' },
      score_threshold: { label: 'Minimum relevance', help: 'Passages scoring below this (0 to 1) are left out; empty keeps them all.' },
      mode: {
        label: 'Search method',
        help: 'How passages are found; unset, the knowledge base’s own setting applies.',
        choices: { hybrid: 'Hybrid (meaning and keywords)', vector: 'By meaning', keyword: 'By keywords', graph: 'Knowledge graph' },
      },
      rerank: { label: 'Rerank the passages', help: 'Order the passages again with a finer model before the best are kept.' },
    },
  },
  llm: {
    name: 'Language model',
    fields: {
      model: { label: 'Model', help: 'The chat model that writes the text.' },
      system: { label: 'Instructions', help: 'The system message: how the model should answer, and the passages to answer from.' },
      prompt: { label: 'Prompt', help: 'The user’s message the model answers, usually the question.' },
      temperature: { label: 'Creativity (temperature)', help: '0 answers the same way each time; up to 2 varies more.' },
      max_tokens: { label: 'Longest answer (tokens)', help: 'The model stops after this many tokens; empty: the model’s own limit.' },
    },
  },
  template: { name: 'Text template', fields: { template: { label: 'Text', help: 'Text with {{node.field}} references filled in from earlier nodes.' } } },
  condition: {
    name: 'Condition',
    fields: {
      left: { label: 'Value to test', help: 'Usually a reference to an earlier node’s output.' },
      operator: {
        label: 'Test',
        help: 'How the value is compared; the edges out of this node are taken when true or false.',
        choices: { equals: 'is equal to', not_equals: 'is not equal to', contains: 'contains', empty: 'is empty', not_empty: 'is not empty' },
      },
      right: { label: 'Compared with', help: 'The other value, for “is equal to”, “is not equal to” and “contains”.' },
    },
  },
  direct_reply: { name: 'Reply', fields: { template: { label: 'Reply', help: 'The answer the run gives, with {{node.field}} references filled in.' } } },
  question_classifier: {
    name: 'Question classifier',
    fields: {
      query: { label: 'Question', help: 'The text to classify, usually {{start.question}}.' },
      classes: { label: 'Classes', help: 'The classes to choose from: {name, description, examples?}; an edge per class name.' },
      model: { label: 'Model', help: 'A chat model that classifies; empty: the offline classifier.' },
    },
  },
  parameter_extractor: {
    name: 'Parameter extractor',
    fields: {
      text: { label: 'Text', help: 'The text to read the parameters from, usually {{start.question}}.' },
      schema: { label: 'Parameters', help: 'A JSON Schema object: each property is a parameter to find.' },
      model: { label: 'Model', help: 'A chat model that extracts; empty: the offline extractor.' },
    },
  },
  iteration: {
    name: 'Iteration',
    fields: {
      items: { label: 'Items', help: 'A list from an earlier node, such as {{start.questions}}; the steps run once per item.' },
      graph: { label: 'Steps for each item', help: 'A graph of its own, whose start has one input, item.' },
      parallelism: { label: 'Items at once', help: 'How many items run at the same time.' },
    },
  },
  variable_aggregator: {
    name: 'Variable aggregator',
    fields: { values: { label: 'Values', help: 'References in order; the first that is not empty becomes the output (one per branch).' } },
  },
  end: { name: 'End', fields: { outputs: { label: 'Outputs', help: 'The run’s outputs: a name for each, and the template that fills it.' } } },
  http_request: {
    name: 'HTTP request',
    fields: {
      method: { label: 'Method', help: 'GET reads; POST, PUT and PATCH send the body; DELETE removes.', choices: { GET: 'GET', POST: 'POST', PUT: 'PUT', PATCH: 'PATCH', DELETE: 'DELETE', HEAD: 'HEAD' } },
      url: { label: 'Address (URL)', help: 'Where the request goes; it may include {{node.field}} references.' },
      headers: { label: 'Headers', help: 'Header names and their values, as JSON.' },
      secret_headers: { label: 'Secret headers', help: 'Header names and the name of a stored secret each: the value never shows here.' },
      body: { label: 'Body', help: 'What is sent, for POST, PUT and PATCH.' },
      body_type: { label: 'Body format', help: 'How the body is sent.', choices: { json: 'JSON', form: 'Form (URL-encoded)', text: 'Plain text' } },
      timeout_ms: { label: 'Time limit (ms)', help: 'The request fails after this many milliseconds.' },
      max_response_bytes: { label: 'Largest response (bytes)', help: 'A longer response fails the node.' },
      retries: { label: 'Retries', help: 'How many times a failed request is tried again.' },
    },
  },
  code: {
    name: 'JavaScript code',
    fields: {
      code: { label: 'Code', help: 'JavaScript run in a sandbox; what it returns is the output result.' },
      inputs: { label: 'Inputs', help: 'Names and the templates that fill them; the code reads them as inputs.name.' },
      time_limit_ms: { label: 'Time limit (ms)', help: 'The code is stopped after this many milliseconds.' },
    },
  },
};

const zhCN: Catalogue = {
  start: { name: '开始', fields: { inputs: { label: '输入项', help: '运行时要提供的内容：{name, type, required?, description?} 的列表；其他节点以 {{start.name}} 引用。' } } },
  knowledge_retrieval: {
    name: '知识检索',
    fields: {
      knowledge_base_id: { label: '知识库', help: '在哪个知识库的文档中检索。' },
      query: { label: '检索内容', help: '要检索的文本，通常是用户的问题：{{start.question}}。' },
      top_k: { label: '检索段落数', help: '把最匹配的多少个段落交给下一个节点。' },
      score_threshold: { label: '最低相关度', help: '相关度低于此值（0 到 1）的段落会被舍弃；留空则全部保留。' },
      mode: {
        label: '检索方式',
        help: '如何查找段落；不设置时使用知识库自己的设置。',
        choices: { hybrid: '混合（语义与关键词）', vector: '按语义', keyword: '按关键词', graph: '知识图谱' },
      },
      rerank: { label: '重新排序段落', help: '先用更精细的模型重新排序，再保留最佳段落。' },
    },
  },
  llm: {
    name: '大语言模型',
    fields: {
      model: { label: '模型', help: '生成文本的对话模型。' },
      system: { label: '指令', help: '系统消息：模型应如何回答，以及回答所依据的段落。' },
      prompt: { label: '提示词', help: '模型要回答的用户消息，通常是问题。' },
      temperature: { label: '创造性（温度）', help: '0 时每次回答相同；最高 2，变化更多。' },
      max_tokens: { label: '最长回答（词元）', help: '模型生成这么多词元后停止；留空则使用模型自身的上限。' },
    },
  },
  template: { name: '文本模板', fields: { template: { label: '文本', help: '含 {{node.field}} 引用的文本，引用处填入前面节点的输出。' } } },
  condition: {
    name: '条件分支',
    fields: {
      left: { label: '要判断的值', help: '通常是对前面某个节点输出的引用。' },
      operator: {
        label: '判断方式',
        help: '如何比较该值；此节点引出的边在结果为真或假时被选择。',
        choices: { equals: '等于', not_equals: '不等于', contains: '包含', empty: '为空', not_empty: '不为空' },
      },
      right: { label: '比较对象', help: '用于“等于”“不等于”和“包含”的另一个值。' },
    },
  },
  direct_reply: { name: '直接回复', fields: { template: { label: '回复', help: '运行给出的回答，其中的 {{node.field}} 引用会被填入。' } } },
  question_classifier: {
    name: '问题分类器',
    fields: {
      query: { label: '问题', help: '要分类的文本，通常是 {{start.question}}。' },
      classes: { label: '类别', help: '可选的类别：{name, description, examples?}；每个类别名对应一条边。' },
      model: { label: '模型', help: '用于分类的对话模型；留空则使用离线分类器。' },
    },
  },
  parameter_extractor: {
    name: '参数提取器',
    fields: {
      text: { label: '文本', help: '从中提取参数的文本，通常是 {{start.question}}。' },
      schema: { label: '参数', help: 'JSON Schema 对象：每个属性是一个要提取的参数。' },
      model: { label: '模型', help: '用于提取的对话模型；留空则使用离线提取器。' },
    },
  },
  iteration: {
    name: '迭代',
    fields: {
      items: { label: '列表', help: '来自前面节点的列表，例如 {{start.questions}}；每一项运行一次步骤。' },
      graph: { label: '每一项的步骤', help: '一个独立的图，其开始节点有一个输入 item。' },
      parallelism: { label: '同时处理的项数', help: '同时运行多少项。' },
    },
  },
  variable_aggregator: { name: '变量聚合器', fields: { values: { label: '取值', help: '按顺序排列的引用；第一个非空的值成为输出（每个分支一个）。' } } },
  end: { name: '结束', fields: { outputs: { label: '输出', help: '运行的输出：每项一个名称，以及填充它的模板。' } } },
  http_request: {
    name: 'HTTP 请求',
    fields: {
      method: { label: '请求方法', help: 'GET 读取；POST、PUT 和 PATCH 发送请求体；DELETE 删除。', choices: { GET: 'GET', POST: 'POST', PUT: 'PUT', PATCH: 'PATCH', DELETE: 'DELETE', HEAD: 'HEAD' } },
      url: { label: '地址（URL）', help: '请求发往何处；可以包含 {{node.field}} 引用。' },
      headers: { label: '请求头', help: '请求头名称及其值，以 JSON 表示。' },
      secret_headers: { label: '密钥请求头', help: '请求头名称及所用已存密钥的名称：此处从不显示密钥的值。' },
      body: { label: '请求体', help: 'POST、PUT 和 PATCH 发送的内容。' },
      body_type: { label: '请求体格式', help: '请求体的发送方式。', choices: { json: 'JSON', form: '表单（URL 编码）', text: '纯文本' } },
      timeout_ms: { label: '时间限制（毫秒）', help: '超过这么多毫秒，请求即失败。' },
      max_response_bytes: { label: '最大响应（字节）', help: '响应更长时此节点失败。' },
      retries: { label: '重试次数', help: '请求失败后再尝试的次数。' },
    },
  },
  code: {
    name: 'JavaScript 代码',
    fields: {
      code: { label: '代码', help: '在沙箱中运行的 JavaScript；其返回值即输出 result。' },
      inputs: { label: '输入', help: '名称及填充它们的模板；代码以 inputs.名称 读取。' },
      time_limit_ms: { label: '时间限制（毫秒）', help: '超过这么多毫秒，代码即被停止。' },
    },
  },
};

export const NODE_TEXT = { en, 'zh-CN': zhCN } as const;

/**
 * A name inside a sentence: in English "Knowledge retrieval" → "knowledge retrieval", a first word
 * with capitals of its own (HTTP, JavaScript) kept; in Chinese a space before a Latin first word
 * ("添加 HTTP 请求"), as Chinese typesetting spaces Latin words.
 */
export function inSentence(name: string, language: string): string {
  const first = name.split(' ')[0] ?? '';
  if (language !== 'en') return /^[A-Za-z]/.test(name) ? ` ${name}` : name;
  return /[A-Z]/.test(first.slice(1)) ? name : name.charAt(0).toLowerCase() + name.slice(1);
}

/** The node-type words in the console's language; an unknown type or field (a newer server's) shows its id. */
export function useNodeText() {
  const { i18n } = useTranslation();
  const language = i18n.language === 'zh-CN' ? 'zh-CN' : 'en';
  const catalogue: Catalogue = NODE_TEXT[language];
  return {
    language,
    typeName: (type: string) => catalogue[type]?.name ?? type,
    field: (type: string, field: string): FieldText => catalogue[type]?.fields[field] ?? { label: field, help: '' },
    choice: (type: string, field: string, value: string) => catalogue[type]?.fields[field]?.choices?.[value] ?? value,
  };
}
