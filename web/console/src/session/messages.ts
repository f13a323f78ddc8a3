import { defineMessages } from '../i18n/index.ts';

export const useSessionText = defineMessages(
  'session',
  {
    title: 'Sign in to KBQA',
    intro: 'Sign in with an API key of your workspace. The key is kept in a secure cookie, never in this page.',
    apiKey: 'API key',
    apiKeyHint: 'Starts with kbqa-. A fresh server prints its first admin key when it starts.',
    signIn: 'Sign in',
    signingIn: 'Signing in…',
    signOut: 'Sign out',
    signedInAs: 'Workspace {{workspace}} · {{scopes}}',
    readOnly: 'Read-only key: write controls are hidden.',
    loading: 'Loading…',
  },
  {
    title: '登录 KBQA',
    intro: '使用工作区的 API 密钥登录。密钥保存在安全 Cookie 中，页面脚本无法读取。',
    apiKey: 'API 密钥',
    apiKeyHint: '以 kbqa- 开头。新服务器启动时会打印第一个管理员密钥。',
    signIn: '登录',
    signingIn: '正在登录…',
    signOut: '退出登录',
    signedInAs: '工作区 {{workspace}} · {{scopes}}',
    readOnly: '只读密钥：已隐藏写入操作。',
    loading: '加载中…',
  },
);
