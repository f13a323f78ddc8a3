/** Placeholder: being built (issue #33). */
export default function KnowledgeBaseSettings() {
  return <h1>KnowledgeBaseSettings</h1>;
}
