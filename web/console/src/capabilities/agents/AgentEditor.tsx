/** Placeholder: being built (issue #33). */
export default function AgentEditor() {
  return <h1>AgentEditor</h1>;
}
