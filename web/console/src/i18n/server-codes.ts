/**
 * The console's words for the codes the server reports, in each of its languages: a document's
 * failure (`error.code`, the server's catalogue in src/domain/document/failures.ts, whose English
 * these repeat word for word) and the API errors the console shows most (`error.code` of the API's
 * error shape). Plain data, no i18next: test/unit/console-server-codes.unit.test.ts checks that
 * every code of the server's catalogue is here in both languages. A code missing here is shown in
 * the server's own words.
 */

const DOCUMENT_FAILURES_EN = {
  encrypted: 'The file is password-protected; remove the password and upload it again.',
  corrupt: 'The file is damaged and cannot be read; upload an intact copy.',
  too_large: 'The file is too large to read (too many pages, sheets or cells, or too much data once unpacked); split it and upload the parts.',
  unsupported_type:
    'This type of file is not supported; convert it to one of PDF, Word (.docx, .doc), Excel (.xlsx, .xls), PowerPoint (.pptx), EPUB, email (.eml), CSV, Markdown, plain text, HTML, PNG, JPEG, TIFF and upload it again.',
  empty: 'The document holds no text to index; upload a file with text in it, or turn OCR on for scans.',
  timeout: 'Reading the document took too long; split it into smaller files and upload them again.',
  unsafe_content: 'The file declares XML entities, which documents never need and attacks use, so it was refused; save it again from its application and upload it.',
  resource_limit: 'Reading the document needed more memory than the parser may use; split it or shrink its images and upload it again.',
  blob_missing: 'The uploaded file is no longer stored; upload it again.',
  unreadable_event: 'A record of this document could not be read; upload it again.',
  internal_error: 'The server had an error while processing the document; upload it again, and tell the operator if it fails again.',
  knowledge_base_deleted: 'The knowledge base was deleted while the document was being processed.',
  model_unavailable: 'The embedding model of the knowledge base is not available; choose another in its settings and re-index.',
  model_not_found: 'The embedding provider does not serve the embedding model of the knowledge base; choose another in its settings and re-index.',
  provider_unavailable: 'The embedding provider could not be reached; check its address, then re-index the knowledge base.',
  provider_timeout: 'The embedding provider did not answer in time; re-index the knowledge base later.',
  provider_rate_limited: 'The embedding provider is limiting requests; re-index the knowledge base later.',
  provider_auth_failed: 'The embedding provider refused its API key; correct the key in the model provider, then re-index.',
  provider_rejected_request: 'The embedding provider rejected the request; check the embedding model’s settings, then re-index.',
  provider_bad_response: 'The embedding provider sent an answer that could not be used; check the embedding model’s settings, then re-index.',
  document_failed: 'The document could not be processed; upload it again.',
};

type Table<T> = { readonly [K in keyof T]: string };

const DOCUMENT_FAILURES_ZH: Table<typeof DOCUMENT_FAILURES_EN> = {
  encrypted: '文件受密码保护；请去除密码后重新上传。',
  corrupt: '文件已损坏，无法读取；请上传完好的副本。',
  too_large: '文件太大，无法读取（页数、工作表或单元格过多，或解压后数据过多）；请拆分后分别上传。',
  unsupported_type:
    '不支持此类文件；请转换为 PDF、Word（.docx、.doc）、Excel（.xlsx、.xls）、PowerPoint（.pptx）、EPUB、电子邮件（.eml）、CSV、Markdown、纯文本、HTML、PNG、JPEG 或 TIFF 后重新上传。',
  empty: '文档中没有可索引的文字；请上传含有文字的文件，或为扫描件开启 OCR。',
  timeout: '读取文档耗时过长；请拆分为较小的文件后重新上传。',
  unsafe_content: '文件声明了 XML 实体（文档从不需要，常被用于攻击），因此被拒绝；请在原应用中重新保存后上传。',
  resource_limit: '读取文档所需内存超出解析器的限额；请拆分文件或缩小其中的图片后重新上传。',
  blob_missing: '上传的文件已不在存储中；请重新上传。',
  unreadable_event: '无法读取此文档的一条记录；请重新上传。',
  internal_error: '服务器处理文档时出错；请重新上传，若仍失败请告知管理员。',
  knowledge_base_deleted: '处理文档期间知识库已被删除。',
  model_unavailable: '知识库的嵌入模型不可用；请在其设置中另选模型并重新索引。',
  model_not_found: '嵌入服务商不提供知识库的嵌入模型；请在其设置中另选模型并重新索引。',
  provider_unavailable: '无法连接嵌入服务商；请检查其地址，然后重新索引知识库。',
  provider_timeout: '嵌入服务商未能及时响应；请稍后重新索引知识库。',
  provider_rate_limited: '嵌入服务商正在限制请求；请稍后重新索引知识库。',
  provider_auth_failed: '嵌入服务商拒绝了其 API 密钥；请在模型服务商中更正密钥，然后重新索引。',
  provider_rejected_request: '嵌入服务商拒绝了请求；请检查嵌入模型的设置，然后重新索引。',
  provider_bad_response: '嵌入服务商返回了无法使用的响应；请检查嵌入模型的设置，然后重新索引。',
  document_failed: '无法处理该文档；请重新上传。',
};

