import { defineMessages } from '../i18n/index.ts';

/** The navigation's names are a contract (tests and screen readers find the screens by them). */
export const useShellText = defineMessages(
  'shell',
  {
    product: 'KBQA console',
    navigation: 'Console',
    knowledgeBases: 'Knowledge bases',
    chat: 'Chat',
    workflows: 'Workflows',
    agents: 'Agents',
    models: 'Models',
    apiKeys: 'API keys',
    language: 'Language',
    skipToContent: 'Skip to content',
    loadingScreen: 'Loading…',
    screenFailed: 'This screen could not be shown: {{message}}',
    notFound: 'There is no such page.',
  },
  {
    product: 'KBQA 控制台',
    navigation: '控制台',
    knowledgeBases: '知识库',
    chat: '对话',
    workflows: '工作流',
    agents: '智能体',
    models: '模型',
    apiKeys: 'API 密钥',
    language: '语言',
    skipToContent: '跳到正文',
    loadingScreen: '加载中…',
    screenFailed: '无法显示此页面：{{message}}',
    notFound: '页面不存在。',
  },
);
