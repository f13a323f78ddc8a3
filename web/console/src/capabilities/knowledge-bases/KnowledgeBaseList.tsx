/** Placeholder: being built (issue #33). */
export default function KnowledgeBaseList() {
  return <h1>KnowledgeBaseList</h1>;
}
