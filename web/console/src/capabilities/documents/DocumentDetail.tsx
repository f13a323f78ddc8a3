/** Placeholder: being built (issue #33). */
export default function DocumentDetail() {
  return <h1>DocumentDetail</h1>;
}
