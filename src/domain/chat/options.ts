/**
 * The OpenAI request field a model that passes no options on (the offline one) cannot honour
 * without breaking the answer's contract, or null. Tools, a function to call, JSON or JSON-schema
 * output and audio change what the client gets back; sampling, logprobs, seeds, stop sequences,
 * metadata … only shape how an answer is generated, and are ignored.
 */
export function contractChangingOption(options: Readonly<Record<string, unknown>>): string | null {
  const nonEmpty = (field: string) => Array.isArray(options[field]) && (options[field] as unknown[]).length > 0;
  if (nonEmpty('tools')) return 'tools';
  if (nonEmpty('functions')) return 'functions';
  const toolChoice = options.tool_choice;
  // 'none' and 'auto' ask for nothing without tools; 'required' or a named tool asks for a call.
  if (toolChoice !== undefined && toolChoice !== null && toolChoice !== 'none' && toolChoice !== 'auto') return 'tool_choice';
  const functionCall = options.function_call;
  if (functionCall !== undefined && functionCall !== 'none' && functionCall !== 'auto') return 'function_call';
  const format = (options.response_format as { type?: string } | undefined)?.type;
  if (format === 'json_schema' || format === 'json_object') return 'response_format';
  return null;
}
