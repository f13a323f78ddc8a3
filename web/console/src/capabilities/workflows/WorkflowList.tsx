/** Placeholder: being built (issue #33). */
export default function WorkflowList() {
  return <h1>WorkflowList</h1>;
}
