/** Every word the page shows, per language, in one place (STYLE.md: i18n keys in one place per language). */
const en = {
  conversation: 'Conversation',
  suggested: 'Suggested questions',
  message: 'Message',
  send: 'Send',
  you: 'You',
  answering: 'Answering…',
  citation: (n: number) => `Citation ${n}`,
  pageAlt: (page: number, file: string) => `Page ${page} of ${file}`,
  source: 'Source',
  page: (page: number) => `Page ${page}`,
  close: 'Close',
  helpful: 'Helpful',
  notHelpful: 'Not helpful',
  thanks: 'Thanks for your feedback.',
  accessCode: 'Access code',
  accessCodeHint: 'This assistant needs an access code.',
  accessCodeInvalid: 'That access code is not right. Please check it and try again.',
  continue: 'Continue',
  retryIn: (seconds: number) => `Too many messages. Please try again in ${seconds} seconds.`,
  dailyCap: 'The daily message limit is reached. Please come back tomorrow.',
  notFound: 'This assistant is no longer available.',
  network: 'Could not reach the server. Check your connection and try again.',
  failed: 'Something went wrong. Please try again.',
};

export type Strings = typeof en;

const zhCN: Strings = {
  conversation: '对话',
  suggested: '推荐问题',
  message: '消息',
  send: '发送',
  you: '你',
  answering: '正在回答…',
  citation: (n) => `引用 ${n}`,
  pageAlt: (page, file) => `${file} 第 ${page} 页`,
  source: '来源',
  page: (page) => `第 ${page} 页`,
  close: '关闭',
  helpful: '有帮助',
  notHelpful: '没有帮助',
  thanks: '感谢你的反馈。',
  accessCode: '访问码',
  accessCodeHint: '使用此助手需要访问码。',
  accessCodeInvalid: '访问码不正确，请检查后重试。',
  continue: '继续',
  retryIn: (seconds) => `消息过多，请在 ${seconds} 秒后重试。`,
  dailyCap: '已达到今日消息上限，请明天再来。',
  notFound: '此助手已不再提供服务。',
  network: '无法连接服务器，请检查网络后重试。',
  failed: '出了点问题，请重试。',
};

/** English, or Simplified Chinese for a browser whose first language is Chinese (zh, zh-CN, zh-Hans…). */
export function pickLocale(languages: readonly string[]): { lang: 'en' | 'zh-CN'; t: Strings } {
  return /^zh\b/i.test(languages[0] ?? '') ? { lang: 'zh-CN', t: zhCN } : { lang: 'en', t: en };
}
