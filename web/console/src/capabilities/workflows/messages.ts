import { defineMessages } from '../../i18n/index.ts';

export const useWorkflowText = defineMessages(
  'workflows',
  {
    title: 'Workflows',
    intro: 'Workflows chain retrieval, model calls, templates and conditions into one run, started through the API or by an agent.',
    editorComing: 'A canvas editor is coming (issue #34). Until then, workflows are created and run through the API, as described in',
    listLabel: 'Workflows of this workspace',
    name: 'Name',
    nodes: 'Nodes',
    version: 'Version',
    updated: 'Updated',
    loading: 'Loading…',
    emptyTitle: 'No workflows yet',
    emptyText: 'Create one with POST /v1/workflows (the knowledge-qa template makes a retrieval-and-answer workflow in one call).',
  },
  {
    title: '工作流',
    intro: '工作流把检索、模型调用、模板和条件串成一次运行，可通过 API 或智能体启动。',
    editorComing: '画布编辑器即将推出（issue #34）。在此之前，请通过 API 创建和运行工作流，详见',
    listLabel: '此工作区的工作流',
    name: '名称',
    nodes: '节点数',
    version: '版本',
    updated: '更新时间',
    loading: '加载中…',
    emptyTitle: '还没有工作流',
    emptyText: '使用 POST /v1/workflows 创建（knowledge-qa 模板一次即可生成“检索并回答”的工作流）。',
  },
);
