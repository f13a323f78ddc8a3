/**
 * The formats the parsers read, in words, for the refusals that name them (an upload's 415, a
 * vector store's unsupported file): one list, so that no message forgets one (.doc and .xls were).
 */
export const SUPPORTED_FORMATS =
  'PDF, Word (.docx, .doc), Excel (.xlsx, .xls), PowerPoint (.pptx), EPUB, email (.eml), CSV, Markdown, plain text, HTML, PNG, JPEG, TIFF';
