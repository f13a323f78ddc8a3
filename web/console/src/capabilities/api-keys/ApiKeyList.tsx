/** Placeholder: being built (issue #33). */
export default function ApiKeyList() {
  return <h1>ApiKeyList</h1>;
}
