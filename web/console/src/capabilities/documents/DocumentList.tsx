/** Placeholder: being built (issue #33). */
export default function DocumentList() {
  return <h1>DocumentList</h1>;
}
