import { fileEvents } from '../../schemas/events/file.ts';
import { filesProjection } from '../../projections/files/index.ts';
import { fileDecider } from '../domain/file/file.ts';
import { openAiFileRoutes } from '../http/routes/openai-files.ts';
import { defineCapability } from './capability.ts';

export const files = defineCapability({
  name: 'files',
  summary: "OpenAI's Files API: the workspace's uploads.",
  events: fileEvents,
  deciders: [fileDecider],
  projections: [filesProjection],
  routes: ({ services, settings }) => openAiFileRoutes(services.files, settings),
});