const API_ERRORS_EN = {
  missing_api_key: 'No API key was sent; sign in with one.',
  invalid_api_key: 'The API key is not valid; check it and sign in again.',
  api_key_expired: 'The API key has expired; sign in with another.',
  api_key_revoked: 'The API key has been revoked; sign in with another.',
  invalid_authorization_header: 'The API key was sent in a form the server does not accept; sign in again.',
  console_session_required: 'The console is not signed in; sign in again.',
  console_session_expired: 'The console session has expired; sign in again.',
  invalid_console_session: 'The console session is not valid; sign in again.',
  csrf_header_required: 'The request lacked the console’s header; reload the page.',
  insufficient_scope: 'This API key may not do this; sign in with a key that has the scope.',
  workspace_key_required: 'A key limited to certain knowledge bases cannot do this; sign in with a workspace key.',
  knowledge_base_not_allowed: 'A key limited to certain knowledge bases cannot create new ones.',
  too_many_failed_authentications: 'Too many attempts with a wrong API key; wait a moment and try again.',
  rate_limit_exceeded: 'Too many requests; wait a moment and try again.',
  not_found: 'It is not there; it may have been deleted.',
  invalid_value: 'A value is not valid; correct it and try again.',
  missing_field: 'A required value is missing; fill it in and try again.',
  unknown_field: 'The request has a field the server does not know; reload the page and try again.',
  invalid_json: 'The request could not be read; reload the page and try again.',
  empty_file: 'The file is empty; choose a file with content.',
  too_many_files: 'Too many files at once; upload fewer at a time.',
  request_too_large: 'The upload is larger than the server accepts; upload a smaller file.',
  unsupported_media_type: 'This type of file is not supported; upload a supported format instead.',
  concurrent_modification: 'Someone else changed this meanwhile; reload it and try again.',
  idempotency_key_reused: 'This request was already made with other content; reload the page and try again.',
  internal_error: 'The server had an error; try again, and tell the operator if it happens again.',
  provider_unavailable: 'The model provider could not be reached; check its address or try again later.',
  provider_timeout: 'The model provider did not answer in time; try again later.',
  provider_rate_limited: 'The model provider is limiting requests; try again later.',
  provider_auth_failed: 'The model provider refused its API key; correct the key in the model provider.',
  provider_rejected_request: 'The model provider rejected the request; check the model’s settings.',
  provider_bad_response: 'The model provider sent an answer that could not be used; check the model’s settings.',
  model_not_found: 'The model is not available; choose another.',
  model_not_installed: 'This built-in model is not installed on the server; choose another, or ask the operator to install it.',
};

