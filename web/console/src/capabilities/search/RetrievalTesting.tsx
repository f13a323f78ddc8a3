/** Placeholder: being built (issue #33). */
export default function RetrievalTesting() {
  return <h1>RetrievalTesting</h1>;
}
