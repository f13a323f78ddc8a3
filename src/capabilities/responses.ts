/** OpenAI's Responses API: /v1/responses, chat under its names, stored to read back and continue. */
export { responseEvents } from '../../schemas/events/response.ts';
export { ResponseCreateBody, ResponseObject } from '../../schemas/http/responses.ts';
export { responseDecider } from '../domain/response/response.ts';
export { createResponsesService } from '../app/services/responses.ts';
export { responseRoutes } from '../http/routes/responses.ts';