const API_ERRORS_ZH: Table<typeof API_ERRORS_EN> = {
  missing_api_key: '未提供 API 密钥；请用 API 密钥登录。',
  invalid_api_key: 'API 密钥无效；请检查后重新登录。',
  api_key_expired: 'API 密钥已过期；请使用其他密钥登录。',
  api_key_revoked: 'API 密钥已被吊销；请使用其他密钥登录。',
  invalid_authorization_header: 'API 密钥的发送格式不被服务器接受；请重新登录。',
  console_session_required: '控制台尚未登录；请重新登录。',
  console_session_expired: '控制台会话已过期；请重新登录。',
  invalid_console_session: '控制台会话无效；请重新登录。',
  csrf_header_required: '请求缺少控制台的请求头；请刷新页面。',
  insufficient_scope: '此 API 密钥无权执行此操作；请使用具有相应权限的密钥登录。',
  workspace_key_required: '限定于部分知识库的密钥不能执行此操作；请使用工作区密钥登录。',
  knowledge_base_not_allowed: '限定于部分知识库的密钥不能创建新知识库。',
  too_many_failed_authentications: '使用错误 API 密钥的尝试过多；请稍候再试。',
  rate_limit_exceeded: '请求过多；请稍候再试。',
  not_found: '找不到该项；它可能已被删除。',
  invalid_value: '某个值无效；请更正后重试。',
  missing_field: '缺少必填的值；请填写后重试。',
  unknown_field: '请求中有服务器不认识的字段；请刷新页面后重试。',
  invalid_json: '无法读取请求；请刷新页面后重试。',
  empty_file: '文件为空；请选择有内容的文件。',
  too_many_files: '一次上传的文件过多；请分批上传。',
  request_too_large: '上传内容超出服务器的限额；请上传较小的文件。',
  unsupported_media_type: '不支持此类文件；请改为上传支持的格式。',
  concurrent_modification: '此项已被他人修改；请刷新后重试。',
  idempotency_key_reused: '此请求已以不同内容提交过；请刷新页面后重试。',
  internal_error: '服务器出错；请重试，若再次发生请告知管理员。',
  provider_unavailable: '无法连接模型服务商；请检查其地址或稍后再试。',
  provider_timeout: '模型服务商未能及时响应；请稍后再试。',
  provider_rate_limited: '模型服务商正在限制请求；请稍后再试。',
  provider_auth_failed: '模型服务商拒绝了其 API 密钥；请在模型服务商中更正密钥。',
  provider_rejected_request: '模型服务商拒绝了请求；请检查模型的设置。',
  provider_bad_response: '模型服务商返回了无法使用的响应；请检查模型的设置。',
  model_not_found: '该模型不可用；请另选一个。',
  model_not_installed: '服务器上未安装此内置模型；请另选一个，或请管理员安装。',
};

/** The chat's answer when the knowledge base does not cover the question (the chat response's `answerable: false`). */
const NOT_COVERED = {
  en: 'The knowledge base does not cover this question: none of its passages is relevant enough to answer it.',
  'zh-CN': '知识库没有涵盖这个问题：其中没有足够相关的段落可以回答它。',
};

export type CodeLanguage = 'en' | 'zh-CN';

export const DOCUMENT_FAILURE_TEXT: Readonly<Record<CodeLanguage, Readonly<Record<string, string>>>> = { en: DOCUMENT_FAILURES_EN, 'zh-CN': DOCUMENT_FAILURES_ZH };
export const API_ERROR_TEXT: Readonly<Record<CodeLanguage, Readonly<Record<string, string>>>> = { en: API_ERRORS_EN, 'zh-CN': API_ERRORS_ZH };
export const NOT_COVERED_TEXT: Readonly<Record<CodeLanguage, string>> = NOT_COVERED;

/** What the console shows for a code: its own sentence, and the server's words when they say more. */
export type Said = { text: string; detail?: string };

/** The one text for every `…_not_found` code (knowledge_base_not_found, document_not_found …): the server's words name the thing. */
const tableKey = (code: string) => (code.endsWith('_not_found') && code !== 'model_not_found' ? 'not_found' : code);

function said(table: Readonly<Record<CodeLanguage, Readonly<Record<string, string>>>>, language: CodeLanguage, code: string, serverWords: string, detail?: string): Said {
  const key = tableKey(code);
  const own = Object.hasOwn(table[language], key) ? table[language][key] : undefined;
  if (own === undefined) return { text: serverWords, ...(detail && { detail }) };
  // The server's sentence is shown too when it says more than ours does in English (a field, a limit, a name).
  const more = detail ?? (serverWords && serverWords !== table.en[key] ? serverWords : undefined);
  return { text: own, ...(more && { detail: more }) };
}

/** A document's failure (`error: {code, message, detail?}`) in `language`. */
export const documentFailureSaid = (language: CodeLanguage, error: { code: string; message: string; detail?: string | null | undefined }): Said =>
  said(DOCUMENT_FAILURE_TEXT, language, error.code, error.message, error.detail ?? undefined);

/** An API error (`{error: {code, message}}`) in `language`. */
export const apiErrorSaid = (language: CodeLanguage, error: { code: string; message: string }): Said => said(API_ERROR_TEXT, language, error.code, error.message);
