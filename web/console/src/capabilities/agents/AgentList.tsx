/** Placeholder: being built (issue #33). */
export default function AgentList() {
  return <h1>AgentList</h1>;
}
